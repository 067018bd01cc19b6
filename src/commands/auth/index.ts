import { defineGroup } from '../define.js';
import login from './login.js';
import logout from './logout.js';
import status from './status.js';
import switchProfile from './switch.js';

export default defineGroup({ name: 'auth', summary: 'Manage profiles and API keys', commands: [login, logout, status, switchProfile] });
