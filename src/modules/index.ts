// Every area's routes, in registration order.
import type { RouteModule } from '../http/router.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { orgsRoutes } from './orgs/orgs.routes.ts';
import { usersRoutes } from './users/users.routes.ts';

export const ROUTE_MODULES: RouteModule[] = [usersRoutes, adminRoutes, orgsRoutes, metaRoutes];
