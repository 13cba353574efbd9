// Repositories made from another one (forks, repositories generated from a template):
// the same creation steps as repos.createRepo — rights, row, bare repository, the
// creator watching it, the repository event — with git data taken from the origin.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ValidationError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as git from '../../git/repository.ts';
import type { Account } from '../users/users.model.ts';
import { accessToMany, type Access } from './repos.access.ts';
import type { Repo, RepoRecord } from './repos.model.ts';
import { checkCreateRights, presentable, withOwners, type RepoDetail } from './repos.service.ts';
import * as store from './repos.store.ts';

export interface DerivedRepo {
  owner: Account;
  /** The new row: settings and lineage (parent, source, template). */
  row: Omit<store.NewRepo, 'ownerId' | 'name' | 'now'>;
  /** Columns the insert does not take (license, language, pushed_at …). */
  changes?: Omit<store.RepoChanges, 'sizeKb'>;
  /** Picks the name inside the transaction, so that the choice and the insert agree. */
  chooseName(tx: AppContext): Promise<string>;
  /** Writes the git data into the new, empty bare repository. */
  populate(dir: string, record: RepoRecord): Promise<void>;
  /** Events beyond repository.created (fork on the parent …). */
  events?(tx: AppContext, record: RepoRecord): Promise<void>;
}

export function nameTaken(): ValidationError {
  return new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
}

export async function createDerivedRepo(ctx: AppContext, actor: Actor, d: DerivedRepo): Promise<Repo> {
  const user = requireUser(actor);
  await checkCreateRights(ctx, actor, d.owner, d.row.visibility);
  let dir: string | null = null;
  try {
    const record = await inTransaction(ctx, async (tx) => {
      const name = await d.chooseName(tx);
      const now = nowIso(tx.clock);
      const inserted = await store.insert(tx.db, { ...d.row, ownerId: d.owner.id, name, now });
      dir = git.repoDir(ctx.config.dataDir, inserted.id);
      await git.initBare(dir, inserted.defaultBranch);
      await d.populate(dir, inserted);
      const updated = await store.update(tx.db, inserted.id, { ...d.changes, sizeKb: await git.sizeKb(dir) }, now);
      await store.upsertSubscription(tx.db, { userId: user.id, repositoryId: inserted.id, subscribed: true, ignored: false, now });
      await store.removeRedirect(tx.db, `${d.owner.login}/${name}`.toLowerCase());
      await recordEvent(tx, {
        event: 'repository', action: 'created', repositoryId: inserted.id, actorId: user.id,
        organizationId: d.owner.type === 'Organization' ? d.owner.id : null, payload: {},
      });
      await d.events?.(tx, updated);
      return updated;
    });
    return { ...record, owner: d.owner };
  } catch (err) {
    if (dir !== null) await git.removeRepo(dir);
    throw err;
  }
}

/**
 * The detailed record of a repository the caller has just made or been handed: its
 * parent, source and template as far as the caller may see them.
 */
export async function detailOf(ctx: AppContext, actor: Actor, repo: Repo): Promise<RepoDetail> {
  const relatedIds = [repo.parentId, repo.sourceId, repo.templateId].filter((id): id is number => id !== null);
  const related = await withOwners(ctx, await store.findByIds(ctx.db, relatedIds));
  const access: Map<number, Access> = await accessToMany(ctx, actor, [repo, ...related]);
  const shown = related.filter((r) => access.get(r.id)?.effective);
  const all = await presentable(ctx, actor, [repo, ...shown], access);
  const find = (id: number | null) => (id === null ? null : all.find((p) => p.repo.id === id) ?? null);
  const root = all.find((p) => p.repo.id === (repo.sourceId ?? repo.id)) ?? all[0]!;
  return { ...all[0]!, parent: find(repo.parentId), source: find(repo.sourceId), template: find(repo.templateId), networkCount: root.counts.forks };
}

/** Which of the repositories (by id) the caller may read: for lists of others' repositories. */
export async function readableIds(ctx: AppContext, actor: Actor, ids: readonly number[]): Promise<number[]> {
  if (!ids.length || !actor.user) return [];
  const repos = await withOwners(ctx, await store.findByIds(ctx.db, ids));
  const access = await accessToMany(ctx, actor, repos);
  return repos.filter((r) => access.get(r.id)?.effective).map((r) => r.id);
}
