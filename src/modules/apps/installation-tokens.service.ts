// Installation access tokens: minted by the app with its JSON web token, an hour long,
// never wider than the installation (repositories and permissions may only narrow), and
// the actor they authenticate.
import { inTransaction, type AppContext } from '../../context.ts';
import { installationActor, requireAppActor, type Actor } from '../../domain/actor.ts';
import { nowIso, isoSeconds } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import { newInstallationToken, sha256Hex } from '../auth/secrets.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { permissionProblems, permissionsCover, type Permissions } from './app-permissions.ts';
import type { Installation } from './apps.model.ts';
import { requireApp } from './apps.service.ts';
import { findInstallation, repositoryIdsOf, SUSPENDED_MESSAGE } from './installations.service.ts';
import * as users from '../users/users.service.ts';
import * as store from './installations.store.ts';

/** Upstream's lifetime of an installation access token. */
export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

const NOT_ACCESSIBLE = 'There is at least one repository that does not exist or is not accessible to the parent installation.';
const NOT_GRANTED = 'The permissions requested are not granted to this installation.';

export interface TokenRequest {
  repositories?: string[];
  repositoryIds?: number[];
  permissions?: Record<string, unknown>;
}

export interface IssuedInstallationToken {
  token: string;
  expiresAt: string;
  permissions: Permissions;
  repositorySelection: 'all' | 'selected';
  /** The repositories the token is narrowed to; null when it has the installation's. */
  repositories: repos.Presentable[] | null;
}

/** POST /app/installations/{id}/access_tokens. */
export async function createAccessToken(ctx: AppContext, actor: Actor, installationId: number, req: TokenRequest): Promise<IssuedInstallationToken> {
  const appId = requireAppActor(actor);
  const installation = await findInstallation(ctx, installationId);
  if (!installation || installation.appId !== appId) throw new NotFoundError();
  if (installation.suspendedAt !== null) throw new ForbiddenError(SUSPENDED_MESSAGE);

  let permissions = installation.permissions;
  if (req.permissions !== undefined) {
    const problems = permissionProblems(req.permissions);
    if (problems.length) throw new ValidationError(problems.map((message) => ({ resource: 'InstallationToken', field: 'permissions', code: 'invalid' as const, message })));
    const asked = req.permissions as Permissions;
    if (!permissionsCover(installation.permissions, asked)) throw new ValidationError([], NOT_GRANTED);
    // Metadata (read) comes with every token, as upstream's.
    permissions = { metadata: 'read', ...asked };
  }

  let narrowed: Repo[] | null = null;
  if (req.repositories !== undefined || req.repositoryIds !== undefined) {
    const reachable = await repos.reposByIds(ctx, await repositoryIdsOf(ctx, installation));
    const byName = new Map(reachable.map((r) => [r.name.toLowerCase(), r]));
    const byId = new Map(reachable.map((r) => [r.id, r]));
    const picked = new Map<number, Repo>();
    for (const name of req.repositories ?? []) {
      const r = byName.get(name.toLowerCase());
      if (!r) throw new ValidationError([], NOT_ACCESSIBLE);
      picked.set(r.id, r);
    }
    for (const id of req.repositoryIds ?? []) {
      const r = byId.get(id);
      if (!r) throw new ValidationError([], NOT_ACCESSIBLE);
      picked.set(r.id, r);
    }
    narrowed = [...picked.values()].sort((a, b) => a.id - b.id);
  }

  const token = newInstallationToken();
  const now = ctx.clock.now();
  const expiresAt = isoSeconds(new Date(now.getTime() + TOKEN_LIFETIME_MS));
  await inTransaction(ctx, async (tx) => {
    await store.deleteExpiredTokens(tx.db, nowIso(tx.clock));
    await store.insertToken(tx.db, {
      installation_id: installation.id, token_hash: sha256Hex(token), permissions: JSON.stringify(permissions),
      repository_ids: narrowed ? JSON.stringify(narrowed.map((r) => r.id)) : null, expires_at: expiresAt, created_at: isoSeconds(now),
    });
  });
  return {
    token, expiresAt, permissions, repositories: narrowed ? await repos.presentable(ctx, actor, narrowed, new Map()) : null,
    repositorySelection: narrowed ? 'selected' : installation.repositorySelection,
  };
}

/** The actor of an installation access token: 401 when unknown or expired, 403 while suspended. */
export async function authenticateInstallationToken(ctx: AppContext, token: string, ip: string): Promise<Actor> {
  const row = await store.findTokenByHash(ctx.db, sha256Hex(token));
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw new BadCredentialsError();
  const installation = await findInstallation(ctx, row.installation_id);
  if (!installation) throw new BadCredentialsError();
  if (installation.suspendedAt !== null) throw new ForbiddenError(SUSPENDED_MESSAGE);
  const reachable = await repositoryIdsOf(ctx, installation);
  const narrowed = row.repository_ids === null ? null : new Set(JSON.parse(row.repository_ids) as number[]);
  const app = await requireApp(ctx, installation.appId);
  const bot = (await users.accountsByIds(ctx, [app.botUserId])).get(app.botUserId);
  if (!bot) throw new BadCredentialsError();
  return installationActor(
    { id: bot.id, login: bot.login, siteAdmin: false }, installation.appId, installation.id, row.id, JSON.parse(row.permissions) as Permissions,
    new Set(narrowed ? reachable.filter((id) => narrowed.has(id)) : reachable), ip,
  );
}

/** The installation token in use (its row and installation); 401 for other callers, as upstream. */
async function currentToken(ctx: AppContext, actor: Actor): Promise<{ installation: Installation; repositoryIds: number[] | null }> {
  const integration = actor.integration;
  if (actor.method !== 'installation' || !integration || integration.installationId === null || integration.installationTokenId === null) {
    throw new ForbiddenError('You must authenticate with an installation access token in order to list repositories for an installation.');
  }
  const installation = await findInstallation(ctx, integration.installationId);
  if (!installation) throw new BadCredentialsError();
  const row = await store.findTokenById(ctx.db, integration.installationTokenId);
  if (!row) throw new BadCredentialsError();
  return { installation, repositoryIds: row.repository_ids === null ? null : JSON.parse(row.repository_ids) as number[] };
}

/** GET /installation/repositories: what the token reaches. */
export async function listTokenRepositories(ctx: AppContext, actor: Actor, slice: Slice): Promise<{ selection: 'all' | 'selected'; items: repos.Presentable[]; total: number }> {
  const { installation, repositoryIds } = await currentToken(ctx, actor);
  const reachable = new Set(await repositoryIdsOf(ctx, installation));
  const ids = (repositoryIds ?? [...reachable]).filter((id) => reachable.has(id)).sort((a, b) => a - b);
  const page = await repos.reposByIds(ctx, ids.slice(slice.offset, slice.offset + slice.perPage));
  page.sort((a, b) => a.id - b.id);
  return { selection: repositoryIds ? 'selected' : installation.repositorySelection, items: await repos.presentable(ctx, actor, page, new Map()), total: ids.length };
}

/** DELETE /installation/token: the token in use stops working at once. */
export async function revokeCurrentToken(ctx: AppContext, actor: Actor): Promise<void> {
  const tokenId = actor.method === 'installation' ? actor.integration?.installationTokenId ?? null : null;
  if (tokenId === null) throw new BadCredentialsError();
  await store.deleteToken(ctx.db, tokenId);
}
