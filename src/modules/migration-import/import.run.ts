// One import, start to end: the archive read and checked (nothing is written before
// it all reads), the accounts in one transaction, then each repository in a
// transaction of its own with everything in it (a fork's parent from the archive
// before the fork), then the owner's projects (an organization's or a user's) and
// the timeline events in a last one. What is created is recorded on the job
// in the same transactions; when anything fails, all of it is removed again, and an
// import taken over from a dead importer removes what that one had put in first.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inTransaction, type AppContext } from '../../context.ts';
import { issueByNumber } from '../issues/issues.present.ts';
import { removeImportedMember, removeImportedTeams } from '../orgs/orgs.import.ts';
import { accountProjectNames, removeImportedProjects } from '../projects/projects.import.ts';
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
  let created: CreatedIds = structuredClone(NOTHING_CREATED);
  const scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'wharf-import-'));
  try {
    await progress({ step: 'reading the archive', done: 0, total: 1 });
    const gitRoot = path.join(scratch, 'git');
    const fileRoot = path.join(scratch, 'files');
    const contents = await readArchive(job.archivePath, { git: gitRoot, files: fileRoot });
    const records = parseRecords(contents);
    let report: ImportReport = { owner: null, users: { created: [], mapped: [] }, repositories: [], conflicts: [] };
    const total = records.repositories.length + 2;
    await progress({ step: 'accounts and teams', done: 1, total });
    const creator = job.createdById === null ? null : (await users.accountsByIds(ctx, [job.createdById])).get(job.createdById) ?? null;
    // What a transaction creates is kept (for taking it out again) once it committed: a rolled-back id may be another's next.
    // Each attempt of a transaction retried after a conflict starts from what the last commit left.
    let next = created;
    let nextReport = report;
    const accounts = await inTransaction(ctx, async (tx) => {
      next = structuredClone(created);
      nextReport = structuredClone(report);
      const a = await importAccounts(tx, records, { targetOrg: job.targetOrg, creator }, next, nextReport);
      await store.setCreated(tx.db, job.id, next);
      return a;
    });
    created = next;
    report = nextReport;
    const keyToRepoId = new Map<string, number>();
    const imported: { key: string; made: ImportedRepository }[] = [];
    let done = 2;
    for (const source of parentsFirst(records.repositories)) {
      await progress({ step: `repository ${source.owner}/${source.name}`, done, total });
      done += 1;
      const name = await freeName(ctx, accounts.owner, source, job.onConflict, report.conflicts);
      if (name === null) continue;
      const gitSource = contents.gitData.has(source.key) ? path.join(gitRoot, source.owner, `${source.name}.git`) : null;
      const made = await importOneRepository(ctx, records, source, name, { git: gitSource, files: fileRoot }, accounts, keyToRepoId, report.conflicts, async (tx, r) => {
        next = { ...created, repositories: [...created.repositories, r.repo.id] };
        await store.setCreated(tx.db, job.id, next);
      });
      created = next;
      keyToRepoId.set(source.key, made.repo.id);
      imported.push({ key: source.key, made });
      report.repositories.push({ source: `${source.owner}/${source.name}`, target: `${accounts.owner.login}/${made.repo.name}` });
    }
    // Then, in one more transaction, the owner's projects, an organization's or a user's (their cards show issues of
    // any imported repository), and every timeline event (those about project cards find the cards made here).
    const who = (login: string | null) => (login === null ? accounts.fallback : accounts.byLogin.get(login.toLowerCase()) ?? accounts.fallback);
    const maybe = (login: string | null) => (login === null ? null : who(login).id);
    const owner = { type: accounts.owner.type === 'Organization' ? 'Organization' as const : 'User' as const, id: accounts.owner.id };
    // An owner's project of a name the owner has already (an archive imported twice) is skipped and reported, as a repository is.
    const taken = await accountProjectNames(ctx, owner);
    const ownerProjects = records.projects.filter((p) => {
      if (p.repo !== null) return false;
      if (!taken.has(p.name.toLowerCase())) return true;
      report.conflicts.push({ kind: 'project', source: p.name, resolution: 'skipped', target: null, message: `${accounts.owner.login} has a project ${p.name} already` });
      return false;
    });
    await inTransaction(ctx, async (tx) => {
      const made: number[] = [];
      const ownerCards = await importProjects(tx, owner, ownerProjects, who, async (c) => {
        const repositoryId = keyToRepoId.get(c.repo);
        return repositoryId === undefined ? null : (await issueByNumber(tx, repositoryId, c.number))?.id ?? null;
      }, made);
      for (const r of imported) {
        await importEvents(tx, records.events.filter((e) => e.repo === r.key), {
          issues: r.made.issues, cards: new Map([...r.made.cards, ...ownerCards]), reviews: r.made.reviews, teams: accounts.teams,
        }, maybe);
      }
      next = { ...created, projects: [...(created.projects ?? []), ...made] };
      await store.setCreated(tx.db, job.id, next);
    });
    created = next;
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

/** The repositories with each whose parent is in the archive after that parent (else in the archive's order). */
function parentsFirst(repositories: readonly RepositoryRecord[]): RepositoryRecord[] {
  const byKey = new Map(repositories.map((r) => [r.key, r]));
  const out: RepositoryRecord[] = [];
  const placed = new Set<string>();
  const place = (r: RepositoryRecord, below: Set<string>): void => {
    if (placed.has(r.key) || below.has(r.key)) return;
    const parent = r.parent === null ? undefined : byKey.get(r.parent.toLowerCase());
    // A cycle of parents (no real archive has one) is broken where it closes.
    if (parent) place(parent, new Set([...below, r.key]));
    placed.add(r.key);
    out.push(r);
  };
  for (const r of repositories) place(r, new Set());
  return out;
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
