// SQL for org_migrations and org_migration_repositories. Only this module calls it.
import type { Selectable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { skipLocked } from '../../db/claims.ts';
import type { OrgMigrationsTable } from '../../db/schema.ts';
import type { Migration, MigrationOptions, MigrationProgress, MigrationState } from './migrations.model.ts';

type Row = Selectable<OrgMigrationsTable>;

function toRecord(r: Row): Migration {
  return {
    id: Number(r.id), guid: r.guid, ownerId: r.owner_id, createdById: r.created_by_id, state: r.state,
    lockRepositories: r.lock_repositories === 1, excludeMetadata: r.exclude_metadata === 1,
    excludeGitData: r.exclude_git_data === 1, excludeAttachments: r.exclude_attachments === 1,
    excludeReleases: r.exclude_releases === 1, excludeOwnerProjects: r.exclude_owner_projects === 1,
    orgMetadataOnly: r.org_metadata_only === 1, exclude: JSON.parse(r.exclude) as string[],
    progress: r.progress ? JSON.parse(r.progress) as MigrationProgress : null, failure: r.failure,
    archiveFile: r.archive_file, archiveSize: r.archive_size === null ? null : Number(r.archive_size),
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

const bit = (b: boolean) => (b ? 1 : 0);

export async function insert(
  db: Executor, m: { guid: string; ownerId: number; createdById: number; at: string } & MigrationOptions, repositoryIds: readonly number[],
): Promise<number> {
  const row = await db.insertInto('org_migrations').values({
    guid: m.guid, owner_id: m.ownerId, created_by_id: m.createdById, state: 'pending',
    lock_repositories: bit(m.lockRepositories), exclude_metadata: bit(m.excludeMetadata), exclude_git_data: bit(m.excludeGitData),
    exclude_attachments: bit(m.excludeAttachments), exclude_releases: bit(m.excludeReleases),
    exclude_owner_projects: bit(m.excludeOwnerProjects), org_metadata_only: bit(m.orgMetadataOnly),
    exclude: JSON.stringify(m.exclude), progress: null, failure: null, archive_file: null, archive_size: null,
    download_token_hash: null, download_expires_at: null, claimed_until: null, created_at: m.at, updated_at: m.at,
  }).returning('id').executeTakeFirstOrThrow();
  const id = Number(row.id);
  if (repositoryIds.length) {
    await db.insertInto('org_migration_repositories').values(repositoryIds.map((r) => ({ migration_id: id, repository_id: r }))).execute();
  }
  return id;
}

export async function find(db: Executor, ownerId: number, id: number): Promise<Migration | null> {
  const r = await db.selectFrom('org_migrations').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  return r ? toRecord(r) : null;
}

export async function findById(db: Executor, id: number): Promise<Migration | null> {
  const r = await db.selectFrom('org_migrations').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toRecord(r) : null;
}

export async function listForOwner(db: Executor, ownerId: number, slice: { perPage: number; offset: number }): Promise<{ items: Migration[]; total: number }> {
  const rows = await db.selectFrom('org_migrations').selectAll().where('owner_id', '=', ownerId)
    .orderBy('id', 'desc').limit(slice.perPage).offset(slice.offset).execute();
  const n = await db.selectFrom('org_migrations').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return { items: rows.map(toRecord), total: Number(n.n) };
}

/** Repository ids of each migration, in id order. */
export async function repositoryIdsOf(db: Executor, migrationIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(migrationIds.map((id) => [id, []]));
  if (!migrationIds.length) return out;
  const rows = await db.selectFrom('org_migration_repositories').select(['migration_id', 'repository_id'])
    .where('migration_id', 'in', [...migrationIds]).orderBy('repository_id').execute();
  for (const r of rows) out.get(Number(r.migration_id))?.push(Number(r.repository_id));
  return out;
}

/**
 * Takes one pending migration nobody holds (or one whose exporter died: exporting with
 * a claim that ran out) for `leaseMs`, moving it to exporting. Run in a transaction.
 */
export async function claimNext(db: Executor, dialect: Dialect, nowMs: number, leaseMs: number, at: string): Promise<number | null> {
  const q = db.selectFrom('org_migrations').select('id')
    .where((eb) => eb.or([
      eb('state', '=', 'pending'),
      eb.and([eb('state', '=', 'exporting'), eb('claimed_until', '<', nowMs)]),
    ]))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)]))
    .orderBy('id').limit(1);
  const row = await skipLocked(q, dialect).executeTakeFirst();
  if (!row) return null;
  const id = Number(row.id);
  await db.updateTable('org_migrations').set({ state: 'exporting', claimed_until: nowMs + leaseMs, updated_at: at }).where('id', '=', id).execute();
  return id;
}

export async function countClaimable(db: Executor, nowMs: number): Promise<number> {
  const r = await db.selectFrom('org_migrations').select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([
      eb('state', '=', 'pending'),
      eb.and([eb('state', '=', 'exporting'), eb('claimed_until', '<', nowMs)]),
    ])).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setProgress(db: Executor, id: number, progress: MigrationProgress, leaseUntil: number, at: string): Promise<void> {
  await db.updateTable('org_migrations').set({ progress: JSON.stringify(progress), claimed_until: leaseUntil, updated_at: at }).where('id', '=', id).execute();
}

export async function finish(
  db: Executor, id: number, state: Extract<MigrationState, 'exported' | 'failed'>,
  f: { archiveFile: string | null; archiveSize: number | null; failure: string | null }, at: string,
): Promise<void> {
  await db.updateTable('org_migrations').set({
    state, archive_file: f.archiveFile, archive_size: f.archiveSize, failure: f.failure, claimed_until: null, updated_at: at,
  }).where('id', '=', id).execute();
}

export async function setDownloadToken(db: Executor, id: number, hash: string, expiresAtMs: number): Promise<void> {
  await db.updateTable('org_migrations').set({ download_token_hash: hash, download_expires_at: expiresAtMs }).where('id', '=', id).execute();
}

export async function findByDownload(db: Executor, guid: string): Promise<{ migration: Migration; tokenHash: string | null; expiresAtMs: number | null } | null> {
  const r = await db.selectFrom('org_migrations').selectAll().where('guid', '=', guid).executeTakeFirst();
  return r ? { migration: toRecord(r), tokenHash: r.download_token_hash, expiresAtMs: r.download_expires_at === null ? null : Number(r.download_expires_at) } : null;
}

export async function clearArchive(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('org_migrations')
    .set({ archive_file: null, archive_size: null, download_token_hash: null, download_expires_at: null, updated_at: at })
    .where('id', '=', id).execute();
}
