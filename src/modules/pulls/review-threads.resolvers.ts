// Resolvers of review threads (PullRequest.reviewThreads, the thread node) and of the
// mutations resolveReviewThread and unresolveReviewThread, on the review-threads service.
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, idOfType, numericId } from '../../graphql/node-id.ts';
import { viewerCanReactOn, viewerRole } from '../issues/issues.graphql-helpers.ts';
import { repositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import { primePull, pullRequestNode, reviewCommentNode, type PullRequestNode } from './pulls.graphql-nodes.ts';
import { canResolveThread, requireThread, setThreadResolved, threadsOfPull, type LocatedThread, type ReviewThread } from './review-threads.service.ts';
import { reviewThreadsTypeDefs } from './review-threads.graphql.ts';

interface ThreadNode {
  __typename: 'PullRequestReviewThread';
  pr: PullRequestNode;
  thread: ReviewThread;
}

function threadNode(pr: PullRequestNode, thread: ReviewThread): ThreadNode {
  return { __typename: 'PullRequestReviewThread', pr, thread };
}

async function viewerMayResolve(t: ThreadNode, g: GraphQLContext): Promise<boolean> {
  if (t.pr.repo.archived) return false;
  return canResolveThread(g.user.id, await load(g, viewerRole, t.pr.repo), t.pr.issue);
}

const threadFields = {
  id: (t: ThreadNode) => encodeNodeId('PullRequestReviewThread', t.thread.root.id),
  comments: (t: ThreadNode, args: ConnectionArgs & { skip?: number | null }) =>
    arrayConnection(t.thread.comments.slice(Math.max(0, args.skip ?? 0)), args, (c) => ({ node: reviewCommentNode(t.pr, c) })),
  diffSide: (t: ThreadNode) => t.thread.root.side ?? 'RIGHT',
  isCollapsed: (t: ThreadNode) => t.thread.resolution !== null,
  isResolved: (t: ThreadNode) => t.thread.resolution !== null,
  // A line comment whose line the current diff no longer shows (REST's position null).
  isOutdated: (t: ThreadNode) => t.thread.root.subjectType === 'line' && t.thread.root.position === null,
  line: (t: ThreadNode) => t.thread.root.line,
  originalLine: (t: ThreadNode) => t.thread.root.originalLine,
  originalStartLine: (t: ThreadNode) => t.thread.root.originalStartLine,
  startLine: (t: ThreadNode) => t.thread.root.startLine,
  startDiffSide: (t: ThreadNode) => t.thread.root.startSide,
  path: (t: ThreadNode) => t.thread.root.path,
  subjectType: (t: ThreadNode) => t.thread.root.subjectType.toUpperCase(),
  pullRequest: (t: ThreadNode) => t.pr,
  repository: (t: ThreadNode) => repositoryNode(t.pr.repo),
  resolvedBy: async (t: ThreadNode, _a: unknown, g: GraphQLContext) => {
    const id = t.thread.resolution?.resolvedById ?? null;
    const account = id === null ? null : await load(g, accountById, id);
    return account ? accountNode(account) : null;
  },
  viewerCanReply: (t: ThreadNode, _a: unknown, g: GraphQLContext) => viewerCanReactOn(g, t.pr.repo, t.pr.issue.locked),
  viewerCanResolve: async (t: ThreadNode, _a: unknown, g: GraphQLContext) => t.thread.resolution === null && viewerMayResolve(t, g),
  viewerCanUnresolve: async (t: ThreadNode, _a: unknown, g: GraphQLContext) => t.thread.resolution !== null && viewerMayResolve(t, g),
};

function nodeOf(g: GraphQLContext, l: LocatedThread): ThreadNode {
  const pr = pullRequestNode(l.repo, l.pull, l.issue);
  primePull(g, pr);
  return threadNode(pr, l.thread);
}

interface ThreadInput {
  clientMutationId?: string | null;
  threadId: string;
}

/** resolveReviewThread / unresolveReviewThread: refusals worded as upstream's. */
function setResolved(resolved: boolean, mutation: string) {
  return async (_: unknown, { input }: { input: ThreadInput }, g: GraphQLContext) => {
    const unresolvable = notFound(`Could not resolve to PullRequestReviewThread node with the global id of '${input.threadId}'.`);
    const ref = idOfType(input.threadId, 'PullRequestReviewThread');
    if (!ref) throw unresolvable;
    try {
      const l = await setThreadResolved(g.ctx, g.actor, ref.id, resolved);
      g.loaders.clear();
      return { clientMutationId: input.clientMutationId ?? null, thread: nodeOf(g, l) };
    } catch (err) {
      if (err instanceof NotFoundError) throw unresolvable;
      if (err instanceof ForbiddenError && /^Must have /.test(err.message)) {
        throw new GraphQLApiError('FORBIDDEN', `${g.user.login} does not have the correct permissions to execute \`${mutation}\``);
      }
      throw err;
    }
  };
}

const WRITE = ['public_repo', 'repo'];

export const reviewThreadsGraphQL: GraphQLModule = {
  name: 'review-threads',
  typeDefs: reviewThreadsTypeDefs,
  resolvers: {
    PullRequest: {
      reviewThreads: async (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) =>
        arrayConnection((await threadsOfPull(g.ctx, g.user.id, p.pull.id)).map((t) => threadNode(p, t)), args),
    },
    PullRequestReviewThread: threadFields,
    Mutation: {
      resolveReviewThread: setResolved(true, 'ResolveReviewThread'),
      unresolveReviewThread: setResolved(false, 'UnresolveReviewThread'),
    },
  },
  nodes: {
    PullRequestReviewThread: async (g, id) => {
      const n = numericId(id);
      if (n === null) return null;
      try {
        return nodeOf(g, await requireThread(g.ctx, g.actor, n));
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    },
  },
  scopes: { 'Mutation.resolveReviewThread': WRITE, 'Mutation.unresolveReviewThread': WRITE },
};
