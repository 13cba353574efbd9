// The imports module's SQL: source_imports, source_import_authors, source_import_large_files.
import type { Selectable, Updateable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { skipLocked } from '../../db/claims.ts';
import type { SourceImportsTable } from '../../db/schema.ts';
import type { ImportAuthor, ImportLargeFile, ImportStatus, ImportStep, LfsPreference, ProjectChoice, SourceImport, SourceVcs } from './imports.model.ts';

export type ImportChanges = Omit<Updateable<SourceImportsTable>, 'repository_id' | 'generation' | 'created_at'>;

function toImport(r: Selectable<SourceImportsTable>): SourceImport {
  return {
    repositoryId: Number(r.repository_id), actorId: r.actor_id === null ? null : Number(r.actor_id),
    vcs: r.vcs as SourceVcs | null, vcsUrl: r.vcs_url, tfvcProject: r.tfvc_project, projectPath: r.project_path,
    status: r.status as ImportStatus, statusText: r.status_text, failedStep: r.failed_step,
    percent: r.percent, commitCount: r.commit_count, pushPercent: r.push_percent, authorsCount: r.authors_count,
    hasLargeFiles: Number(r.has_large_files) === 1, largeFilesSize: Number(r.large_files_size), largeFilesCount: Number(r.large_files_count),
    useLfs: r.use_lfs as LfsPreference,
    projectChoices: r.project_choices === null ? null : (JSON.parse(r.project_choices) as ProjectChoice[]),
    credentials: r.credentials, nextStep: r.next_step as ImportStep | null, generation: Number(r.generation),
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export async function find(db: Executor, repositoryId: number): Promise<SourceImport | null> {
  const r = await db.selectFrom('source_imports').selectAll().where('repository_id', '=', repositoryId).executeTakeFirst();
  return r ? toImport(r) : null;
}

/** A new import, replacing the one before (whose authors and large files go with it). */
export async function replace(db: Executor, row: Omit<SourceImportsTable, 'has_large_files' | 'large_files_size' | 'large_files_count' | 'use_lfs' | 'generation'>): Promise<void> {
  const old = await find(db, row.repository_id);
  await remove(db, row.repository_id);
  await db.insertInto('source_imports').values({ ...row, generation: (old?.generation ?? 0) + 1 }).execute();
}

export async function remove(db: Executor, repositoryId: number): Promise<boolean> {
  await db.deleteFrom('source_import_authors').where('repository_id', '=', repositoryId).execute();
  await db.deleteFrom('source_import_large_files').where('repository_id', '=', repositoryId).execute();
  const r = await db.deleteFrom('source_imports').where('repository_id', '=', repositoryId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A move of the user: a new generation (a worker holding the old one stops), claimable at once. */
export async function move(db: Executor, repositoryId: number, changes: ImportChanges): Promise<void> {
  await db.updateTable('source_imports')
    .set((eb) => ({ ...changes, lease_until: null, generation: eb('generation', '+', 1) }))
    .where('repository_id', '=', repositoryId).execute();
}

/** A worker's progress; false when the import was moved, replaced or cancelled meanwhile. */
export async function advance(db: Executor, repositoryId: number, generation: number, changes: ImportChanges): Promise<boolean> {
  const r = await db.updateTable('source_imports').set(changes)
    .where('repository_id', '=', repositoryId).where('generation', '=', generation).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Imports with a step to run and no live claim, claimed until `leaseUntil`. */
export async function claim(db: Executor, dialect: Dialect, now: string, leaseUntil: string, limit: number, skip: readonly number[]): Promise<SourceImport[]> {
  let q = db.selectFrom('source_imports').selectAll()
    .where('next_step', 'is not', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('updated_at').limit(limit);
  if (skip.length) q = q.where('repository_id', 'not in', skip);
  const rows = await skipLocked(q, dialect).execute();
  if (rows.length) {
    await db.updateTable('source_imports').set({ lease_until: leaseUntil })
      .where('repository_id', 'in', rows.map((r) => r.repository_id)).execute();
  }
  return rows.map(toImport);
}

export async function countRunnable(db: Executor, now: string): Promise<number> {
  const r = await db.selectFrom('source_imports').select((eb) => eb.fn.countAll().as('n'))
    .where('next_step', 'is not', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function renewLease(db: Executor, repositoryId: number, generation: number, leaseUntil: string | null): Promise<void> {
  await db.updateTable('source_imports').set({ lease_until: leaseUntil })
    .where('repository_id', '=', repositoryId).where('generation', '=', generation).execute();
}

export async function setUseLfs(db: Executor, repositoryId: number, useLfs: LfsPreference): Promise<void> {
  await db.updateTable('source_imports').set({ use_lfs: useLfs }).where('repository_id', '=', repositoryId).execute();
}

// ---------------------------------------------------------------- authors

function toAuthor(r: { id: number; repository_id: number; remote_id: string; remote_name: string; email: string; name: string }): ImportAuthor {
  return { id: Number(r.id), repositoryId: Number(r.repository_id), remoteId: r.remote_id, remoteName: r.remote_name, email: r.email, name: r.name };
}

export async function listAuthors(db: Executor, repositoryId: number, since: number): Promise<ImportAuthor[]> {
  const rows = await db.selectFrom('source_import_authors').selectAll()
    .where('repository_id', '=', repositoryId).where('id', '>', since).orderBy('id').execute();
  return rows.map(toAuthor);
}

export async function findAuthor(db: Executor, repositoryId: number, id: number): Promise<ImportAuthor | null> {
  const r = await db.selectFrom('source_import_authors').selectAll()
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return r ? toAuthor(r) : null;
}

export async function updateAuthor(db: Executor, id: number, changes: { email?: string; name?: string }): Promise<void> {
  await db.updateTable('source_import_authors').set(changes).where('id', '=', id).execute();
}

/** Adds identities not known yet (a mapping made before a restart stays); answers how many there are. */
export async function addAuthors(db: Executor, repositoryId: number, found: readonly { remoteId: string; remoteName: string }[]): Promise<number> {
  const known = new Set((await listAuthors(db, repositoryId, 0)).map((a) => `${a.remoteName}\0${a.remoteId}`));
  const fresh = found.filter((f) => !known.has(`${f.remoteName}\0${f.remoteId}`));
  if (fresh.length) {
    await db.insertInto('source_import_authors').values(fresh.map((f) => ({
      repository_id: repositoryId, remote_id: f.remoteId, remote_name: f.remoteName, email: f.remoteId, name: f.remoteName,
    }))).execute();
  }
  return known.size + fresh.length;
}

// ---------------------------------------------------------------- large files

export async function replaceLargeFiles(db: Executor, repositoryId: number, files: readonly ImportLargeFile[]): Promise<void> {
  await db.deleteFrom('source_import_large_files').where('repository_id', '=', repositoryId).execute();
  if (files.length) {
    await db.insertInto('source_import_large_files').values(files.map((f) => ({
      repository_id: repositoryId, ref_name: f.refName, path: f.path, oid: f.oid, size: f.size,
    }))).execute();
  }
}

export async function listLargeFiles(db: Executor, repositoryId: number): Promise<ImportLargeFile[]> {
  const rows = await db.selectFrom('source_import_large_files').selectAll().where('repository_id', '=', repositoryId).orderBy('id').execute();
  return rows.map((r) => ({ refName: r.ref_name, path: r.path, oid: r.oid, size: Number(r.size) }));
}
