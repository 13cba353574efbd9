// The issue mutations of GraphQL. Each calls the service function its REST twin calls
// (so permissions, timeline events, webhooks and notifications are the same) after
// turning global ids into what that function takes: owner, name and number, label
// names, logins, milestone numbers. Labelable, Assignable and Lockable ids may name a
// pull request: its issue row is what changes, as in REST.
import { encodeCursor } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { notFound } from '../../graphql/errors.ts';
import { load } from '../../graphql/loaders.ts';
import type { Resolvers } from '../../graphql/module.ts';
import { idOfType, numericId } from '../../graphql/node-id.ts';
import { registerReactableNode, registerReactionSubject } from '../reactions/reactions.graphql-helpers.ts';
import * as pulls from '../pulls/pulls.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import { changeIssueAssignees } from './assignees.service.ts';
import * as comments from './comments.service.ts';
import {
  issueCommentNode, issueNode, issueOrPullRequestNode, lockReasonOfEnum,
  type IssueCommentNode, type LabelNode, type MilestoneNode,
} from './issues.graphql-helpers.ts';
import type { IssueRecord } from './issues.model.ts';
import * as present from './issues.present.ts';
import * as issues from './issues.service.ts';
import * as labels from './labels.service.ts';
import { resolveProjectIds, setIssueProjects } from '../projects/issue-projects.service.ts';

interface Visible {
  visibleIssue(g: GraphQLContext, issueId: number): Promise<{ issue: IssueRecord; repo: Repo } | null>;
  visibleComment(g: GraphQLContext, commentId: number): Promise<IssueCommentNode | null>;
  visibleLabel(g: GraphQLContext, labelId: number): Promise<LabelNode | null>;
  visibleMilestone(g: GraphQLContext, milestoneId: number): Promise<MilestoneNode | null>;
}

const WRITE = ['public_repo', 'repo'];

/** Scopes of the issue mutations: those of their REST twins. */
export const ISSUE_MUTATION_SCOPES: Record<string, readonly string[]> = Object.fromEntries([
  'createIssue', 'updateIssue', 'closeIssue', 'reopenIssue', 'addComment', 'updateIssueComment', 'deleteIssueComment',
  'addLabelsToLabelable', 'removeLabelsFromLabelable', 'addAssigneesToAssignable', 'removeAssigneesFromAssignable',
  'lockLockable', 'unlockLockable', 'minimizeComment', 'unminimizeComment',
].map((m) => [`Mutation.${m}`, WRITE]));

function unresolvable(id: string) {
  return notFound(`Could not resolve to a node with the global id of '${id}'.`);
}

/** The issue comment a Minimizable id names, if the caller may see it. */
async function minimizable(v: Visible, g: GraphQLContext, globalId: string): Promise<IssueCommentNode> {
  const ref = idOfType(globalId, 'IssueComment');
  const c = ref ? await v.visibleComment(g, ref.id) : null;
  if (!c) throw unresolvable(globalId);
  return c;
}

interface Target {
  issue: IssueRecord;
  repo: Repo;
  /** The type the caller's id named: the payload answers with a node of that type. */
  type: 'Issue' | 'PullRequest';
}

/** An Issue (or, where allowed, PullRequest) global id → the issue row the caller may see. */
async function targetOf(v: Visible, g: GraphQLContext, globalId: string, types: readonly ('Issue' | 'PullRequest')[]): Promise<Target> {
  const ref = idOfType(globalId, ...types);
  const found = ref ? await targetByRef(v, g, ref.type as Target['type'], ref.id) : null;
  if (!found) throw unresolvable(globalId);
  return found;
}

async function targetByRef(v: Pick<Visible, 'visibleIssue'>, g: GraphQLContext, type: Target['type'], id: number): Promise<Target | null> {
  let issueId = id;
  if (type === 'PullRequest') {
    const [pull] = await pulls.findPullsByIds(g.ctx, [id]);
    if (!pull) return null;
    issueId = pull.issueId;
  }
  const found = await v.visibleIssue(g, issueId);
  return found ? { ...found, type } : null;
}

/** After a change: what this request loaded before is stale. */
function forgetLoaded(g: GraphQLContext): void {
  g.loaders.clear();
}

async function freshIssue(g: GraphQLContext, issueId: number): Promise<IssueRecord> {
  forgetLoaded(g);
  const [issue] = await present.issuesByIds(g.ctx, [issueId]);
  if (!issue) throw notFound('Could not resolve to an Issue.');
  return issue;
}

/** The payload's node for the changed row: of the type the caller named. */
async function nodeAfter(g: GraphQLContext, t: Target, within: string): Promise<Typed> {
  const issue = await freshIssue(g, t.issue.id);
  return t.type === 'PullRequest' ? issueOrPullRequestNode(g, issue, t.repo, within) : issueNode(issue, t.repo);
}

async function viewerNode(g: GraphQLContext) {
  const a = await load(g, accountById, g.user.id);
  return a ? accountNode(a) : null;
}

/** Label global ids → names of labels of `repo`. */
async function labelNames(v: Visible, g: GraphQLContext, repo: Repo, ids: readonly string[] | null | undefined): Promise<string[] | undefined> {
  if (ids === undefined || ids === null) return undefined;
  return Promise.all(ids.map(async (id) => {
    const ref = idOfType(id, 'Label');
    const label = ref ? await v.visibleLabel(g, ref.id) : null;
    if (!label || label.label.repositoryId !== repo.id) throw unresolvable(id);
    return label.label.name;
  }));
}

/** User global ids → logins. */
async function logins(g: GraphQLContext, ids: readonly string[] | null | undefined): Promise<string[] | undefined> {
  if (ids === undefined || ids === null) return undefined;
  return Promise.all(ids.map(async (id) => {
    const ref = idOfType(id, 'User');
    const account = ref ? await load(g, accountById, ref.id) : null;
    if (!account || account.type !== 'User') throw unresolvable(id);
    return account.login;
  }));
}

/** A milestone global id of `repo` → its number; null clears. */
async function milestoneNumber(v: Visible, g: GraphQLContext, repo: Repo, id: string | null | undefined): Promise<number | null | undefined> {
  if (id === undefined || id === null) return id;
  const ref = idOfType(id, 'Milestone');
  const m = ref ? await v.visibleMilestone(g, ref.id) : null;
  if (!m || m.milestone.repositoryId !== repo.id) throw unresolvable(id);
  return m.milestone.number;
}

const STATE_REASON: Record<string, string> = { COMPLETED: 'completed', NOT_PLANNED: 'not_planned' };

interface WithClient {
  clientMutationId?: string | null;
}

export function issueMutations(v: Visible): Resolvers[string] {
  return {
    createIssue: async (_: unknown, { input }: { input: WithClient & {
      repositoryId: string; title: string; body?: string | null; assigneeIds?: string[] | null; milestoneId?: string | null; labelIds?: string[] | null;
      projectIds?: string[] | null;
    } }, g: GraphQLContext) => {
      const ref = idOfType(input.repositoryId, 'Repository');
      const repo = (ref ? await load(g, repositoryById, ref.id) : null)?.repo;
      if (!repo) throw unresolvable(input.repositoryId);
      const projectIds = await resolveProjectIds(g.ctx, g.actor, input.projectIds, repo);
      const made = await issues.createIssue(g.ctx, g.actor, repo.owner.login, repo.name, {
        title: input.title,
        body: input.body ?? undefined,
        labels: await labelNames(v, g, repo, input.labelIds),
        assignees: await logins(g, input.assigneeIds),
        milestone: await milestoneNumber(v, g, repo, input.milestoneId),
      });
      await setIssueProjects(g.ctx, g.actor, made.issue, projectIds, false);
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, issue: issueNode(made.issue, repo) };
    },

    updateIssue: async (_: unknown, { input }: { input: WithClient & {
      id: string; title?: string | null; body?: string | null; assigneeIds?: string[] | null; milestoneId?: string | null;
      labelIds?: string[] | null; state?: 'OPEN' | 'CLOSED' | null; projectIds?: string[] | null;
    } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.id, ['Issue']);
      const projectIds = input.projectIds == null ? null : await resolveProjectIds(g.ctx, g.actor, input.projectIds, t.repo);
      const updated = await issues.updateIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, {
        ...(input.title != null ? { title: input.title } : {}),
        ...('body' in input ? { body: input.body } : {}),
        ...(input.labelIds != null ? { labels: await labelNames(v, g, t.repo, input.labelIds) } : {}),
        ...(input.assigneeIds != null ? { assignees: await logins(g, input.assigneeIds) } : {}),
        ...('milestoneId' in input ? { milestone: await milestoneNumber(v, g, t.repo, input.milestoneId) } : {}),
        ...(input.state ? { state: input.state.toLowerCase() } : {}),
      });
      if (projectIds) await setIssueProjects(g.ctx, g.actor, updated.issue, projectIds, true);
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), issue: issueNode(updated.issue, t.repo) };
    },

    closeIssue: async (_: unknown, { input }: { input: WithClient & { issueId: string; stateReason?: string | null } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.issueId, ['Issue']);
      const updated = await issues.updateIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, {
        state: 'closed', ...(input.stateReason ? { state_reason: STATE_REASON[input.stateReason] } : {}),
      });
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, issue: issueNode(updated.issue, t.repo) };
    },

    reopenIssue: async (_: unknown, { input }: { input: WithClient & { issueId: string } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.issueId, ['Issue']);
      const updated = await issues.updateIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, { state: 'open' });
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, issue: issueNode(updated.issue, t.repo) };
    },

    addComment: async (_: unknown, { input }: { input: WithClient & { subjectId: string; body: string } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.subjectId, ['Issue', 'PullRequest']);
      const { comment } = await comments.createComment(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, { body: input.body });
      const subject = await nodeAfter(g, t, 'Node');
      const issue = await freshIssue(g, t.issue.id);
      return {
        clientMutationId: input.clientMutationId ?? null,
        // The new comment is the last of the issue's list: its cursor is that position.
        commentEdge: { cursor: encodeCursor(Math.max(0, issue.comments - 1)), node: issueCommentNode(comment, t.repo) },
        subject,
      };
    },

    updateIssueComment: async (_: unknown, { input }: { input: WithClient & { id: string; body: string } }, g: GraphQLContext) => {
      const ref = idOfType(input.id, 'IssueComment');
      const c = ref ? await v.visibleComment(g, ref.id) : null;
      if (!c) throw unresolvable(input.id);
      const { comment } = await comments.updateComment(g.ctx, g.actor, c.repo.owner.login, c.repo.name, c.comment.id, { body: input.body });
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, issueComment: issueCommentNode(comment, c.repo) };
    },

    minimizeComment: async (_: unknown, { input }: { input: WithClient & { subjectId: string; classifier: comments.MinimizeClassifier } }, g: GraphQLContext) => {
      const c = await minimizable(v, g, input.subjectId);
      const { comment } = await comments.setCommentMinimized(g.ctx, g.actor, c.repo.owner.login, c.repo.name, c.comment.id, input.classifier);
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, minimizedComment: issueCommentNode(comment, c.repo) };
    },

    unminimizeComment: async (_: unknown, { input }: { input: WithClient & { subjectId: string } }, g: GraphQLContext) => {
      const c = await minimizable(v, g, input.subjectId);
      const { comment } = await comments.setCommentMinimized(g.ctx, g.actor, c.repo.owner.login, c.repo.name, c.comment.id, null);
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null, unminimizedComment: issueCommentNode(comment, c.repo) };
    },

    deleteIssueComment: async (_: unknown, { input }: { input: WithClient & { id: string } }, g: GraphQLContext) => {
      const ref = idOfType(input.id, 'IssueComment');
      const c = ref ? await v.visibleComment(g, ref.id) : null;
      if (!c) throw unresolvable(input.id);
      await comments.deleteComment(g.ctx, g.actor, c.repo.owner.login, c.repo.name, c.comment.id);
      forgetLoaded(g);
      return { clientMutationId: input.clientMutationId ?? null };
    },

    addLabelsToLabelable: async (_: unknown, { input }: { input: WithClient & { labelableId: string; labelIds: string[] } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.labelableId, ['Issue', 'PullRequest']);
      const names = (await labelNames(v, g, t.repo, input.labelIds))!;
      await labels.addToIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, names);
      return { clientMutationId: input.clientMutationId ?? null, labelable: await nodeAfter(g, t, 'Labelable') };
    },

    removeLabelsFromLabelable: async (_: unknown, { input }: { input: WithClient & { labelableId: string; labelIds: string[] } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.labelableId, ['Issue', 'PullRequest']);
      const removed = new Set((await labelNames(v, g, t.repo, input.labelIds))!.map((n) => n.toLowerCase()));
      const current = (await present.labelsOfIssues(g.ctx, [t.issue.id])).get(t.issue.id) ?? [];
      // One replacement of the set, in one transaction; labels not on the issue are ignored, as upstream.
      await labels.setForIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number,
        current.filter((l) => !removed.has(l.name.toLowerCase())).map((l) => l.name));
      return { clientMutationId: input.clientMutationId ?? null, labelable: await nodeAfter(g, t, 'Labelable') };
    },

    addAssigneesToAssignable: async (_: unknown, { input }: { input: WithClient & { assignableId: string; assigneeIds: string[] } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.assignableId, ['Issue', 'PullRequest']);
      await changeIssueAssignees(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, (await logins(g, input.assigneeIds))!, true);
      return { clientMutationId: input.clientMutationId ?? null, assignable: await nodeAfter(g, t, 'Assignable') };
    },

    removeAssigneesFromAssignable: async (_: unknown, { input }: { input: WithClient & { assignableId: string; assigneeIds: string[] } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.assignableId, ['Issue', 'PullRequest']);
      await changeIssueAssignees(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, (await logins(g, input.assigneeIds))!, false);
      return { clientMutationId: input.clientMutationId ?? null, assignable: await nodeAfter(g, t, 'Assignable') };
    },

    lockLockable: async (_: unknown, { input }: { input: WithClient & { lockableId: string; lockReason?: string | null } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.lockableId, ['Issue', 'PullRequest']);
      await issues.lockIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number, lockReasonOfEnum(input.lockReason) ?? undefined);
      return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), lockedRecord: await nodeAfter(g, t, 'Lockable') };
    },

    unlockLockable: async (_: unknown, { input }: { input: WithClient & { lockableId: string } }, g: GraphQLContext) => {
      const t = await targetOf(v, g, input.lockableId, ['Issue', 'PullRequest']);
      await issues.unlockIssue(g.ctx, g.actor, t.repo.owner.login, t.repo.name, t.issue.number);
      return { clientMutationId: input.clientMutationId ?? null, actor: await viewerNode(g), unlockedRecord: await nodeAfter(g, t, 'Lockable') };
    },
  };
}

/** Issues, pull requests (through their issue row) and issue comments as reaction subjects. */
export function registerIssueReactables(v: Pick<Visible, 'visibleIssue' | 'visibleComment'>): void {
  const issueSubject = async (g: GraphQLContext, id: string, type: Target['type']) => {
    const n = numericId(id);
    const t = n === null ? null : await targetByRef(v, g, type, n);
    return t ? {
      ref: { kind: 'issue' as const, owner: t.repo.owner.login, repo: t.repo.name, number: t.issue.number },
      type: 'issue' as const, id: t.issue.id,
      node: type === 'PullRequest' ? await issueOrPullRequestNode(g, t.issue, t.repo, 'Reactable') : issueNode(t.issue, t.repo),
    } : null;
  };
  registerReactableNode('Issue', (g, id) => issueSubject(g, id, 'Issue'));
  registerReactableNode('PullRequest', (g, id) => issueSubject(g, id, 'PullRequest'));
  registerReactableNode('IssueComment', async (g, id) => {
    const n = numericId(id);
    const c = n === null ? null : await v.visibleComment(g, n);
    return c ? {
      ref: { kind: 'issue_comment', owner: c.repo.owner.login, repo: c.repo.name, commentId: c.comment.id },
      type: 'issue_comment', id: c.comment.id, node: c,
    } : null;
  });
  registerReactionSubject('issue', async (g, subjectId) => {
    const found = await v.visibleIssue(g, subjectId);
    return found ? issueOrPullRequestNode(g, found.issue, found.repo, 'Reactable') : null;
  });
  registerReactionSubject('issue_comment', (g, subjectId) => v.visibleComment(g, subjectId));
}
