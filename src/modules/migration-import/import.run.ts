// One import, start to end: the archive read and checked (nothing is written before
// it all reads), the accounts in one transaction, then each repository in a
// transaction of its own with everything in it. What is created is recorded on the job
// in the same transactions; when anything fails, all of it is removed again, and an
// import taken over from a dead importer removes what that one had put in first.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inTransaction, type AppContext } from '../../context.ts';
import { removeImportedMember, removeImportedTeams } from '../orgs/orgs.import.ts';
import { removeImportedAssetFiles } from '../releases/releases.import.ts';
import { removeImportedRepositories, repositoryNameTaken } from '../repos/repos.import.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { importAccounts } from './import.accounts.ts';
import { readArchive } from './import.archive.ts';
import { NOTHING_CREATED, type CreatedIds, type ImportConflict, type ImportJob, type ImportProgress, type ImportReport, type OnConflict } from './import.model.ts';
import { parseRecords, type RepositoryRecord } from './import.records.ts';
import { importOneRepository } from './import.repository.ts';
import * as store from './import.store.ts';

export type ProgressSink = (p: ImportProgress) => Promise<void>;

/** Renamed repositories get the first free "<name>-<n>". */
const MAX_RENAMES = 100;

export async function runImport(ctx: AppContext, job: ImportJob, progress: ProgressSink): Promise<ImportReport> {
  await removeCreated(ctx, job.created);
  await store.setCreated(ctx.db, job.id, NOTHING_CREATED);
  const created: CreatedIds = structuredClone(NOTHING_CREATED);
  const scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'wharf-import-'));
  try {
    await progress({ step: 'reading the archive', done: 0, total: 1 });
    const gitRoot = path.join(scratch, 'git');
    const fileRoot = path.join(scratch, 'files');
    const contents = await readArchive(job.archivePath, { git: gitRoot, files: fileRoot });
    const records = parseRecords(contents);
    const report: ImportReport = { owner: null, users: { created: [], mapped: [] }, repositories: [], conflicts: [] };
    const total = records.repositories.length + 2;
    await progress({ step: 'accounts and teams', done: 1, total });
    const creator = job.createdById === null ? null : (await users.accountsByIds(ctx, [job.createdById])).get(job.createdById) ?? null;
    const accounts = await inTransaction(ctx, async (tx) => {
      const a = await importAccounts(tx, records, { targetOrg: job.targetOrg, creator }, created, report);
      await store.setCreated(tx.db, job.id, created);
      return a;
    });
    const keyToRepoId = new Map<string, number>();
    let done = 2;
    for (const source of records.repositories) {
      await progress({ step: `repository ${source.owner}/${source.name}`, done, total });
      done += 1;
      const name = await freeName(ctx, accounts.owner, source, job.onConflict, report.conflicts);
      if (name === null) continue;
      const gitSource = contents.gitData.has(source.key) ? path.join(gitRoot, source.owner, `${source.name}.git`) : null;
      const repo = await inTransaction(ctx, async (tx) => {
        const r = await importOneRepository(tx, records, source, name, { git: gitSource, files: fileRoot }, accounts, keyToRepoId, report.conflicts);
        created.repositories.push(r.id);
        await store.setCreated(tx.db, job.id, created);
        return r;
      });
      keyToRepoId.set(source.key, repo.id);
      report.repositories.push({ source: `${source.owner}/${source.name}`, target: `${accounts.owner.login}/${repo.name}` });
    }
    await progress({ step: 'done', done: total, total });
    return report;
  } catch (err) {
    await removeCreated(ctx, created).catch((e: unknown) => ctx.log.error({ err: e, importId: job.id }, 'removing a failed import failed'));
    throw err;
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

/** The name the repository gets under `owner`, or null when it is skipped; either way a taken name is reported. */
async function freeName(ctx: AppContext, owner: Account, source: RepositoryRecord, onConflict: OnConflict, conflicts: ImportConflict[]): Promise<string | null> {
  if (!(await repositoryNameTaken(ctx, owner.id, source.name))) return source.name;
  const from = `${source.owner}/${source.name}`;
  if (onConflict === 'skip') {
    conflicts.push({ kind: 'repository', source: from, resolution: 'skipped', target: null, message: `${owner.login}/${source.name} exists already` });
    return null;
  }
  for (let n = 1; n <= MAX_RENAMES; n += 1) {
    const candidate = `${source.name}-${n}`;
    if (!(await repositoryNameTaken(ctx, owner.id, candidate))) {
      conflicts.push({ kind: 'repository', source: from, resolution: 'renamed', target: `${owner.login}/${candidate}`, message: `${owner.login}/${source.name} exists already` });
      return candidate;
    }
  }
  conflicts.push({ kind: 'repository', source: from, resolution: 'skipped', target: null, message: `${owner.login}/${source.name} and its first ${MAX_RENAMES} renames exist already` });
  return null;
}

/** Takes out what an import created, newest first: repositories, teams, memberships, the organization, users. */
async function removeCreated(ctx: AppContext, c: CreatedIds): Promise<void> {
  await removeImportedRepositories(ctx, [...c.repositories].reverse());
  await removeImportedAssetFiles(ctx, c.repositories);
  await removeImportedTeams(ctx, c.teams);
  for (const m of c.memberships) await removeImportedMember(ctx, m.orgId, m.userId);
  const accounts = await users.accountsByIds(ctx, [...(c.organization === null ? [] : [c.organization]), ...c.users]);
  for (const a of accounts.values()) await users.deleteAccount(ctx, a);
}
