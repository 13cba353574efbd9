// Resolvers of auto-merge: PullRequest.autoMergeRequest (batched per request) and the
// mutations enablePullRequestAutoMerge / disablePullRequestAutoMerge, on the auto-merge
// service (the one REST's `auto_merge` reads).
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { accountNode } from '../users/users.resolvers.ts';
import { autoMergeTypeDefs } from './auto-merge.graphql.ts';
import { autoMergesOf, disableAutoMerge, enableAutoMerge, type AutoMergeDetail } from './auto-merge.service.ts';
import type { PullRequestNode } from './pulls.graphql-nodes.ts';
import { asMutation } from '../../graphql/errors.ts';
import { changed, pullOfId, viewerNode } from './pulls.mutations.ts';
import type { MergeMethod } from './pulls.model.ts';

const autoMergeOfPull = defineMapLoader('autoMergeOfPull', (g, ids: readonly number[]) => autoMergesOf(g.ctx, ids));

interface AutoMergeNode {
  pr: PullRequestNode;
  detail: AutoMergeDetail;
}

const autoMergeRequestFields = {
  authorEmail: (a: AutoMergeNode) => a.detail.request.authorEmail,
  commitBody: (a: AutoMergeNode) => a.detail.request.commitMessage,
  commitHeadline: (a: AutoMergeNode) => a.detail.request.commitTitle,
  enabledAt: (a: AutoMergeNode) => a.detail.request.enabledAt,
  enabledBy: (a: AutoMergeNode) => (a.detail.enabledBy ? accountNode(a.detail.enabledBy) : null),
  mergeMethod: (a: AutoMergeNode) => a.detail.request.mergeMethod.toUpperCase(),
  pullRequest: (a: AutoMergeNode) => a.pr,
};

interface EnableInput {
  clientMutationId?: string | null;
  pullRequestId: string;
  mergeMethod?: 'MERGE' | 'SQUASH' | 'REBASE' | null;
  commitHeadline?: string | null;
  commitBody?: string | null;
  authorEmail?: string | null;
  expectedHeadOid?: string | null;
}

async function enablePullRequestAutoMerge(_: unknown, { input }: { input: EnableInput }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const located = await asMutation(g, 'EnablePullRequestAutoMerge', () => enableAutoMerge(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, {
    mergeMethod: (input.mergeMethod ?? 'MERGE').toLowerCase() as MergeMethod,
    commitHeadline: input.commitHeadline ?? null, commitBody: input.commitBody ?? null, authorEmail: input.authorEmail ?? null,
    expectedHeadOid: input.expectedHeadOid?.toLowerCase() ?? null,
  }));
  return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), pullRequest: changed(g, located) };
}

async function disablePullRequestAutoMerge(_: unknown, { input }: { input: { clientMutationId?: string | null; pullRequestId: string } }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const located = await asMutation(g, 'DisablePullRequestAutoMerge', () => disableAutoMerge(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number));
  return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), pullRequest: changed(g, located) };
}

const WRITE = ['public_repo', 'repo'];

export const autoMergeGraphQL: GraphQLModule = {
  name: 'auto-merge',
  typeDefs: autoMergeTypeDefs,
  resolvers: {
    PullRequest: {
      autoMergeRequest: async (p: PullRequestNode, _a: unknown, g: GraphQLContext): Promise<AutoMergeNode | null> => {
        const detail = await load(g, autoMergeOfPull, p.pull.id);
        return detail ? { pr: p, detail } : null;
      },
    },
    AutoMergeRequest: autoMergeRequestFields,
    Mutation: { enablePullRequestAutoMerge, disablePullRequestAutoMerge },
  },
  scopes: { 'Mutation.enablePullRequestAutoMerge': WRITE, 'Mutation.disablePullRequestAutoMerge': WRITE },
};
