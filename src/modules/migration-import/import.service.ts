// Migration archive imports: starting one (site admins through the API, the operator
// through the CLI), reading its state, and running a job the caller holds (the CLI).
// The archive is read through once before the job is queued, so a malformed one, an
// unsafe entry, a missing schema.json or an unknown version is a 422 and queues nothing.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { wakeWorkers } from '../../events/wake.ts';
import { requireSiteAdmin } from '../admin/admin.service.ts';
import { archiveError, readArchive } from './import.archive.ts';
import { NOTHING_CREATED, type ImportJob, type OnConflict } from './import.model.ts';
import { parseRecords } from './import.records.ts';
import { runImport, type ProgressSink } from './import.run.ts';
import * as store from './import.store.ts';

/** A claim lasts this long past the last progress; a dead importer gives it up then. */
export const LEASE_MS = 10 * 60_000;

export interface StartInput {
  /** The archive as it is uploaded, or the path of a .tar.gz on this server. */
  archive: { stream: Readable } | { path: string };
  org?: string | null;
  onConflict?: OnConflict;
}

export function uploadsDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'migration-imports');
}

/** The archive as a file this server reads: an upload is written to the data dir (and owned by the job). */
async function archiveFile(ctx: AppContext, archive: StartInput['archive']): Promise<{ file: string; owned: boolean }> {
  if ('stream' in archive) {
    await fsp.mkdir(uploadsDir(ctx), { recursive: true });
    const file = path.join(uploadsDir(ctx), `${randomUUID()}.tar.gz`);
    try {
      await pipeline(archive.stream, fs.createWriteStream(file));
      if ((await fsp.stat(file)).size === 0) throw archiveError('the request has no archive in its body');
    } catch (err) {
      await fsp.rm(file, { force: true });
      throw err;
    }
    return { file, owned: true };
  }
  const file = archive.path;
  const stat = path.isAbsolute(file) ? await fsp.stat(file).catch(() => null) : null;
  if (!stat?.isFile()) {
    throw new ValidationError([{ resource: 'MigrationImport', field: 'archive_path', code: 'invalid', value: file, message: 'must be the absolute path of an archive file on the server' }]);
  }
  return { file, owned: false };
}

/**
 * Checks the archive and queues its import (`actor` null: the operator at the CLI, who
 * runs it at once with runHeldImport, so the job starts held by them).
 */
export async function startImport(ctx: AppContext, actor: Actor | null, input: StartInput): Promise<ImportJob> {
  if (actor !== null) requireSiteAdmin(actor);
  const { file, owned } = await archiveFile(ctx, input.archive);
  try {
    parseRecords(await readArchive(file, null));
    const id = await inTransaction(ctx, async (tx) => {
      const id = await store.insert(tx.db, {
        createdById: actor === null ? null : requireUser(actor).id, archivePath: file, ownedArchive: owned, targetOrg: input.org ?? null,
        onConflict: input.onConflict ?? 'skip', created: NOTHING_CREATED,
        claimedUntil: actor === null ? ctx.clock.now().getTime() + LEASE_MS : null, at: nowIso(tx.clock),
      });
      if (actor !== null) wakeWorkers(tx);
      return id;
    });
    return (await store.findById(ctx.db, id))!;
  } catch (err) {
    if (owned) await fsp.rm(file, { force: true });
    throw err;
  }
}

export async function getImport(ctx: AppContext, actor: Actor, id: number): Promise<ImportJob> {
  requireSiteAdmin(actor);
  const job = await store.findById(ctx.db, id);
  if (!job) throw new NotFoundError();
  return job;
}

/**
 * Runs a job this process holds (claimed by the worker, or started held by the CLI) to
 * imported or failed; `onProgress` hears each step as well as the job record.
 */
export async function runHeldImport(ctx: AppContext, id: number, onProgress?: ProgressSink): Promise<ImportJob> {
  const job = await store.findById(ctx.db, id);
  if (!job) throw new NotFoundError();
  const at = () => nowIso(ctx.clock);
  const progress: ProgressSink = async (p) => {
    await store.setProgress(ctx.db, id, p, ctx.clock.now().getTime() + LEASE_MS, at());
    await onProgress?.(p);
  };
  try {
    const report = await runImport(ctx, job, progress);
    await store.finish(ctx.db, id, 'imported', { report, failure: null, created: (await store.findById(ctx.db, id))!.created }, at());
  } catch (err) {
    // The record is for site admins and the operator: it says what went wrong, as the export's does.
    const failure = err instanceof ValidationError ? err.errors.map((e) => e.message ?? `${e.resource}.${e.field} ${e.code}${e.value === undefined ? '' : ` ${JSON.stringify(e.value)}`}`).join('; ')
      : err instanceof Error ? err.message : String(err);
    if (!(err instanceof ValidationError)) ctx.log.error({ err, importId: id }, 'a migration import failed');
    await store.finish(ctx.db, id, 'failed', { report: null, failure, created: NOTHING_CREATED }, at()).catch(() => undefined);
  } finally {
    if (job.ownedArchive) await fsp.rm(job.archivePath, { force: true });
  }
  return (await store.findById(ctx.db, id))!;
}

/** Archive imports waiting for a worker that may be taken now (GET /metrics). */
export function countWaitingImports(ctx: AppContext): Promise<number> {
  return store.countClaimable(ctx.db, ctx.clock.now().getTime());
}
