// POST /applications/{client_id}/token/scoped: the app (by its client id and secret)
// narrows one of its user-to-server tokens to one account's installation, some of its
// repositories and some of its permissions. The new token acts within those only.
import type { AppContext } from '../../context.ts';
import { type Actor } from '../../domain/actor.ts';
import { AuthenticationRequiredError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { Account } from '../users/users.model.ts';
import { permissionProblems, permissionsCover, type Permissions } from './app-permissions.ts';
import type { App, Installation } from './apps.model.ts';
import { requireApp } from './apps.service.ts';
import * as installStore from './installations.store.ts';
import { repositoryIdsOf, SUSPENDED_MESSAGE, toInstallation } from './installations.service.ts';
import { findLiveToken, insertScopedToken, type UserTokenRecord } from './user-tokens.service.ts';

const RESOURCE = 'ScopedToken';
const NOT_ACCESSIBLE = 'There is at least one repository that does not exist or is not accessible to the parent installation.';
const NOT_GRANTED = 'The permissions requested are not granted to this installation.';

export interface ScopeRequest {
  accessToken: string;
  target?: string;
  targetId?: number;
  repositories?: string[];
  repositoryIds?: number[];
  permissions?: Record<string, unknown>;
}

export interface ScopedToken {
  token: string;
  record: UserTokenRecord;
  app: App;
  user: Account;
  installation: Installation;
  account: Account;
  permissions: Permissions;
  repositorySelection: 'all' | 'selected';
}

/** The app whose client id and secret authenticated the request: 401 without credentials, 404 for another app. */
async function requireCallingApp(ctx: AppContext, actor: Actor, clientId: string): Promise<App> {
  if (actor.method === 'anonymous') throw new AuthenticationRequiredError();
  const appId = actor.method === 'oauth_app' && actor.oauthAppId === null ? actor.integration?.appId ?? null : null;
  if (appId === null) throw new NotFoundError();
  const app = await requireApp(ctx, appId);
  if (app.clientId !== clientId) throw new NotFoundError();
  return app;
}

const invalid = (field: string, message: string, code: 'invalid' | 'missing_field' = 'invalid') => ValidationError.field(RESOURCE, field, code, message);

async function targetAccount(ctx: AppContext, req: ScopeRequest): Promise<Account> {
  if (req.target === undefined && req.targetId === undefined) throw invalid('target', 'target or target_id is required', 'missing_field');
  const byLogin = req.target !== undefined ? await users.findAccount(ctx, req.target) : null;
  const byId = req.targetId !== undefined ? (await users.accountsByIds(ctx, [req.targetId])).get(req.targetId) ?? null : null;
  const account = byLogin ?? byId;
  if (!account || (req.target !== undefined && req.targetId !== undefined && byLogin?.id !== byId?.id)) {
    throw invalid(req.target !== undefined ? 'target' : 'target_id', 'The target is not an account the app is installed on');
  }
  return account;
}

/** The repositories asked for, by name or id, each within the installation; null when none were named. */
async function narrowedRepositories(ctx: AppContext, installation: Installation, req: ScopeRequest): Promise<number[] | null> {
  if (req.repositories !== undefined && req.repositoryIds !== undefined) throw invalid('repositories', '`repositories` may not be specified if `repository_ids` is specified');
  if (req.repositories === undefined && req.repositoryIds === undefined) return null;
  const reachable = await repos.reposByIds(ctx, await repositoryIdsOf(ctx, installation));
  const byName = new Map(reachable.map((r) => [r.name.toLowerCase(), r.id]));
  const ids = new Set(reachable.map((r) => r.id));
  const picked = new Set<number>();
  for (const name of req.repositories ?? []) {
    const id = byName.get(name.toLowerCase());
    if (id === undefined) throw new ValidationError([], NOT_ACCESSIBLE);
    picked.add(id);
  }
  for (const id of req.repositoryIds ?? []) {
    if (!ids.has(id)) throw new ValidationError([], NOT_ACCESSIBLE);
    picked.add(id);
  }
  return [...picked].sort((a, b) => a - b);
}

export async function scopeToken(ctx: AppContext, actor: Actor, clientId: string, req: ScopeRequest): Promise<ScopedToken> {
  const app = await requireCallingApp(ctx, actor, clientId);
  const from = await findLiveToken(ctx, req.accessToken);
  // Invalid tokens are 404, as upstream says.
  if (!from || from.appId !== app.id) throw new NotFoundError();
  if (from.scope !== null) throw invalid('access_token', 'The access token is already scoped');
  const account = await targetAccount(ctx, req);
  const row = await installStore.findByAppAndAccount(ctx.db, app.id, account.id);
  if (!row) throw invalid(req.target !== undefined ? 'target' : 'target_id', 'The target is not an account the app is installed on');
  const installation = toInstallation(row);
  if (installation.suspendedAt !== null) throw new ForbiddenError(SUSPENDED_MESSAGE);
  let permissions: Permissions | null = null;
  if (req.permissions !== undefined) {
    const problems = permissionProblems(req.permissions);
    if (problems.length) throw new ValidationError(problems.map((message) => ({ resource: RESOURCE, field: 'permissions', code: 'invalid' as const, message })));
    const asked = req.permissions as Permissions;
    if (!permissionsCover(installation.permissions, asked)) throw new ValidationError([], NOT_GRANTED);
    permissions = { metadata: 'read', ...asked };
  }
  const repositoryIds = await narrowedRepositories(ctx, installation, req);
  const user = (await users.accountsByIds(ctx, [from.userId])).get(from.userId);
  if (!user) throw new NotFoundError();
  const { token, record } = await insertScopedToken(ctx, from, { targetId: account.id, repositoryIds, permissions });
  return {
    token, record, app, user, installation, account, permissions: permissions ?? installation.permissions,
    repositorySelection: repositoryIds ? 'selected' : installation.repositorySelection,
  };
}
