// The one check of an installation token's permissions against the route's need
// (route config `appPermission`, else the operation's row of app-permission-table.ts).
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actor.ts';
import { ForbiddenError } from '../domain/errors.ts';
import { APP_PERMISSIONS } from './app-permission-table.ts';
import type { AppPermissionLevels, AppPermissionNeed, WharfRouteConfig } from './types.ts';

/** Upstream's answer when an app's installation lacks the permission a route needs. */
export const NOT_ACCESSIBLE_BY_INTEGRATION = 'Resource not accessible by integration';

const RANK = { read: 1, write: 2, admin: 3 } as const;

export function appPermissionOf(config: WharfRouteConfig | undefined): AppPermissionNeed | null {
  if (config?.appPermission !== undefined) return config.appPermission;
  return (config?.operationId && APP_PERMISSIONS[config.operationId]) || null;
}

/** 403 unless the installation actor holds what the route needs; other actors pass. */
export function checkAppPermission(request: FastifyRequest, actor: Actor): void {
  if (actor.method !== 'installation') return;
  const need = appPermissionOf(request.routeOptions.config) ?? 'none';
  const held = actor.integration?.permissions ?? {};
  if (need === 'none') throw new ForbiddenError(NOT_ACCESSIBLE_BY_INTEGRATION);
  const alternatives: readonly AppPermissionLevels[] = isAlternatives(need) ? need : [need];
  const satisfied = alternatives.some((set) => Object.entries(set).every(([name, level]) => {
    const has = held[name];
    return has !== undefined && RANK[has] >= RANK[level];
  }));
  if (!satisfied) throw new ForbiddenError(NOT_ACCESSIBLE_BY_INTEGRATION);
}

function isAlternatives(need: AppPermissionLevels | readonly AppPermissionLevels[]): need is readonly AppPermissionLevels[] {
  return Array.isArray(need);
}
