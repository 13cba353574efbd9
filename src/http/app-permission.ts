// The one check of an app's permissions against the route's need (route config
// `appPermission`, else the operation's row of app-permission-table.ts), for installation
// tokens and for user-to-server tokens (the app acting for a user).
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actor.ts';
import { ForbiddenError } from '../domain/errors.ts';
import { APP_PERMISSIONS } from './app-permission-table.ts';
import type { AppPermissionLevels, AppPermissionNeed, WharfRouteConfig } from './types.ts';

/** Upstream's answer when an app's installation lacks the permission a route needs. */
export const NOT_ACCESSIBLE_BY_INTEGRATION = 'Resource not accessible by integration';

const RANK = { read: 1, write: 2, admin: 3 } as const;

/**
 * Operations upstream opens to user-to-server tokens but not to installation tokens
 * (the table's 'none'): they are about the user the app acts for, and need no permission.
 */
export const USER_TOKEN_ONLY: Readonly<Record<string, AppPermissionNeed>> = {
  'users/get-authenticated': {},
  'apps/list-installations-for-authenticated-user': {},
  'apps/list-installation-repos-for-authenticated-user': {},
  'apps/add-repo-to-installation-for-authenticated-user': {},
  'apps/remove-repo-from-installation-for-authenticated-user': {},
};

export function appPermissionOf(config: WharfRouteConfig | undefined): AppPermissionNeed | null {
  if (config?.appPermission !== undefined) return config.appPermission;
  return (config?.operationId && APP_PERMISSIONS[config.operationId]) || null;
}

type Held = Readonly<Record<string, 'read' | 'write' | 'admin'>>;

/** True when `held` satisfies `need` ('none' never is). */
export function permissionsSatisfy(held: Held, need: AppPermissionNeed): boolean {
  if (need === 'none') return false;
  const alternatives: readonly AppPermissionLevels[] = isAlternatives(need) ? need : [need];
  return alternatives.some((set) => Object.entries(set).every(([name, level]) => {
    const has = held[name];
    return has !== undefined && RANK[has] >= RANK[level];
  }));
}

/**
 * What a user-to-server token holds on this request: the permissions of the app's
 * installation on the account the path names (`owner` or `org`), else the union of its
 * installations'. The repository itself is checked by repos.access.
 */
function userTokenPermissions(request: FastifyRequest, actor: Actor): Held {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const named = typeof params.owner === 'string' ? params.owner : typeof params.org === 'string' ? params.org : null;
  const reach = named === null ? undefined : actor.integration?.reach?.find((r) => r.accountLogin === named.toLowerCase());
  return reach?.permissions ?? actor.integration?.permissions ?? {};
}

/** 403 unless the app's token holds what the route needs; other actors pass. */
export function checkAppPermission(request: FastifyRequest, actor: Actor): void {
  if (actor.method !== 'installation' && actor.method !== 'user_to_server') return;
  const config = request.routeOptions.config;
  let need = appPermissionOf(config) ?? 'none';
  let held: Held = actor.integration?.permissions ?? {};
  if (actor.method === 'user_to_server') {
    if (need === 'none' && config?.operationId) need = USER_TOKEN_ONLY[config.operationId] ?? 'none';
    held = userTokenPermissions(request, actor);
  }
  if (!permissionsSatisfy(held, need)) throw new ForbiddenError(NOT_ACCESSIBLE_BY_INTEGRATION);
}

function isAlternatives(need: AppPermissionLevels | readonly AppPermissionLevels[]): need is readonly AppPermissionLevels[] {
  return Array.isArray(need);
}
