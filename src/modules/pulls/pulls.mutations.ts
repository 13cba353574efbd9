// The pull request mutations of GraphQL. Each calls the service function its REST twin
// calls (so permissions, events, webhooks and notifications are the same) after turning
// global ids into what that function takes: owner, name and number, branch names,
// logins, team slugs, label names, milestone numbers. The payload's pull request is the
// one the service returns; everything this request had loaded before is forgotten.
import { encodeCursor } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { asMutation, GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { load } from '../../graphql/loaders.ts';
import type { FieldResolver } from '../../graphql/module.ts';
import { idOfType } from '../../graphql/node-id.ts';
import { visibleLabel, visibleMilestone } from '../issues/issues.resolvers.ts';
import * as issues from '../issues/issues.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import { primePull, pullRequestNode, reviewNode, visiblePull, visibleReview, type PullRequestNode } from './pulls.graphql-nodes.ts';
import { mergePull } from './pulls.merge.ts';
import type { MergeMethod, ReviewEvent } from './pulls.model.ts';
import * as pulls from './pulls.service.ts';
import * as requests from './review-requests.service.ts';
import { resolveProjectIds, setIssueProjects } from '../projects/issue-projects.service.ts';
import * as reviews from './reviews.service.ts';

const WRITE = ['public_repo', 'repo'];

const MUTATIONS = [
  'createPullRequest', 'updatePullRequest', 'mergePullRequest', 'closePullRequest', 'reopenPullRequest', 'requestReviews',
  'addPullRequestReview', 'submitPullRequestReview', 'markPullRequestReadyForReview', 'convertPullRequestToDraft',
] as const;

/** Scopes of the pull request mutations: those of their REST twins (writing to a repository). */
export const PULL_MUTATION_SCOPES: Record<string, readonly string[]> = Object.fromEntries(MUTATIONS.map((m) => [`Mutation.${m}`, WRITE]));

interface WithClient {
  clientMutationId?: string | null;
}

function unresolvable(id: string): GraphQLApiError {
  return notFound(`Could not resolve to a node with the global id of '${id}'.`);
}

function invalid(message: string): GraphQLApiError {
  return new GraphQLApiError('UNPROCESSABLE', message);
}

/** The pull request a global id names, as the caller may see it. */
export async function pullOfId(g: GraphQLContext, id: string): Promise<PullRequestNode> {
  const ref = idOfType(id, 'PullRequest');
  const pr = ref ? await visiblePull(g, ref.id) : null;
  if (!pr) throw unresolvable(id);
  return pr;
}

/**
 * The pull request a service left after a change. The loaders of this request are
 * forgotten: they hold what was before.
 */
export function changed(g: GraphQLContext, l: pulls.LocatedPull): PullRequestNode {
  g.loaders.clear();
  const node = pullRequestNode(l.repo, l.pull, l.issue);
  primePull(g, node);
  return node;
}

/** The pull request read again, for a change made by more than one service call (another area's among them). */
async function fresh(g: GraphQLContext, repo: Repo, number: number): Promise<PullRequestNode> {
  g.loaders.clear();
  return changed(g, await pulls.locatePull(g.ctx, g.actor, repo.owner.login, repo.name, number));
}

export async function viewerNode(g: GraphQLContext) {
  const a = await load(g, accountById, g.user.id);
  return a ? accountNode(a) : null;
}

/** User global ids → logins. */
async function loginsOf(g: GraphQLContext, ids: readonly string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => {
    const ref = idOfType(id, 'User');
    const account = ref ? await load(g, accountById, ref.id) : null;
    if (!account || account.type !== 'User') throw unresolvable(id);
    return account.login;
  }));
}

/** Team global ids → slugs of teams of the repository's organization. */
async function teamSlugsOf(g: GraphQLContext, repo: Repo, ids: readonly string[]): Promise<string[]> {
  const refs = ids.map((id) => ({ id, ref: idOfType(id, 'Team') }));
  const found = await orgs.teamsWithOrgLogins(g.ctx, refs.flatMap((r) => (r.ref ? [r.ref.id] : [])));
  return refs.map(({ id, ref }) => {
    const team = found.find((t) => t.team.id === ref?.id);
    if (!team || team.team.orgId !== repo.ownerId) throw unresolvable(id);
    return team.team.slug;
  });
}

// ---------------------------------------------------------------- create, update, close, reopen

interface CreatePullRequestInput extends WithClient {
  repositoryId: string;
  baseRefName: string;
  headRefName: string;
  headRepositoryId?: string | null;
  title: string;
  body?: string | null;
  draft?: boolean | null;
  maintainerCanModify?: boolean | null;
}

async function createPullRequest(_: unknown, { input }: { input: CreatePullRequestInput }, g: GraphQLContext) {
  const ref = idOfType(input.repositoryId, 'Repository');
  const repo = (ref ? await load(g, repositoryById, ref.id) : null)?.repo;
  if (!repo) throw unresolvable(input.repositoryId);
  let headRepo: string | undefined;
  if (input.headRepositoryId) {
    const headRef = idOfType(input.headRepositoryId, 'Repository');
    const head = (headRef ? await load(g, repositoryById, headRef.id) : null)?.repo;
    if (!head) throw unresolvable(input.headRepositoryId);
    headRepo = `${head.owner.login}/${head.name}`;
  }
  const created = await asMutation(g, 'CreatePullRequest', () => pulls.createPull(g.ctx, g.actor, repo.owner.login, repo.name, {
    title: input.title, body: input.body ?? null, head: input.headRefName, base: input.baseRefName,
    ...(headRepo ? { headRepo } : {}),
    draft: input.draft ?? false, maintainerCanModify: input.maintainerCanModify ?? true,
  }));
  return { clientMutationId: input.clientMutationId ?? null, pullRequest: changed(g, created) };
}

interface UpdatePullRequestInput extends WithClient {
  pullRequestId: string;
  title?: string | null;
  body?: string | null;
  baseRefName?: string | null;
  state?: 'OPEN' | 'CLOSED' | null;
  maintainerCanModify?: boolean | null;
  assigneeIds?: string[] | null;
  labelIds?: string[] | null;
  milestoneId?: string | null;
  projectIds?: string[] | null;
}

/** Label global ids → names of labels of the repository. */
async function labelNamesOf(g: GraphQLContext, repo: Repo, ids: readonly string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => {
    const ref = idOfType(id, 'Label');
    const label = ref ? await visibleLabel(g, ref.id) : null;
    if (!label || label.label.repositoryId !== repo.id) throw unresolvable(id);
    return label.label.name;
  }));
}

async function milestoneNumberOf(g: GraphQLContext, repo: Repo, id: string): Promise<number> {
  const ref = idOfType(id, 'Milestone');
  const m = ref ? await visibleMilestone(g, ref.id) : null;
  if (!m || m.milestone.repositoryId !== repo.id) throw unresolvable(id);
  return m.milestone.number;
}

async function updatePullRequest(_: unknown, { input }: { input: UpdatePullRequestInput }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const { repo } = pr;
  // Every id is resolved before anything changes: a request refused halfway changes nothing.
  const projectIds = input.projectIds == null ? null : await resolveProjectIds(g.ctx, g.actor, input.projectIds, repo);
  const decorations: issues.UpdateIssueInput = {};
  if (input.labelIds != null) decorations.labels = await labelNamesOf(g, repo, input.labelIds);
  if (input.assigneeIds != null) decorations.assignees = await loginsOf(g, input.assigneeIds);
  if ('milestoneId' in input && input.milestoneId !== undefined) {
    decorations.milestone = input.milestoneId === null ? null : await milestoneNumberOf(g, repo, input.milestoneId);
  }
  const updated = await asMutation(g, 'UpdatePullRequest', async () => {
    const l = await pulls.updatePull(g.ctx, g.actor, repo.owner.login, repo.name, pr.pull.number, {
      ...(input.title != null ? { title: input.title } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.baseRefName != null ? { base: input.baseRefName } : {}),
      ...(input.state ? { state: input.state === 'OPEN' ? 'open' as const : 'closed' as const } : {}),
      ...(input.maintainerCanModify != null ? { maintainerCanModify: input.maintainerCanModify } : {}),
    });
    // Labels, assignees and milestone are the issue row's, changed as REST's issue update changes them.
    if (!Object.keys(decorations).length) return l;
    await issues.updateIssue(g.ctx, g.actor, repo.owner.login, repo.name, pr.pull.number, decorations);
    return null;
  });
  if (projectIds) await setIssueProjects(g.ctx, g.actor, pr.issue, projectIds, true);
  // After the issue update the issues service's answer is a view: the records are read again.
  const pullRequest = updated ? changed(g, updated) : await fresh(g, repo, pr.pull.number);
  return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), pullRequest };
}

function setState(name: 'ClosePullRequest' | 'ReopenPullRequest', state: 'open' | 'closed') {
  return async (_: unknown, { input }: { input: WithClient & { pullRequestId: string } }, g: GraphQLContext) => {
    const pr = await pullOfId(g, input.pullRequestId);
    const l = await asMutation(g, name, () => pulls.updatePull(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, { state }));
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: changed(g, l) };
  };
}

function setDraft(name: 'MarkPullRequestReadyForReview' | 'ConvertPullRequestToDraft', draft: boolean) {
  return async (_: unknown, { input }: { input: WithClient & { pullRequestId: string } }, g: GraphQLContext) => {
    const pr = await pullOfId(g, input.pullRequestId);
    const l = await asMutation(g, name, () => pulls.setDraft(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, draft));
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: changed(g, l) };
  };
}

// ---------------------------------------------------------------- merge

interface MergePullRequestInput extends WithClient {
  pullRequestId: string;
  mergeMethod?: 'MERGE' | 'SQUASH' | 'REBASE' | null;
  commitHeadline?: string | null;
  commitBody?: string | null;
  expectedHeadOid?: string | null;
}

async function mergePullRequest(_: unknown, { input }: { input: MergePullRequestInput }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const outcome = await asMutation(g, 'MergePullRequest', () => mergePull(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, {
    mergeMethod: (input.mergeMethod ?? 'MERGE').toLowerCase() as MergeMethod,
    ...(input.commitHeadline != null ? { commitTitle: input.commitHeadline } : {}),
    ...(input.commitBody != null ? { commitMessage: input.commitBody } : {}),
    ...(input.expectedHeadOid != null ? { sha: input.expectedHeadOid.toLowerCase() } : {}),
  }));
  return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), pullRequest: changed(g, outcome.merged) };
}

// ---------------------------------------------------------------- review requests

interface RequestReviewsInput extends WithClient {
  pullRequestId: string;
  userIds?: string[] | null;
  teamIds?: string[] | null;
  union?: boolean | null;
}

/**
 * Requests reviews of the users and teams given. Without `union` they replace the
 * current requests (upstream): the new ones are added first, so a refused request
 * changes nothing, then the others withdrawn.
 */
async function requestReviews(_: unknown, { input }: { input: RequestReviewsInput }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const { repo } = pr;
  const reviewers = await loginsOf(g, input.userIds ?? []);
  const teamReviewers = await teamSlugsOf(g, repo, input.teamIds ?? []);
  const last = await asMutation(g, 'RequestReviews', async () => {
    let l: pulls.LocatedPull | null = null;
    if (reviewers.length || teamReviewers.length) {
      l = await requests.requestReviewers(g.ctx, g.actor, repo.owner.login, repo.name, pr.pull.number, { reviewers, teamReviewers });
    }
    if (input.union) return l;
    const current = await requests.listRequestedReviewers(g.ctx, g.actor, repo.owner.login, repo.name, pr.pull.number);
    const keepUsers = new Set(reviewers.map((l) => l.toLowerCase()));
    const keepTeams = new Set(teamReviewers.map((s) => s.toLowerCase()));
    const dropUsers = current.users.filter((a) => !keepUsers.has(a.login.toLowerCase())).map((a) => a.login);
    const dropTeams = current.teams.filter((t) => !keepTeams.has(t.team.slug.toLowerCase())).map((t) => t.team.slug);
    if (dropUsers.length || dropTeams.length) {
      l = await requests.removeRequestedReviewers(g.ctx, g.actor, repo.owner.login, repo.name, pr.pull.number, { reviewers: dropUsers, teamReviewers: dropTeams });
    }
    return l;
  });
  // Nothing asked and nothing withdrawn: no service call changed (or returned) the pull request.
  const pullRequest = last ? changed(g, last) : await fresh(g, repo, pr.pull.number);
  return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), pullRequest, requestedReviewersEdge: null };
}

// ---------------------------------------------------------------- reviews

/** PullRequestReviewEvent → the service's event; DISMISS is dismissPullRequestReview's business, not a review's. */
function reviewEventOf(event: string | null | undefined): ReviewEvent | undefined {
  if (event === null || event === undefined) return undefined;
  if (event === 'DISMISS') throw invalid('A review cannot be submitted with the DISMISS event; dismiss a review with dismissPullRequestReview.');
  return event as ReviewEvent;
}

interface AddPullRequestReviewInput extends WithClient {
  pullRequestId: string;
  body?: string | null;
  event?: string | null;
  commitOID?: string | null;
  comments?: ({ path: string; position: number; body: string } | null)[] | null;
  threads?: ({ path: string; line: number; side?: 'LEFT' | 'RIGHT' | null; startLine?: number | null; startSide?: 'LEFT' | 'RIGHT' | null; body: string } | null)[] | null;
}

/** The payload's review (as the service left it) and its edge among the pull request's reviews. */
async function reviewPayload(g: GraphQLContext, r: reviews.LocatedReview, clientMutationId: string | null | undefined) {
  const review = reviewNode(changed(g, r), r.review);
  const all = await reviews.reviewsOfPulls(g.ctx, [r.pull.id], g.user.id);
  const position = all.findIndex((x) => x.id === r.review.id);
  return {
    clientMutationId: clientMutationId ?? null,
    pullRequestReview: review,
    reviewEdge: position >= 0 ? { cursor: encodeCursor(position), node: review } : null,
  };
}

async function addPullRequestReview(_: unknown, { input }: { input: AddPullRequestReviewInput }, g: GraphQLContext) {
  const pr = await pullOfId(g, input.pullRequestId);
  const event = reviewEventOf(input.event);
  const comments = [
    ...(input.comments ?? []).flatMap((c) => (c ? [{ body: c.body, path: c.path, position: c.position }] : [])),
    ...(input.threads ?? []).flatMap((t) => (t ? [{
      body: t.body, path: t.path, line: t.line, side: t.side ?? 'RIGHT',
      ...(t.startLine != null ? { startLine: t.startLine, startSide: t.startSide ?? 'RIGHT' } : {}),
    }] : [])),
  ];
  const created = await asMutation(g, 'AddPullRequestReview', () => reviews.createReview(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, {
    ...(input.commitOID != null ? { commitId: input.commitOID.toLowerCase() } : {}),
    ...(input.body != null ? { body: input.body } : {}),
    ...(event ? { event } : {}),
    comments,
  }));
  return reviewPayload(g, created, input.clientMutationId);
}

interface SubmitPullRequestReviewInput extends WithClient {
  pullRequestReviewId?: string | null;
  pullRequestId?: string | null;
  event: string;
  body?: string | null;
}

/** The review to submit: the one named, or the caller's pending review of the pull request named. */
async function pendingReviewOf(g: GraphQLContext, input: SubmitPullRequestReviewInput): Promise<{ pr: PullRequestNode; reviewId: number }> {
  if (input.pullRequestReviewId) {
    const ref = idOfType(input.pullRequestReviewId, 'PullRequestReview');
    const found = ref ? await visibleReview(g, ref.id) : null;
    if (!found) throw unresolvable(input.pullRequestReviewId);
    return { pr: found.pr, reviewId: found.review.id };
  }
  if (!input.pullRequestId) throw invalid('Either pullRequestReviewId or pullRequestId must be given.');
  const pr = await pullOfId(g, input.pullRequestId);
  const pending = (await reviews.reviewsOfPulls(g.ctx, [pr.pull.id], g.user.id)).find((r) => r.state === 'PENDING' && r.userId === g.user.id);
  if (!pending) throw notFound('Could not find a pending review for this pull request.');
  return { pr, reviewId: pending.id };
}

async function submitPullRequestReview(_: unknown, { input }: { input: SubmitPullRequestReviewInput }, g: GraphQLContext) {
  const event = reviewEventOf(input.event)!;
  const { pr, reviewId } = await pendingReviewOf(g, input);
  const submitted = await asMutation(g, 'SubmitPullRequestReview', () => reviews.submitReview(g.ctx, g.actor, pr.repo.owner.login, pr.repo.name, pr.pull.number, reviewId, {
    event, ...(input.body != null ? { body: input.body } : {}),
  }));
  const { reviewEdge: _edge, ...payload } = await reviewPayload(g, submitted, input.clientMutationId);
  return payload;
}

export const pullMutations: Record<string, FieldResolver> = {
  createPullRequest,
  updatePullRequest,
  mergePullRequest,
  closePullRequest: setState('ClosePullRequest', 'closed'),
  reopenPullRequest: setState('ReopenPullRequest', 'open'),
  requestReviews,
  addPullRequestReview,
  submitPullRequestReview,
  markPullRequestReadyForReview: setDraft('MarkPullRequestReadyForReview', false),
  convertPullRequestToDraft: setDraft('ConvertPullRequestToDraft', true),
};
