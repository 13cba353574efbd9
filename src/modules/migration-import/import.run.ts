// One import, start to end: the archive read and checked (nothing is written before
// it all reads), the accounts in one transaction, then each repository in a
// transaction of its own with everything in it, then the organization's projects and
// the timeline events in a last one. What is created is recorded on the job
// in the same transactions; when anything fails, all of it is removed again, and an
// import taken over from a dead importer removes what that one had put in first.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inTransaction, type AppContext } from '../../context.ts';
import { issueByNumber } from '../issues/issues.present.ts';
import { removeImportedMember, removeImportedTeams } from '../orgs/orgs.import.ts';
import { organizationProjectNames, removeImportedProjects } from '../projects/projects.import.ts';
import { removeImportedAssetFiles } from '../releases/releases.import.ts';
import { removeImportedRepositories, repositoryNameTaken } from '../repos/repos.import.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { importAccounts } from './import.accounts.ts';
import { readArchive } from './import.archive.ts';
import { NOTHING_CREATED, type CreatedIds, type ImportConflict, type ImportJob, type ImportProgress, type ImportReport, type OnConflict } from './import.model.ts';
import { parseRecords, type RepositoryRecord } from './import.records.ts';
import { importProjects } from './import.projects.ts';
import { importOneRepository, type ImportedRepository } from './import.repository.ts';
import { importEvents } from './import.events.ts';
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
    const imported: { key: string; made: ImportedRepository }[] = [];
    let done = 2;
    for (const source of records.repositories) {
      await progress({ step: `repository ${source.owner}/${source.name}`, done, total });
      done += 1;
      const name = await freeName(ctx, accounts.owner, source, job.onConflict, report.conflicts);
      if (name === null) continue;
      const gitSource = contents.gitData.has(source.key) ? path.join(gitRoot, source.owner, `${source.name}.git`) : null;
      const made = await inTransaction(ctx, async (tx) => {
        const r = await importOneRepository(tx, records, source, name, { git: gitSource, files: fileRoot }, accounts, keyToRepoId, report.conflicts);
        created.repositories.push(r.repo.id);
        await store.setCreated(tx.db, job.id, created);
        return r;
      });
      keyToRepoId.set(source.key, made.repo.id);
      imported.push({ key: source.key, made });
      report.repositories.push({ source: `${source.owner}/${source.name}`, target: `${accounts.owner.login}/${made.repo.name}` });
    }
    // Then, in one more transaction, the organization's projects (their cards show issues of any imported repository)
    // and every timeline event (those about project cards find the cards made here).
    const who = (login: string | null) => (login === null ? accounts.fallback : accounts.byLogin.get(login.toLowerCase()) ?? accounts.fallback);
    const maybe = (login: string | null) => (login === null ? null : who(login).id);
    const owner = accounts.owner;
    // An organization project of a name the organization has already (an archive imported twice) is skipped and reported, as a repository is.
    const taken = owner.type === 'Organization' ? await organizationProjectNames(ctx, owner.id) : new Set<string>();
    const orgProjects = owner.type === 'Organization' ? records.projects.filter((p) => {
      if (p.repo !== null) return false;
      if (!taken.has(p.name.toLowerCase())) return true;
      report.conflicts.push({ kind: 'project', source: p.name, resolution: 'skipped', target: null, message: `${owner.login} has a project ${p.name} already` });
      return false;
    }) : [];
    await inTransaction(ctx, async (tx) => {
      const made: number[] = [];
      const orgCards = await importProjects(tx, { type: 'Organization', id: owner.id }, orgProjects, who, async (c) => {
        const repositoryId = keyToRepoId.get(c.repo);
        return repositoryId === undefined ? null : (await issueByNumber(tx, repositoryId, c.number))?.id ?? null;
      }, made);
      for (const r of imported) {
        await importEvents(tx, records.events.filter((e) => e.repo === r.key), r.made.issues, new Map([...r.made.cards, ...orgCards]), maybe);
      }
      created.projects = [...(created.projects ?? []), ...made];
      await store.setCreated(tx.db, job.id, created);
    });
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

/** Takes out what an import created, newest first: the organization's projects, repositories, teams, memberships, the organization, users. */
async function removeCreated(ctx: AppContext, c: CreatedIds): Promise<void> {
  await removeImportedProjects(ctx, c.projects ?? []);
  await removeImportedRepositories(ctx, [...c.repositories].reverse());
  await removeImportedAssetFiles(ctx, c.repositories);
  await removeImportedTeams(ctx, c.teams);
  for (const m of c.memberships) await removeImportedMember(ctx, m.orgId, m.userId);
  const accounts = await users.accountsByIds(ctx, [...(c.organization === null ? [] : [c.organization]), ...c.users]);
  for (const a of accounts.values()) await users.deleteAccount(ctx, a);
}
