// The list sub-resources of a branch's protection: …/required_status_checks/contexts
// and …/restrictions/{users,teams,apps}. GET reads the list; POST adds to it, PUT
// replaces it, DELETE removes from it, each answering the list as it now stands.
import type { TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Router } from '../../http/router.ts';
import type { Urls } from '../../urls.ts';
import type { Kind } from './protection-actors.service.ts';
import * as parts from './protection-parts.service.ts';
import * as restrictions from './protection-restrictions.service.ts';
import {
  AppsBody, BranchParams, Contexts, ContextsBody, RestrictedApps, RestrictedTeams, RestrictedUsers, TeamsBody, UsersBody,
} from './protection.schemas.ts';
import type { Protection } from './protection.service.ts';
import { restrictedAppsView, restrictedTeamsView, restrictedUsersView } from './protection.views.ts';

const ADMIN = ['public_repo', 'repo'];
const RESOURCE = 'Branch';
const BASE = '/repos/:owner/:repo/branches/:branch/protection';
const CHANGES = [['post', 'add'], ['put', 'set'], ['delete', 'remove']] as const;

/** A list body: a bare array of names, or upstream's `{<key>: [...]}`. */
function namesOf(body: string[] | Record<string, string[]>, key: string): string[] {
  return Array.isArray(body) ? body : body[key]!;
}

interface List {
  path: string;
  key: 'contexts' | Kind;
  body: TSchema;
  response: TSchema;
  /** Operation ids written out whole: scripts/draft-app-permissions.mjs finds them so. */
  ids: { get: { operationId: string }; post: { operationId: string }; put: { operationId: string }; delete: { operationId: string } };
  read: (ctx: AppContext, actor: Actor, w: parts.Where) => Promise<Protection>;
  change: (ctx: AppContext, actor: Actor, w: parts.Where, change: parts.ListChange, names: readonly string[]) => Promise<Protection>;
  view: (urls: Urls, p: Protection) => unknown;
}

/** The restrictions list of `kind`, read and changed. */
function restricted(kind: Kind): Pick<List, 'read' | 'change'> {
  return {
    read: restrictions.getRestricted,
    change: (ctx, actor, w, change, names) => restrictions.changeRestricted(ctx, actor, w, kind, change, names),
  };
}

const LISTS: List[] = [
  {
    path: 'required_status_checks/contexts', key: 'contexts', body: ContextsBody, response: Contexts,
    ids: {
      get: { operationId: 'repos/get-all-status-check-contexts' }, post: { operationId: 'repos/add-status-check-contexts' },
      put: { operationId: 'repos/set-status-check-contexts' }, delete: { operationId: 'repos/remove-status-check-contexts' },
    },
    read: (ctx, actor, w) => parts.getPart(ctx, actor, w, 'requiredStatusChecks'),
    change: parts.changeContexts,
    view: (_urls, p) => p.rule.rules.requiredStatusChecks!.checks.map((c) => c.context),
  },
  {
    path: 'restrictions/users', key: 'users', body: UsersBody, response: RestrictedUsers,
    ids: {
      get: { operationId: 'repos/get-users-with-access-to-protected-branch' }, post: { operationId: 'repos/add-user-access-restrictions' },
      put: { operationId: 'repos/set-user-access-restrictions' }, delete: { operationId: 'repos/remove-user-access-restrictions' },
    },
    ...restricted('users'),
    view: restrictedUsersView,
  },
  {
    path: 'restrictions/teams', key: 'teams', body: TeamsBody, response: RestrictedTeams,
    ids: {
      get: { operationId: 'repos/get-teams-with-access-to-protected-branch' }, post: { operationId: 'repos/add-team-access-restrictions' },
      put: { operationId: 'repos/set-team-access-restrictions' }, delete: { operationId: 'repos/remove-team-access-restrictions' },
    },
    ...restricted('teams'),
    view: restrictedTeamsView,
  },
  {
    path: 'restrictions/apps', key: 'apps', body: AppsBody, response: RestrictedApps,
    ids: {
      get: { operationId: 'repos/get-apps-with-access-to-protected-branch' }, post: { operationId: 'repos/add-app-access-restrictions' },
      put: { operationId: 'repos/set-app-access-restrictions' }, delete: { operationId: 'repos/remove-app-access-restrictions' },
    },
    ...restricted('apps'),
    view: restrictedAppsView,
  },
];

export function protectionListsRoutes(app: Router): void {
  const { urls } = app.ctx;
  for (const list of LISTS) {
    const path = `${BASE}/${list.path}`;
    app.get(path, { schema: { params: BranchParams, response: { 200: list.response } }, config: { ...list.ids.get, acceptedScopes: ADMIN } }, async (request) =>
      list.view(urls, await list.read(request.server.ctx, request.actor, request.params)));
    for (const [method, change] of CHANGES) {
      app[method](path, {
        schema: { params: BranchParams, body: list.body, response: { 200: list.response } },
        config: { ...list.ids[method], resource: RESOURCE, acceptedScopes: ADMIN, allowJsonArray: true },
      }, async (request) => {
        const names = namesOf(request.body as string[] | Record<string, string[]>, list.key);
        return list.view(urls, await list.change(request.server.ctx, request.actor, request.params, change, names));
      });
    }
  }
}
