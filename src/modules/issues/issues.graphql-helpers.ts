// What issues and pull requests share in GraphQL, for every area that shows an issue
// row: the node objects, the per-request loaders (labels, assignees, milestones,
// author associations, the viewer's role), the connections (labels, assignees,
// comments) and `issueBackedFields`, the resolvers of the interfaces both implement
// (Comment, Labelable, Assignable, Lockable, Closable, Reactable, Updatable,
// UpdatableComment). Names here are stable: the pulls area builds PullRequest on them.
//
//   PullRequest: { ...issueBackedFields((p: PullNode) => ({ issue: p.issue, repo: p.repo })), …its own fields }
//
// A pull request's labels, assignees, milestone, comments and reactions are those of
// its issue row (reaction subject type 'issue'), as in REST.
import type { AppContext } from '../../context.ts';
import { isAbstractType, isObjectType } from 'graphql';
import { arrayConnection, offsetConnection, type Connection, type ConnectionArgs, type Fetch } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { defineLoader, defineMapLoader, load, loaderOf, prime } from '../../graphql/loaders.ts';
import { renderHtml, renderText } from '../markdown/markdown.service.ts';
import * as pulls from '../pulls/pulls.service.ts';
import { countOnly, firstOf, reactionGroupsFor, reactionsConnectionFor, type ReactionsArgs } from '../reactions/reactions.graphql-helpers.ts';
import { accessToMany } from '../repos/repos.access.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import { repositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import type { CommentRecord, IssueRecord, LabelRecord, MilestoneCounts, MilestoneRecord } from './issues.model.ts';
import * as present from './issues.present.ts';
import { canEditComment } from './comments.service.ts';
import { authorAssociations, canCommentOnIssue, canUpdateIssue } from './issues.service.ts';

export {
  countOnly, firstOf, reactionGroupsFor, reactionsConnectionFor, registerReactableNode, registerReactionSubject, type ReactableSubject, type ReactionsArgs,
} from '../reactions/reactions.graphql-helpers.ts';

// ---------------------------------------------------------------- nodes

/** Only made for records of a repository the caller may read (the repository was located or loaded through repositoryById). */
export interface IssueNode {
  __typename: 'Issue';
  issue: IssueRecord;
  repo: Repo;
}

export interface IssueCommentNode {
  __typename: 'IssueComment';
  comment: CommentRecord;
  repo: Repo;
}

export interface LabelNode {
  __typename: 'Label';
  label: LabelRecord;
  repo: Repo;
}

export interface MilestoneNode {
  __typename: 'Milestone';
  milestone: MilestoneRecord;
  repo: Repo;
}

/** An issue row with its repository: what issueBackedFields present. */
export interface IssueBacked {
  issue: IssueRecord;
  repo: Repo;
}

export function issueNode(issue: IssueRecord, repo: Repo): IssueNode {
  return { __typename: 'Issue', issue, repo };
}

export function issueCommentNode(comment: CommentRecord, repo: Repo): IssueCommentNode {
  return { __typename: 'IssueComment', comment, repo };
}

export function labelNode(label: LabelRecord, repo: Repo): LabelNode {
  return { __typename: 'Label', label, repo };
}

export function milestoneNode(milestone: MilestoneRecord, repo: Repo): MilestoneNode {
  return { __typename: 'Milestone', milestone, repo };
}

// ---------------------------------------------------------------- loaders

/** Issue rows by id, without any check: callers check the repository (issueVisible). */
export const issueRecordById = defineMapLoader('issueRecordById', async (g, ids: readonly number[]) =>
  new Map((await present.issuesByIds(g.ctx, ids)).map((i) => [i.id, i])));

const labelsOfIssue = defineLoader('labelsOfIssue', async (g, ids: readonly number[]) => {
  const found = await present.labelsOfIssues(g.ctx, ids);
  return ids.map((id) => found.get(id) ?? []);
});

const assigneeIdsOfIssue = defineLoader('assigneeIdsOfIssue', async (g, ids: readonly number[]) => {
  const found = await present.assigneeIdsOfIssues(g.ctx, ids);
  return ids.map((id) => found.get(id) ?? []);
});

export const milestoneRecordById = defineMapLoader('milestoneRecordById', async (g, ids: readonly number[]) =>
  new Map((await present.milestonesByIds(g.ctx, ids)).map((m) => [m.id, m])));

export const milestoneCounts = defineLoader('milestoneCounts', async (g, ids: readonly number[]) => {
  const found = await present.milestoneCountsOf(g.ctx, ids);
  return ids.map((id): MilestoneCounts => found.get(id) ?? { open: 0, closed: 0 });
});

/** The caller's role on each repository (null: none), for the viewer* fields. */
export const viewerRole = defineLoader('issuesViewerRole', async (g, list: readonly Repo[]) => {
  const access = await accessToMany(g.ctx, g.actor, list);
  return list.map((r): Role | null => access.get(r.id)?.effective ?? null);
}, (r: Repo) => r.id);

const associations = defineLoader('authorAssociation', async (g, pairs: readonly { repo: Repo; userId: number }[]) => {
  const found = await authorAssociations(g.ctx, pairs);
  return pairs.map((p) => found.get(`${p.repo.id}:${p.userId}`) ?? 'NONE');
}, (p: { repo: Repo; userId: number }) => `${p.repo.id}:${p.userId}`);

export function authorAssociationOf(g: GraphQLContext, repo: Repo, userId: number): Promise<string> {
  return load(g, associations, { repo, userId });
}

export async function authorOf(g: GraphQLContext, userId: number): Promise<AccountNode | null> {
  const a = await load(g, accountById, userId);
  return a ? accountNode(a) : null;
}

// ---------------------------------------------------------------- small conversions

const LOCK_REASONS: Record<string, string> = { 'off-topic': 'OFF_TOPIC', 'too heated': 'TOO_HEATED', resolved: 'RESOLVED', spam: 'SPAM' };

export function lockReasonEnum(reason: string | null): string | null {
  return reason === null ? null : LOCK_REASONS[reason] ?? null;
}

export function lockReasonOfEnum(value: string | null | undefined): string | null {
  return value ? Object.entries(LOCK_REASONS).find(([, e]) => e === value)?.[0] ?? null : null;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A body as HTML (gfm, #N linked into the repository), as REST's body_html shows it. */
export async function bodyHtmlOf(ctx: AppContext, repo: Repo, body: string | null): Promise<string> {
  if (!body) return '';
  return renderHtml(ctx, body, { mode: 'gfm', context: `${repo.owner.login}/${repo.name}` });
}

export function bodyTextOf(body: string | null): string {
  return body ? renderText(body) : '';
}

// ---------------------------------------------------------------- connections

export interface LabelsArgs extends ConnectionArgs {
  orderBy?: { field: 'NAME' | 'CREATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

/** Labels in the order asked (upstream's default: creation, oldest first). */
export function sortLabels(labels: readonly LabelRecord[], orderBy: LabelsArgs['orderBy']): LabelRecord[] {
  const o = orderBy ?? { field: 'CREATED_AT', direction: 'ASC' };
  const sign = o.direction === 'DESC' ? -1 : 1;
  return [...labels].sort((a, b) => sign * (o.field === 'NAME'
    ? a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id
    : a.id - b.id));
}

/** Labelable.labels of an issue row (an issue's or a pull request's). */
export async function labelsConnectionFor(g: GraphQLContext, b: IssueBacked, args: LabelsArgs): Promise<Connection<LabelNode>> {
  const labels = sortLabels(await load(g, labelsOfIssue, b.issue.id), args.orderBy);
  return firstOf(labels, args, (l) => labelNode(l, b.repo)) ?? arrayConnection(labels, args, (l) => ({ node: labelNode(l, b.repo) }));
}

/** Assignable.assignees of an issue row, in the order they were assigned. */
export async function assigneesConnectionFor(g: GraphQLContext, b: IssueBacked, args: ConnectionArgs): Promise<Connection<AccountNode>> {
  const ids = await load(g, assigneeIdsOfIssue, b.issue.id);
  const accounts = (await loaderOf(g, accountById).loadMany(ids)).flatMap((a) => (a && !(a instanceof Error) ? [a] : []));
  return firstOf(accounts, args, accountNode) ?? arrayConnection(accounts.map(accountNode), args);
}

export interface CommentsArgs extends ConnectionArgs {
  orderBy?: { field: 'UPDATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

/** The issue comments of an issue row (Issue.comments, PullRequest.comments), oldest first unless ordered. */
export function issueCommentsConnectionFor(g: GraphQLContext, b: IssueBacked, args: CommentsArgs): Connection<IssueCommentNode> | Promise<Connection<IssueCommentNode>> {
  // The counter on the row answers "how many" without a query.
  const counted = countOnly<IssueCommentNode>(args, b.issue.comments);
  if (counted) return counted;
  const sort = args.orderBy ? 'updated' : 'created';
  const direction = args.orderBy?.direction === 'DESC' ? 'desc' : 'asc';
  const fetch: Fetch<CommentRecord> = async (offset, limit) => {
    // The counter on the row answers "how many" without a query.
    if (limit === 0) return { items: [], total: b.issue.comments };
    return present.commentsOfIssue(g.ctx, b.issue, { sort, direction }, { offset, perPage: limit });
  };
  return offsetConnection(args, fetch, (c) => ({ node: issueCommentNode(c, b.repo) }));
}

export async function milestoneFor(g: GraphQLContext, b: IssueBacked): Promise<MilestoneNode | null> {
  if (b.issue.milestoneId === null) return null;
  const m = await load(g, milestoneRecordById, b.issue.milestoneId);
  return m ? milestoneNode(m, b.repo) : null;
}

// ---------------------------------------------------------------- viewer rules (those of the services)

/** Editing what `authorId` wrote: the author, or `needed` access; never on an archived repository (review comments). */
export async function cannotUpdateReasons(g: GraphQLContext, repo: Repo, authorId: number, needed: Role = 'triage'): Promise<string[]> {
  if (repo.archived) return ['ARCHIVED'];
  if (authorId === g.user.id) return [];
  return roleAtLeast(await load(g, viewerRole, repo), needed) ? [] : ['INSUFFICIENT_ACCESS'];
}

/** Reacting and commenting: signed in, not archived, and the comments service's rule on locked issues. */
export async function viewerCanReactOn(g: GraphQLContext, repo: Repo, locked: boolean): Promise<boolean> {
  if (repo.archived) return false;
  return canCommentOnIssue(locked ? await load(g, viewerRole, repo) : null, { locked });
}

/** The viewer's role, looked up only when `authored` does not already decide (the author needs none). */
async function roleUnlessAuthor(g: GraphQLContext, repo: Repo, authorId: number): Promise<Role | null> {
  return authorId === g.user.id ? null : load(g, viewerRole, repo);
}

/** Why the viewer may not edit an issue's title, body or state: the issues service's canUpdateIssue. */
export async function issueCannotUpdateReasons(g: GraphQLContext, repo: Repo, issue: IssueRecord): Promise<string[]> {
  if (repo.archived) return ['ARCHIVED'];
  return canUpdateIssue(g.user.id, await roleUnlessAuthor(g, repo, issue.userId), issue) ? [] : ['INSUFFICIENT_ACCESS'];
}

/** Why the viewer may not edit or delete an issue comment: the comments service's canEditComment. */
export async function commentCannotUpdateReasons(g: GraphQLContext, repo: Repo, comment: CommentRecord): Promise<string[]> {
  if (repo.archived) return ['ARCHIVED'];
  return canEditComment(g.user.id, await roleUnlessAuthor(g, repo, comment.userId), comment) ? [] : ['INSUFFICIENT_ACCESS'];
}

// ---------------------------------------------------------------- the shared fields

/**
 * Resolvers of the interfaces an issue row backs (Comment, Labelable, Assignable,
 * Lockable, Closable, Reactable without id and databaseId, Updatable, UpdatableComment)
 * and of milestone and comments, for a type whose source `of` maps to its issue row.
 */
export function issueBackedFields<S extends Typed>(of: (s: S) => IssueBacked) {
  return {
    author: (s: S, _a: unknown, g: GraphQLContext) => authorOf(g, of(s).issue.userId),
    authorAssociation: (s: S, _a: unknown, g: GraphQLContext) => authorAssociationOf(g, of(s).repo, of(s).issue.userId),
    body: (s: S) => of(s).issue.body ?? '',
    bodyHTML: (s: S, _a: unknown, g: GraphQLContext) => bodyHtmlOf(g.ctx, of(s).repo, of(s).issue.body),
    bodyText: (s: S) => bodyTextOf(of(s).issue.body),
    createdAt: (s: S) => of(s).issue.createdAt,
    updatedAt: (s: S) => of(s).issue.updatedAt,
    publishedAt: (s: S) => of(s).issue.createdAt,
    // Wharf keeps no edit history and takes no content by e-mail.
    createdViaEmail: () => false,
    editor: () => null,
    includesCreatedEdit: () => false,
    lastEditedAt: () => null,
    viewerDidAuthor: (s: S, _a: unknown, g: GraphQLContext) => of(s).issue.userId === g.user.id,
    labels: (s: S, args: LabelsArgs, g: GraphQLContext) => labelsConnectionFor(g, of(s), args),
    assignees: (s: S, args: ConnectionArgs, g: GraphQLContext) => assigneesConnectionFor(g, of(s), args),
    milestone: (s: S, _a: unknown, g: GraphQLContext) => milestoneFor(g, of(s)),
    comments: (s: S, args: CommentsArgs, g: GraphQLContext) => issueCommentsConnectionFor(g, of(s), args),
    locked: (s: S) => of(s).issue.locked,
    activeLockReason: (s: S) => lockReasonEnum(of(s).issue.activeLockReason),
    closed: (s: S) => of(s).issue.state === 'closed',
    closedAt: (s: S) => of(s).issue.closedAt,
    viewerCanClose: async (s: S, _a: unknown, g: GraphQLContext) =>
      of(s).issue.state === 'open' && (await issueCannotUpdateReasons(g, of(s).repo, of(s).issue)).length === 0,
    viewerCanReopen: async (s: S, _a: unknown, g: GraphQLContext) =>
      of(s).issue.state === 'closed' && (await issueCannotUpdateReasons(g, of(s).repo, of(s).issue)).length === 0,
    reactionGroups: (s: S, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, s, 'issue', of(s).issue.id),
    reactions: (s: S, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, s, 'issue', of(s).issue.id, args),
    viewerCanReact: (s: S, _a: unknown, g: GraphQLContext) => viewerCanReactOn(g, of(s).repo, of(s).issue.locked),
    viewerCanUpdate: async (s: S, _a: unknown, g: GraphQLContext) => (await issueCannotUpdateReasons(g, of(s).repo, of(s).issue)).length === 0,
    viewerCannotUpdateReasons: (s: S, _a: unknown, g: GraphQLContext) => issueCannotUpdateReasons(g, of(s).repo, of(s).issue),
    repository: (s: S) => repositoryNode(of(s).repo),
  };
}

/** Seeds the issue loader with rows a list already returned. */
export function primeIssues(g: GraphQLContext, issues: readonly IssueRecord[]): void {
  for (const i of issues) prime(g, issueRecordById, i.id, i);
}

// ---------------------------------------------------------------- pull requests

/** Pull request ids of issue rows, batched. */
const pullIdOfIssue = defineMapLoader('pullIdOfIssue', async (g, issueIds: readonly number[]) =>
  new Map((await pulls.findPullsByIssueIds(g.ctx, issueIds)).map((p) => [p.issueId, p.id])));

/**
 * The node of an issue row where an Issue or a PullRequest may stand (IssueOrPullRequest,
 * SearchResultItem, Reactable, Labelable …): the pulls area's PullRequest node for a
 * pull request's row, when the schema has one that fits `within`; the Issue otherwise.
 */
export async function issueOrPullRequestNode(g: GraphQLContext, issue: IssueRecord, repo: Repo, within: string): Promise<Typed> {
  if (!issue.isPullRequest) return issueNode(issue, repo);
  // Imported when first needed: the schema is assembled from this module.
  const { wharfSchema } = await import('../../graphql/schema.ts');
  const api = wharfSchema();
  const prType = api.schema.getType('PullRequest');
  const container = api.schema.getType(within);
  const resolve = api.nodes.get('PullRequest');
  if (!prType || !resolve || !container || !isAbstractType(container) || !isObjectType(prType) || !api.schema.isSubType(container, prType)) {
    return issueNode(issue, repo);
  }
  const pullId = await load(g, pullIdOfIssue, issue.id);
  const node = pullId === null ? null : await resolve(g, String(pullId));
  return node ?? issueNode(issue, repo);
}
