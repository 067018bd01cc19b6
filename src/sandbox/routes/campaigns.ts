// Placeholder: the routes of this group are added with their implementation.
import type { RouteDef } from '../router.js';

export const routes: RouteDef[] = [];
