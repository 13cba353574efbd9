// Forks: a real repository holding a copy of the parent's git data, linked to its
// parent and to the root of the network (source). Upstream's rules are kept: an
// account holds at most one repository of a network, so asking again (or forking
// your own repository into your own account) hands back the one it has.
import type { AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import { fetchRefs } from '../../git/copy.ts';
import * as git from '../../git/repository.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { createDerivedRepo, detailOf, nameTaken, readableIds } from './repos.derived.ts';
import type { Visibility } from './repos.model.ts';
import { accessTo, checkCreateRights, gitDir, locate, presentable, withOwners, type RepoDetail, type RepoPage } from './repos.service.ts';
import * as store from './repos.store.ts';
import { validateRepoName } from './repos.names.ts';

export interface CreateForkInput {
  organization?: string;
  name?: string;
  defaultBranchOnly?: boolean;
}

async function destination(ctx: AppContext, actor: Actor, organization: string | undefined): Promise<Account> {
  if (organization === undefined) return users.getOwnAccount(ctx, actor);
  const account = await users.findAccount(ctx, organization);
  if (!account) {
    throw new ValidationError([{ resource: 'Fork', field: 'organization', code: 'invalid', value: organization, message: `Could not find organization ${organization}.` }]);
  }
  if (account.type !== 'Organization') {
    // Upstream's wording.
    throw new ValidationError([{
      resource: 'Fork', field: 'organization', code: 'invalid', value: organization,
      message: `'${organization}' is the login for a user account. You must pass the login for an organization account.`,
    }]);
  }
  return account;
}

/** A fork keeps its parent's visibility; an internal one stays internal only inside an organization. */
function forkVisibility(parent: Visibility, owner: Account): Visibility {
  if (parent === 'internal' && owner.type !== 'Organization') return 'private';
  return parent;
}

/**
 * Without a requested name, a taken name becomes name-1, name-2 … as upstream does;
 * a requested name that is taken is refused.
 */
async function pickName(tx: AppContext, ownerId: number, wanted: string, requested: boolean): Promise<string> {
  if (requested) {
    if ((await store.takenNames(tx.db, ownerId, [wanted])).size) throw nameTaken();
    return wanted;
  }
  for (let start = 0; start < 1000; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, i) => (start + i === 0 ? wanted : `${wanted}-${start + i}`));
    const taken = await store.takenNames(tx.db, ownerId, candidates);
    const free = candidates.find((c) => !taken.has(c.toLowerCase()) && c.length <= 100);
    if (free) return free;
  }
  throw nameTaken();
}

export async function createFork(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, input: CreateForkInput): Promise<RepoDetail> {
  const user = requireUser(actor);
  const { repo: parent } = await locate(ctx, actor, ownerLogin, name);
  if (!parent.allowForking) throw new ForbiddenError('The repository exists, but forking is disabled.');
  if (input.name !== undefined) validateRepoName(input.name);
  const owner = await destination(ctx, actor, input.organization);
  const visibility = forkVisibility(parent.visibility, owner);
  // Rights first: the existing fork is handed only to those who could have made it.
  await checkCreateRights(ctx, actor, owner, visibility);
  const rootId = parent.sourceId ?? parent.id;

  const existing = await store.findInNetwork(ctx.db, owner.id, rootId);
  if (existing) {
    const [repo] = await withOwners(ctx, [existing]);
    if (!(await accessTo(ctx, actor, repo!)).effective) throw new NotFoundError();
    return detailOf(ctx, actor, repo!);
  }

  const parentDir = gitDir(ctx, parent);
  const refspecs = input.defaultBranchOnly
    ? ((await git.resolve(parentDir, `refs/heads/${parent.defaultBranch}`)) ? [`refs/heads/${parent.defaultBranch}:refs/heads/${parent.defaultBranch}`] : [])
    : ['refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'];
  const repo = await createDerivedRepo(ctx, actor, {
    owner,
    row: {
      visibility,
      defaultBranch: parent.defaultBranch,
      description: parent.description,
      homepage: parent.homepage,
      // Upstream turns issues off on a fork; the rest of the features follow the parent.
      hasIssues: false,
      hasProjects: parent.hasProjects,
      hasWiki: parent.hasWiki,
      hasDownloads: parent.hasDownloads,
      parentId: parent.id,
      sourceId: rootId,
      isFork: true,
    },
    // The fork carries the parent's content, so what was learnt from that content carries over.
    changes: { licenseKey: parent.licenseKey, language: parent.language, pushedAt: parent.pushedAt },
    chooseName: (tx) => pickName(tx, owner.id, input.name ?? parent.name, input.name !== undefined),
    populate: (dir) => fetchRefs(dir, parentDir, refspecs),
    events: async (tx, record) => {
      await recordEvent(tx, {
        event: 'fork', repositoryId: parent.id, actorId: user.id,
        organizationId: parent.owner.type === 'Organization' ? parent.ownerId : null,
        payload: { forkee_id: record.id },
      });
    },
  });
  return detailOf(ctx, actor, repo);
}

export interface ListForksQuery {
  sort?: store.ForkListFilter['sort'];
  limit: number;
  offset: number;
}

export async function listForks(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, q: ListForksQuery): Promise<RepoPage> {
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  const visiblePrivateIds = await readableIds(ctx, actor, await store.nonPublicForkIds(ctx.db, repo.id));
  const { rows, total } = await store.listForks(ctx.db, repo.id, { visiblePrivateIds, sort: q.sort ?? 'newest', limit: q.limit, offset: q.offset });
  return { items: await presentable(ctx, actor, await withOwners(ctx, rows)), total };
}
