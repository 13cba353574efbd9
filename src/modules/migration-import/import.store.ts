// SQL for migration_imports. Only this module calls it.
import type { Selectable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { skipLocked } from '../../db/claims.ts';
import type { MigrationImportsTable } from '../../db/schema.ts';
import type { CreatedIds, ImportJob, ImportProgress, ImportReport, ImportState, OnConflict } from './import.model.ts';

type Row = Selectable<MigrationImportsTable>;

function toRecord(r: Row): ImportJob {
  return {
    id: Number(r.id), createdById: r.created_by_id, state: r.state, archivePath: r.archive_path,
    ownedArchive: Number(r.owned_archive) === 1, targetOrg: r.target_org, onConflict: r.on_conflict,
    progress: r.progress ? JSON.parse(r.progress) as ImportProgress : null,
    report: r.report ? JSON.parse(r.report) as ImportReport : null,
    created: JSON.parse(r.created) as CreatedIds, failure: r.failure, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export interface NewImport {
  createdById: number | null;
  archivePath: string;
  ownedArchive: boolean;
  targetOrg: string | null;
  onConflict: OnConflict;
  created: CreatedIds;
  /** A job its creator runs at once (the CLI) starts importing, held until then. */
  claimedUntil: number | null;
  at: string;
}

export async function insert(db: Executor, v: NewImport): Promise<number> {
  const row = await db.insertInto('migration_imports').values({
    created_by_id: v.createdById, state: v.claimedUntil === null ? 'pending' : 'importing', archive_path: v.archivePath,
    owned_archive: v.ownedArchive ? 1 : 0, target_org: v.targetOrg, on_conflict: v.onConflict, progress: null, report: null,
    created: JSON.stringify(v.created), failure: null, claimed_until: v.claimedUntil, created_at: v.at, updated_at: v.at,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findById(db: Executor, id: number): Promise<ImportJob | null> {
  const r = await db.selectFrom('migration_imports').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toRecord(r) : null;
}

/**
 * Takes one pending import nobody holds, or one whose importer died (importing with a
 * claim that ran out), for `leaseMs`. Run in a transaction.
 */
export async function claimNext(db: Executor, dialect: Dialect, nowMs: number, leaseMs: number, at: string): Promise<number | null> {
  const q = db.selectFrom('migration_imports').select('id')
    .where((eb) => eb.or([
      eb('state', '=', 'pending'),
      eb.and([eb('state', '=', 'importing'), eb('claimed_until', '<', nowMs)]),
    ]))
    .orderBy('id').limit(1);
  const row = await skipLocked(q, dialect).executeTakeFirst();
  if (!row) return null;
  const id = Number(row.id);
  await db.updateTable('migration_imports').set({ state: 'importing', claimed_until: nowMs + leaseMs, updated_at: at }).where('id', '=', id).execute();
  return id;
}

export async function countClaimable(db: Executor, nowMs: number): Promise<number> {
  const r = await db.selectFrom('migration_imports').select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([
      eb('state', '=', 'pending'),
      eb.and([eb('state', '=', 'importing'), eb('claimed_until', '<', nowMs)]),
    ])).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setProgress(db: Executor, id: number, progress: ImportProgress, leaseUntil: number, at: string): Promise<void> {
  await db.updateTable('migration_imports').set({ progress: JSON.stringify(progress), claimed_until: leaseUntil, updated_at: at })
    .where('id', '=', id).execute();
}

/** Written in the transaction that created them, so that no created row goes unrecorded. */
export async function setCreated(db: Executor, id: number, created: CreatedIds): Promise<void> {
  await db.updateTable('migration_imports').set({ created: JSON.stringify(created) }).where('id', '=', id).execute();
}

export async function finish(
  db: Executor, id: number, state: Extract<ImportState, 'imported' | 'failed'>,
  f: { report: ImportReport | null; failure: string | null; created: CreatedIds }, at: string,
): Promise<void> {
  await db.updateTable('migration_imports').set({
    state, report: f.report === null ? null : JSON.stringify(f.report), failure: f.failure,
    created: JSON.stringify(f.created), claimed_until: null, updated_at: at,
  }).where('id', '=', id).execute();
}
