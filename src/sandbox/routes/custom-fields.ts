import type { RouteDef } from '../router.js';

export const routes: RouteDef[] = [];
