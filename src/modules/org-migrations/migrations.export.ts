// One export: the archive of a migration, written to the data dir's migrations folder
// with progress recorded on the migration as each part is done. Runs in the worker.
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { sessionActor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { fetchRefs } from '../../git/copy.ts';
import { initBare } from '../../git/repository.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { ArchiveWriter } from './migrations.archive.ts';
import type { Migration, MigrationProgress } from './migrations.model.ts';
import { organizationProjectRecords, userProjectRecords } from './migrations.projects.ts';
import { ownerRecords, repositoryRecords, usersNamedIn } from './migrations.records.ts';
import * as store from './migrations.store.ts';

/** Upstream's archive schema version, written to schema.json. */
export const ARCHIVE_SCHEMA_VERSION = '1.0.1';

export function archivesDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'migrations');
}

export function archivePath(ctx: AppContext, file: string): string {
  return path.join(archivesDir(ctx), path.basename(file));
}

export type ProgressSink = (p: MigrationProgress) => Promise<void>;

/** Writes the archive of `m`; answers its file name and size. Throws when it cannot. */
export async function writeArchive(ctx: AppContext, m: Migration, progress: ProgressSink): Promise<{ file: string; size: number }> {
  const accounts = await users.accountsByIds(ctx, [m.ownerId, ...(m.createdById === null ? [] : [m.createdById])]);
  const owner = accounts.get(m.ownerId);
  const creator = m.createdById === null ? undefined : accounts.get(m.createdById);
  if (!owner || !creator) throw new Error('the owner or the creator of the migration is gone');
  // The export sees what its creator sees: an owner of the organization, or the user.
  const actor = sessionActor({ id: creator.id, login: creator.login, siteAdmin: creator.siteAdmin }, 'migration-export');
  const ids = (await store.repositoryIdsOf(ctx.db, [m.id])).get(m.id) ?? [];
  // In id order (creation order) whatever order the database answers in: archives of the same data are alike.
  const repositories = (await repos.reposByIds(ctx, ids)).sort((a, b) => a.id - b.id);
  await fsp.mkdir(archivesDir(ctx), { recursive: true });
  const file = `${m.guid}.tar.gz`;
  const partial = archivePath(ctx, `${file}.part`);
  const writer = new ArchiveWriter(partial, ctx.clock.now());
  const scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'wharf-migration-'));
  try {
    const total = repositories.length + 2;
    await progress({ step: 'owner', done: 0, total });
    await writer.json('schema.json', { version: ARCHIVE_SCHEMA_VERSION });
    const ownerData = await ownerRecords(ctx, actor, owner, m.orgMetadataOnly ? [] : repositories);
    await writer.records('organizations', ownerData.organizations);
    await writer.records('teams', ownerData.teams);
    const named: unknown[] = [ownerData];
    let done = 1;
    const kinds = ['repositories', 'issues', 'pull_requests', 'issue_comments', 'labels', 'milestones', 'reactions',
      'pull_request_reviews', 'pull_request_review_comments', 'releases', 'issue_events', 'projects'] as const;
    const collected = Object.fromEntries(kinds.map((k) => [k, [] as unknown[]])) as Record<(typeof kinds)[number], unknown[]>;
    // The owner's own projects (an organization's or a user's: upstream's "owner projects"), unless exclude_owner_projects; org_metadata_only keeps them.
    if (!m.excludeOwnerProjects) {
      collected.projects.push(...await (owner.type === 'Organization' ? organizationProjectRecords(ctx, actor, owner.login) : userProjectRecords(ctx, actor, owner.login)));
    }
    // org_metadata_only: the organization, its teams and the people they name, nothing of any repository (upstream's rule).
    for (const repo of m.orgMetadataOnly ? [] : repositories) {
      await progress({ step: `repository ${repo.owner.login}/${repo.name}`, done, total });
      const r = await repositoryRecords(ctx, actor, repo, { metadata: !m.excludeMetadata, releases: !m.excludeReleases, attachments: !m.excludeAttachments });
      collected.repositories.push(r.repository);
      for (const k of kinds.slice(1) as Exclude<(typeof kinds)[number], 'repositories'>[]) collected[k].push(...r[k]);
      for (const f of r.files) await writer.copy(f.name, f.source);
      if (!m.excludeGitData) await writeGitData(ctx, writer, repo, scratch);
      done += 1;
    }
    for (const k of kinds) {
      await writer.records(k, collected[k]);
      named.push(collected[k]);
    }
    await progress({ step: 'users', done, total });
    await writer.records('users', await usersNamedIn(ctx, named));
    const size = await writer.finish();
    await fsp.rename(partial, archivePath(ctx, file));
    await progress({ step: 'done', done: total, total });
    return { file, size };
  } catch (err) {
    await writer.abort();
    throw err;
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A fresh bare copy of the repository (every ref, only the objects they reach) under
 * repositories/<owner>/<name>.git: what `git clone` of the archive's copy needs.
 */
async function writeGitData(ctx: AppContext, writer: ArchiveWriter, repo: repos.Located['repo'], scratch: string): Promise<void> {
  const copy = path.join(scratch, `${repo.id}.git`);
  await initBare(copy, repo.defaultBranch);
  await fetchRefs(copy, repos.gitDir(ctx, repo), ['+refs/*:refs/*']);
  await writer.directory(copy, `repositories/${repo.owner.login}/${repo.name}.git`);
  await fsp.rm(copy, { recursive: true, force: true });
}

export function stamp(ctx: AppContext): string {
  return nowIso(ctx.clock);
}
