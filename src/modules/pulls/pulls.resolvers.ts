// GraphQL resolvers of pull requests, on the pulls services (the ones REST calls).
// PullRequest is an issue row plus its record: the fields it shares with Issue come from
// the issues area (issueBackedFields); the branches, git figures, commits, files,
// reviews and review requests are this area's. Reviews, review comments and review
// requests live in reviews.resolvers.ts, the mutations in pulls.mutations.ts.
import { NotFoundError } from '../../domain/errors.ts';
import { arrayConnection, offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { notFound } from '../../graphql/errors.ts';
import { load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { commitNode, findRef } from '../git-data/git-data.resolvers.ts';
import { issueBackedFields, viewerRole } from '../issues/issues.graphql-helpers.ts';
import * as issueLists from '../issues/issue-lists.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import { listPullCommits, listPullFiles } from './pulls.changes.ts';
import { pullsTypeDefs } from './pulls.graphql.ts';
import {
  figuresOf, primePull, pullPath, pullRequestNode, reviewNode, reviewRequestNode, reviewRequestsOfPull, reviewsOfPull, visiblePull,
  type PullRequestNode,
} from './pulls.graphql-nodes.ts';
import { PULL_MUTATION_SCOPES, pullMutations } from './pulls.mutations.ts';
import type { ReviewRecord } from './pulls.model.ts';
import * as pulls from './pulls.service.ts';
import { reviewDecision } from './reviews.service.ts';
import * as repos from '../repos/repos.service.ts';
import { branchTip } from './pulls.git.ts';
import { protectionGate } from './pulls.protection.ts';
import { registerReviewReactables, reviewNodes, reviewResolvers } from './reviews.resolvers.ts';

// ---------------------------------------------------------------- commits and files

interface PullRequestCommitNode {
  __typename: 'PullRequestCommit';
  pr: PullRequestNode;
  sha: string;
}

const pullRequestCommitFields = {
  id: (c: PullRequestCommitNode) => encodeNodeId('PullRequestCommit', `${c.pr.pull.id}:${c.sha}`),
  commit: (c: PullRequestCommitNode) => commitNode(c.pr.repo, c.sha),
  pullRequest: (c: PullRequestCommitNode) => c.pr,
  resourcePath: (c: PullRequestCommitNode) => `${pullPath(c.pr)}/commits/${c.sha}`,
  url: (c: PullRequestCommitNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(`${pullPath(c.pr)}/commits/${c.sha}`),
};

/** REST's file status → PatchStatus. */
const CHANGE_TYPE: Record<string, string> = {
  added: 'ADDED', removed: 'DELETED', modified: 'MODIFIED', renamed: 'RENAMED', copied: 'COPIED', changed: 'CHANGED',
};

function commitsConnection(g: GraphQLContext, p: PullRequestNode, args: ConnectionArgs) {
  return offsetConnection(args, async (offset, limit) => {
    const page = await listPullCommits(g.ctx, g.actor, p.repo.owner.login, p.repo.name, p.pull.number, { offset, limit });
    return { items: page.items.map((c): PullRequestCommitNode => ({ __typename: 'PullRequestCommit', pr: p, sha: c.commit.sha })), total: page.total };
  });
}

function filesConnection(g: GraphQLContext, p: PullRequestNode, args: ConnectionArgs) {
  return offsetConnection(args, async (offset, limit) => {
    const page = await listPullFiles(g.ctx, g.actor, p.repo.owner.login, p.repo.name, p.pull.number, { offset, limit });
    return {
      items: page.items.map((f) => ({ path: f.path, additions: f.additions, deletions: f.deletions, changeType: CHANGE_TYPE[f.status] ?? 'MODIFIED' })),
      total: page.total,
    };
  });
}

// ---------------------------------------------------------------- reviews of a pull request

interface ReviewsArgs extends ConnectionArgs {
  states?: string[] | null;
  author?: string | null;
}

/** Reviewer id → lower-cased login, for the `author` filter. */
async function reviewerLogins(g: GraphQLContext, reviews: readonly ReviewRecord[]): Promise<Map<number, string>> {
  const accounts = await Promise.all([...new Set(reviews.map((r) => r.userId))].map((id) => load(g, accountById, id)));
  return new Map(accounts.flatMap((a) => (a ? [[a.id, a.login.toLowerCase()] as const] : [])));
}

async function reviewsConnection(g: GraphQLContext, p: PullRequestNode, args: ReviewsArgs) {
  let list = await load(g, reviewsOfPull, p.pull.id);
  if (args.states?.length) list = list.filter((r) => args.states!.includes(r.state));
  if (args.author) {
    const logins = await reviewerLogins(g, list);
    list = list.filter((r) => logins.get(r.userId) === args.author!.toLowerCase());
  }
  return arrayConnection(list, args, (r) => ({ node: reviewNode(p, r) }));
}

/** The latest submitted review of each reviewer, in the order they were submitted. */
function latestPerReviewer(list: readonly ReviewRecord[]): ReviewRecord[] {
  const latest = new Map<number, ReviewRecord>();
  for (const r of list) if (r.state !== 'PENDING') latest.set(r.userId, r);
  return [...latest.values()].sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------- PullRequest

/** Mergeability as GraphQL's MergeableState: known only for an open pull request whose base exists. */
function mergeableState(mergeable: boolean | null): string {
  return mergeable === null ? 'UNKNOWN' : mergeable ? 'MERGEABLE' : 'CONFLICTING';
}

/**
 * Whether the merge button would be green, as upstream's MergeStateStatus: UNKNOWN
 * while closed or not yet known, DIRTY on conflicts, BLOCKED for a draft, then the
 * base branch's protection as REST's mergeable_state judges it (BLOCKED, BEHIND,
 * UNSTABLE when statuses are not all successes, else CLEAN).
 */
async function mergeStateStatus(p: PullRequestNode, _a: unknown, g: GraphQLContext): Promise<string> {
  const { mergeable } = (await figures(g, p)).figures;
  if (p.issue.state !== 'open' || mergeable === null) return 'UNKNOWN';
  if (!mergeable) return 'DIRTY';
  if (p.pull.draft) return 'BLOCKED';
  // The page's reviews, read once for every pull request on it: asked for in the same tick
  // as the others' (the figures resolve together), before the base tip's read, whose time
  // differs per pull request and would split the loader's batch.
  const [baseTip, reviewList] = await Promise.all([branchTip(repos.gitDir(g.ctx, p.repo), p.pull.baseRef), load(g, reviewsOfPull, p.pull.id)]);
  if (!baseTip) return 'UNKNOWN';
  const submitted = reviewList.filter((r) => r.state !== 'PENDING');
  return (await protectionGate(g.ctx, p.repo, p.pull, baseTip, undefined, submitted)).state.toUpperCase();
}

async function headRepo(g: GraphQLContext, p: PullRequestNode): Promise<Repo | null> {
  if (p.pull.headRepositoryId === null) return null;
  if (p.pull.headRepositoryId === p.repo.id) return p.repo;
  return (await load(g, repositoryById, p.pull.headRepositoryId))?.repo ?? null;
}

const figures = async (g: GraphQLContext, p: PullRequestNode) => load(g, figuresOf, p);

const issueBacked = issueBackedFields((p: PullRequestNode) => p);

/** The pulls service's rule: its author and triagers edit a pull request. */
async function pullCannotUpdate(p: PullRequestNode, _a: unknown, g: GraphQLContext): Promise<string[]> {
  if (p.repo.archived) return ['ARCHIVED'];
  return pulls.canEditPull(g.user.id, await load(g, viewerRole, p.repo), p.issue) ? [] : ['INSUFFICIENT_ACCESS'];
}

const pullRequestFields = {
  ...issueBacked,
  id: (p: PullRequestNode) => encodeNodeId('PullRequest', p.pull.id),
  databaseId: (p: PullRequestNode) => p.pull.id,
  number: (p: PullRequestNode) => p.pull.number,
  title: (p: PullRequestNode) => p.issue.title,
  state: (p: PullRequestNode) => (p.pull.mergedAt !== null ? 'MERGED' : p.issue.state.toUpperCase()),
  isDraft: (p: PullRequestNode) => p.pull.draft,
  merged: (p: PullRequestNode) => p.pull.mergedAt !== null,
  mergedAt: (p: PullRequestNode) => p.pull.mergedAt,
  mergedBy: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    const a = p.pull.mergedById === null ? null : await load(g, accountById, p.pull.mergedById);
    return a ? accountNode(a) : null;
  },
  viewerCannotUpdateReasons: pullCannotUpdate,
  viewerCanUpdate: async (p: PullRequestNode, a: unknown, g: GraphQLContext) => (await pullCannotUpdate(p, a, g)).length === 0,
  // A merged pull request cannot be reopened, whoever asks.
  viewerCanReopen: async (p: PullRequestNode, a: unknown, g: GraphQLContext) => p.pull.mergedAt === null && await issueBacked.viewerCanReopen(p, a, g),
  mergeable: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => mergeableState((await figures(g, p)).figures.mergeable),
  mergeStateStatus,
  canBeRebased: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => (await figures(g, p)).figures.rebaseable === true,
  mergeCommit: (p: PullRequestNode) => (p.pull.mergedAt !== null && p.pull.mergeCommitSha ? commitNode(p.repo, p.pull.mergeCommitSha) : null),
  // The test merge of an open pull request, as REST's merge_commit_sha shows it.
  potentialMergeCommit: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    if (p.pull.mergedAt !== null || p.issue.state !== 'open') return null;
    const sha = (await figures(g, p)).pull.mergeCommitSha;
    return sha ? commitNode(p.repo, sha) : null;
  },
  maintainerCanModify: (p: PullRequestNode) => p.pull.maintainerCanModify,
  additions: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => (await figures(g, p)).figures.additions,
  deletions: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => (await figures(g, p)).figures.deletions,
  changedFiles: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => (await figures(g, p)).figures.changedFiles,
  headRefName: (p: PullRequestNode) => p.pull.headRef,
  headRefOid: (p: PullRequestNode) => p.pull.headSha,
  headRef: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    const repo = await headRepo(g, p);
    return repo ? findRef(g, repo, `refs/heads/${p.pull.headRef}`) : null;
  },
  headRepository: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    const repo = await headRepo(g, p);
    return repo ? repositoryNode(repo) : null;
  },
  headRepositoryOwner: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    const repo = await headRepo(g, p);
    return repo ? accountNode(repo.owner) : null;
  },
  isCrossRepository: (p: PullRequestNode) => p.pull.headRepositoryId !== p.repo.id,
  baseRefName: (p: PullRequestNode) => p.pull.baseRef,
  // An open pull request is compared with the base branch as it is now; a closed one keeps the base it closed on.
  baseRefOid: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    if (p.issue.state !== 'open') return p.pull.baseSha;
    return (await findRef(g, p.repo, `refs/heads/${p.pull.baseRef}`))?.sha ?? p.pull.baseSha;
  },
  baseRef: (p: PullRequestNode, _a: unknown, g: GraphQLContext) => findRef(g, p.repo, `refs/heads/${p.pull.baseRef}`),
  baseRepository: (p: PullRequestNode) => repositoryNode(p.repo),
  commits: (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) => commitsConnection(g, p, args),
  files: (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) => filesConnection(g, p, args),
  reviews: (p: PullRequestNode, args: ReviewsArgs, g: GraphQLContext) => reviewsConnection(g, p, args),
  latestReviews: async (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) =>
    arrayConnection(latestPerReviewer(await load(g, reviewsOfPull, p.pull.id)), args, (r) => ({ node: reviewNode(p, r) })),
  viewerLatestReview: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) => {
    const mine = (await load(g, reviewsOfPull, p.pull.id)).filter((r) => r.userId === g.user.id && r.state !== 'PENDING');
    return mine.length ? reviewNode(p, mine[mine.length - 1]!) : null;
  },
  reviewDecision: async (p: PullRequestNode, _a: unknown, g: GraphQLContext) =>
    reviewDecision((await load(g, reviewsOfPull, p.pull.id)).filter((r) => r.state !== 'PENDING')),
  reviewRequests: async (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) =>
    arrayConnection(await load(g, reviewRequestsOfPull, p.pull.id), args, (r) => ({ node: reviewRequestNode(p, r) })),
  resourcePath: (p: PullRequestNode) => pullPath(p),
  url: (p: PullRequestNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(pullPath(p)),
  permalink: (p: PullRequestNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(pullPath(p)),
};

// ---------------------------------------------------------------- lists

type PullStateEnum = 'OPEN' | 'CLOSED' | 'MERGED';

interface PullRequestsArgs extends ConnectionArgs {
  states?: PullStateEnum[] | null;
  labels?: string[] | null;
  headRefName?: string | null;
  baseRefName?: string | null;
  orderBy?: { field: 'CREATED_AT' | 'UPDATED_AT' | 'COMMENTS'; direction: 'ASC' | 'DESC' } | null;
}

const SORT = { CREATED_AT: 'created', UPDATED_AT: 'updated', COMMENTS: 'comments' } as const;

/** The pull requests of `repositories` (readable by the caller) matching the arguments, as a connection. */
function pullRequestsConnection(g: GraphQLContext, repositories: readonly Repo[], args: PullRequestsArgs, author?: string) {
  const o = args.orderBy ?? { field: 'CREATED_AT', direction: 'ASC' };
  return offsetConnection(args, async (offset, limit) => {
    const page = await pulls.listPullRecords(g.ctx, repositories, {
      ...(args.states?.length ? { states: args.states.map((s) => s.toLowerCase() as 'open' | 'closed' | 'merged') } : {}),
      ...(args.labels ? { labels: args.labels } : {}),
      ...(args.headRefName != null ? { headRef: args.headRefName } : {}),
      ...(args.baseRefName != null ? { baseRef: args.baseRefName } : {}),
      ...(author !== undefined ? { author } : {}),
      sort: SORT[o.field], direction: o.direction === 'DESC' ? 'desc' : 'asc', offset, limit,
    });
    const items = page.items.map((x) => pullRequestNode(x.repo, x.pull, x.issue));
    for (const n of items) primePull(g, n);
    return { items, total: page.total };
  });
}

async function pullRequestOf(r: RepositoryNode, args: { number: number }, g: GraphQLContext): Promise<PullRequestNode> {
  try {
    const l = await pulls.getPull(g.ctx, g.actor, r.repo.owner.login, r.repo.name, args.number);
    const node = pullRequestNode(l.repo, l.pull, l.issue);
    primePull(g, node);
    return node;
  } catch (err) {
    if (err instanceof NotFoundError) throw notFound(`Could not resolve to a PullRequest with the number of ${args.number}.`);
    throw err;
  }
}

// ---------------------------------------------------------------- node ids

async function pullRequestCommitOfId(g: GraphQLContext, id: string): Promise<Typed | null> {
  const [pullId, sha] = id.split(':');
  const n = numericId(pullId ?? '');
  const pr = n === null || !sha || !/^[0-9a-f]{40}$/.test(sha) ? null : await visiblePull(g, n);
  if (!pr) return null;
  const page = await listPullCommits(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, { offset: 0, limit: 250 });
  return page.items.some((c) => c.commit.sha === sha) ? { __typename: 'PullRequestCommit', pr, sha } as PullRequestCommitNode : null;
}

export const pullsGraphQL: GraphQLModule = {
  name: 'pulls',
  register: registerReviewReactables,
  typeDefs: pullsTypeDefs,
  resolvers: {
    PullRequest: pullRequestFields,
    PullRequestCommit: pullRequestCommitFields,
    ...reviewResolvers,
    Repository: {
      pullRequest: pullRequestOf,
      pullRequests: (r: RepositoryNode, args: PullRequestsArgs, g: GraphQLContext) => pullRequestsConnection(g, [r.repo], args),
    },
    User: {
      pullRequests: async (u: AccountNode, args: PullRequestsArgs, g: GraphQLContext) => {
        const candidates = await issueLists.readableRepositories(g.ctx, g.actor, await issueLists.repositoriesWithIssuesBy(g.ctx, u.account.id));
        return pullRequestsConnection(g, candidates, args, u.account.login);
      },
    },
    Mutation: pullMutations,
  },
  nodes: {
    PullRequest: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visiblePull(g, n);
    },
    PullRequestCommit: pullRequestCommitOfId,
    ...reviewNodes,
  },
  scopes: PULL_MUTATION_SCOPES,
};
