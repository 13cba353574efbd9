// Organization and user migrations: starting an export (and locking its repositories),
// reading its state, the archive's short-lived download address, deleting the archive,
// unlocking repositories. Organization migrations are for the organization's owners;
// user migrations for the signed-in user's own repositories.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { wakeWorkers } from '../../events/wake.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { archivePath } from './migrations.export.ts';
import type { Migration, MigrationOptions } from './migrations.model.ts';
import * as store from './migrations.store.ts';

/** How long an archive's download address works after GET …/archive hands it out. */
export const DOWNLOAD_TTL_MS = 5 * 60_000;
const RESOURCE = 'Migration';

/** Whose migrations a request is about. */
export type MigrationOwner = { kind: 'org'; login: string } | { kind: 'user' };

/** A migration with its repositories, as views need it. */
export interface MigrationAt {
  migration: Migration;
  owner: Account;
  repositories: Repo[];
}

/** The account whose migrations the caller may manage: an organization they own, or themselves. */
async function requireOwner(ctx: AppContext, actor: Actor, who: MigrationOwner): Promise<Account> {
  const user = requireUser(actor);
  if (who.kind === 'user') {
    requireScope(actor, 'repo', 'user');
    const me = (await users.accountsByIds(ctx, [user.id])).get(user.id);
    if (!me) throw new NotFoundError();
    return me;
  }
  requireScope(actor, 'admin:org', 'repo');
  const org = await orgs.requireOrganization(ctx, who.login);
  await orgs.requireOrgOwner(ctx, actor, org);
  return org.account;
}

async function withRepositories(ctx: AppContext, owner: Account, items: Migration[]): Promise<MigrationAt[]> {
  const ids = await store.repositoryIdsOf(ctx.db, items.map((m) => m.id));
  const all = await repos.reposByIds(ctx, [...new Set([...ids.values()].flat())]);
  const byId = new Map(all.map((r) => [r.id, r]));
  return items.map((migration) => ({
    migration, owner, repositories: (ids.get(migration.id) ?? []).flatMap((id) => byId.get(id) ?? []),
  }));
}

async function requireMigration(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number): Promise<{ owner: Account; migration: Migration }> {
  const owner = await requireOwner(ctx, actor, who);
  const migration = await store.find(ctx.db, owner.id, id);
  if (!migration) throw new NotFoundError();
  return { owner, migration };
}

export interface StartInput extends Partial<Omit<MigrationOptions, 'exclude'>> {
  repositories: string[];
  exclude?: string[];
}

/**
 * The owner's repositories named by `names` ("name" or "owner/name"); each unknown
 * one is a field error, all reported together.
 */
async function resolveRepositories(ctx: AppContext, owner: Account, names: readonly string[]): Promise<Repo[]> {
  const owned = await repos.reposByIds(ctx, await repos.repositoryIdsOwnedBy(ctx, owner.id));
  const byName = new Map(owned.map((r) => [r.name.toLowerCase(), r]));
  const found = new Map<number, Repo>();
  const errors = [];
  for (const raw of names) {
    const [first, second] = raw.includes('/') ? raw.split('/', 2) : [owner.login, raw];
    const repo = first.toLowerCase() === owner.login.toLowerCase() ? byName.get(second.toLowerCase()) : undefined;
    if (repo) found.set(repo.id, repo);
    else errors.push({ resource: RESOURCE, field: 'repositories', code: 'invalid' as const, message: `${raw} is not a repository of ${owner.login}` });
  }
  if (errors.length) throw new ValidationError(errors);
  return [...found.values()];
}

export async function startMigration(ctx: AppContext, actor: Actor, who: MigrationOwner, input: StartInput): Promise<MigrationAt> {
  const owner = await requireOwner(ctx, actor, who);
  const orgMetadataOnly = input.orgMetadataOnly === true;
  if (orgMetadataOnly && input.repositories.length) {
    throw ValidationError.field(RESOURCE, 'repositories', 'invalid', 'repositories must be empty when org_metadata_only is true');
  }
  if (!orgMetadataOnly && !input.repositories.length) throw ValidationError.field(RESOURCE, 'repositories', 'missing_field', 'at least one repository is required');
  const chosen = await resolveRepositories(ctx, owner, input.repositories);
  const options: MigrationOptions = {
    lockRepositories: input.lockRepositories === true, excludeMetadata: input.excludeMetadata === true,
    excludeGitData: input.excludeGitData === true, excludeAttachments: input.excludeAttachments === true,
    excludeReleases: input.excludeReleases === true, excludeOwnerProjects: input.excludeOwnerProjects === true,
    orgMetadataOnly, exclude: [...new Set(input.exclude ?? [])],
  };
  const id = await inTransaction(ctx, async (tx) => {
    const made = await store.insert(tx.db, { guid: randomUUID(), ownerId: owner.id, createdById: actor.user!.id, at: nowIso(ctx.clock), ...options }, chosen.map((r) => r.id));
    // Locked with the migration's start, in its transaction: no write slips in between.
    if (options.lockRepositories) await repos.setMigrationLock(tx, chosen.map((r) => r.id), true);
    wakeWorkers(tx);
    return made;
  });
  const migration = (await store.find(ctx.db, owner.id, id))!;
  return { migration, owner, repositories: options.lockRepositories ? await repos.reposByIds(ctx, chosen.map((r) => r.id)) : chosen };
}

export async function listMigrations(ctx: AppContext, actor: Actor, who: MigrationOwner, slice: Slice): Promise<Page<MigrationAt>> {
  const owner = await requireOwner(ctx, actor, who);
  const page = await store.listForOwner(ctx.db, owner.id, slice);
  return { items: await withRepositories(ctx, owner, page.items), total: page.total };
}

export async function getMigration(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number): Promise<MigrationAt> {
  const { owner, migration } = await requireMigration(ctx, actor, who, id);
  return (await withRepositories(ctx, owner, [migration]))[0];
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The archive's download address: a fresh token, good for DOWNLOAD_TTL_MS, replacing
 * any earlier one. 404 until the export is done, and after the archive is deleted.
 */
export async function archiveDownloadUrl(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number): Promise<string> {
  const { migration } = await requireMigration(ctx, actor, who, id);
  if (migration.state !== 'exported' || !migration.archiveFile) throw new NotFoundError();
  const token = randomBytes(24).toString('base64url');
  await store.setDownloadToken(ctx.db, migration.id, tokenHash(token), ctx.clock.now().getTime() + DOWNLOAD_TTL_MS);
  return `${ctx.urls.html('migration-archives', migration.guid)}?token=${token}`;
}

/** The archive behind a download address; 404 when the token is wrong, expired, or the archive gone. */
export async function openArchive(ctx: AppContext, guid: string, token: string): Promise<{ path: string; size: number; name: string }> {
  const found = await store.findByDownload(ctx.db, guid);
  if (!found || !found.tokenHash || found.expiresAtMs === null || !found.migration.archiveFile) throw new NotFoundError();
  if (found.tokenHash !== tokenHash(token) || found.expiresAtMs <= ctx.clock.now().getTime()) throw new NotFoundError();
  const file = archivePath(ctx, found.migration.archiveFile);
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat) throw new NotFoundError();
  return { path: file, size: stat.size, name: `migration-${found.migration.guid}.tar.gz` };
}

export async function deleteArchive(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number): Promise<void> {
  const { migration } = await requireMigration(ctx, actor, who, id);
  if (!migration.archiveFile) throw new NotFoundError();
  await store.clearArchive(ctx.db, migration.id, nowIso(ctx.clock));
  await fsp.rm(archivePath(ctx, migration.archiveFile), { force: true });
}

export async function unlockRepository(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number, repoName: string): Promise<void> {
  const { owner, migration } = await requireMigration(ctx, actor, who, id);
  const { repositories } = (await withRepositories(ctx, owner, [migration]))[0];
  const repo = repositories.find((r) => r.name.toLowerCase() === repoName.toLowerCase());
  if (!repo || !repo.lockedForMigration) throw new NotFoundError();
  await repos.setMigrationLock(ctx, [repo.id], false);
}

export async function listRepositories(ctx: AppContext, actor: Actor, who: MigrationOwner, id: number, slice: Slice): Promise<Page<repos.Presentable>> {
  const { repositories } = await getMigration(ctx, actor, who, id);
  const items = repositories.slice(slice.offset, slice.offset + slice.perPage);
  return { items: await repos.presentable(ctx, actor, items), total: repositories.length };
}

/** The repositories of migrations, for their views (with the caller's roles and counts). */
export function presentableRepositories(ctx: AppContext, actor: Actor, list: readonly Repo[]): Promise<repos.Presentable[]> {
  return repos.presentable(ctx, actor, list);
}

/** Exports waiting for a worker that may be taken now (GET /metrics). */
export function countWaitingExports(ctx: AppContext): Promise<number> {
  return store.countClaimable(ctx.db, ctx.clock.now().getTime());
}
