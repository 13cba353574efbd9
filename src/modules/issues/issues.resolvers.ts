// GraphQL resolvers of the issues area (types, lists, search, global ids), on the
// issues services and their bulk present. Every Issue, IssueComment, Label and Milestone
// node is made for a repository the caller may read: lists start from a located
// repository, global ids go through repositoryById (null for what the caller may not
// see). The mutations are in issues.mutations.ts.
import { arrayConnection, offsetConnection, type Connection, type ConnectionArgs } from '../../graphql/connection.ts';
import { isIsoTimestamp, storedTimestamp } from '../../domain/clock.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule, SearchHandler } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { parseQuery, sortQualifier } from '../search/search-query.ts';
import * as search from '../search/search.service.ts';
import { reactionGroupsFor, reactionsConnectionFor, type ReactionsArgs } from '../reactions/reactions.graphql-helpers.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import { accountNode, type AccountNode } from '../users/users.resolvers.ts';
import { listAssignees } from './assignees.service.ts';
import {
  authorAssociationOf, authorOf, bodyHtmlOf, bodyTextOf, commentCannotUpdateReasons, escapeHtml, issueBackedFields, issueCommentNode,
  issueNode, issueOrPullRequestNode, issueRecordById, labelNode, milestoneCounts, milestoneNode, milestoneRecordById,
  primeIssues, sortLabels, viewerCanReactOn, viewerRole,
  type IssueCommentNode, type IssueNode, type LabelNode, type LabelsArgs, type MilestoneNode,
} from './issues.graphql-helpers.ts';
import { issuesTypeDefs } from './issues.graphql.ts';
import { canEditMilestones } from './milestones.service.ts';
import { canMinimizeComment } from './comments.service.ts';
import type { IssueRecord, IssueState } from './issues.model.ts';
import { issueMutations, ISSUE_MUTATION_SCOPES, registerIssueReactables } from './issues.mutations.ts';
import * as lists from './issue-lists.service.ts';
import * as present from './issues.present.ts';

// ---------------------------------------------------------------- visibility

/** The repository of a record as the caller may see it (null: not visible). */
async function visibleRepo(g: GraphQLContext, repositoryId: number): Promise<Repo | null> {
  return (await load(g, repositoryById, repositoryId))?.repo ?? null;
}

/** An issue row the caller may see: its repository readable, and issues enabled there unless it is a pull request's. */
export async function visibleIssue(g: GraphQLContext, issueId: number): Promise<{ issue: IssueRecord; repo: Repo } | null> {
  const issue = await load(g, issueRecordById, issueId);
  const repo = issue ? await visibleRepo(g, issue.repositoryId) : null;
  if (!issue || !repo || (!issue.isPullRequest && !repo.hasIssues)) return null;
  return { issue, repo };
}

const commentById = defineMapLoader('issueCommentById', async (g, ids: readonly number[]) =>
  new Map((await present.commentsByIds(g.ctx, ids)).map((c) => [c.id, c])));

const labelById = defineMapLoader('labelById', async (g, ids: readonly number[]) =>
  new Map((await present.labelsByIds(g.ctx, ids)).map((l) => [l.id, l])));

export async function visibleComment(g: GraphQLContext, commentId: number): Promise<IssueCommentNode | null> {
  const comment = await load(g, commentById, commentId);
  const found = comment ? await visibleIssue(g, comment.issueId) : null;
  return comment && found ? issueCommentNode(comment, found.repo) : null;
}

export async function visibleLabel(g: GraphQLContext, labelId: number): Promise<LabelNode | null> {
  const label = await load(g, labelById, labelId);
  const repo = label ? await visibleRepo(g, label.repositoryId) : null;
  return label && repo ? labelNode(label, repo) : null;
}

export async function visibleMilestone(g: GraphQLContext, milestoneId: number): Promise<MilestoneNode | null> {
  const m = await load(g, milestoneRecordById, milestoneId);
  const repo = m ? await visibleRepo(g, m.repositoryId) : null;
  return m && repo ? milestoneNode(m, repo) : null;
}

// ---------------------------------------------------------------- issue lists

interface IssueFiltersInput {
  assignee?: string | null;
  createdBy?: string | null;
  labels?: string[] | null;
  mentioned?: string | null;
  milestone?: string | null;
  milestoneNumber?: string | null;
  since?: string | null;
  states?: IssueStateEnum[] | null;
  viewerSubscribed?: boolean | null;
}

type IssueStateEnum = 'OPEN' | 'CLOSED';

export interface IssuesArgs extends ConnectionArgs {
  orderBy?: { field: 'CREATED_AT' | 'UPDATED_AT' | 'COMMENTS'; direction: 'ASC' | 'DESC' } | null;
  labels?: string[] | null;
  states?: IssueStateEnum[] | null;
  filterBy?: IssueFiltersInput | null;
}

const SORT = { CREATED_AT: 'created', UPDATED_AT: 'updated', COMMENTS: 'comments' } as const;

function invalidArgument(message: string): GraphQLApiError {
  return new GraphQLApiError('UNPROCESSABLE', message);
}

/** A milestone filter value: '*', null (none), or digits. */
function milestoneArg(value: string | null | undefined, what: string): number | '*' | null | undefined {
  if (value === undefined || value === null || value === '*') return value;
  if (!/^\d+$/.test(value)) throw invalidArgument(`${what} must be a number, '*' or null.`);
  return Number(value);
}

/** GraphQL's issue arguments as the reads' query (logins and milestones are resolved there). */
export function issueQueryOf(g: GraphQLContext, args: IssuesArgs, extra: Partial<lists.IssueQuery> = {}): lists.IssueQuery {
  const f = args.filterBy ?? {};
  const states = new Set<IssueState>();
  const top = args.states?.length ? args.states : null;
  const inner = f.states?.length ? f.states : null;
  for (const s of ['OPEN', 'CLOSED'] as const) {
    if ((!top || top.includes(s)) && (!inner || inner.includes(s))) states.add(s === 'OPEN' ? 'open' : 'closed');
  }
  if (f.since && !isIsoTimestamp(f.since)) throw invalidArgument(`since must be an ISO 8601 timestamp.`);
  const since = storedTimestamp(f.since ?? undefined);
  const o = args.orderBy ?? { field: 'CREATED_AT', direction: 'ASC' };
  const q: lists.IssueQuery = {
    // Both states asked for, or neither, is every issue; none left after both filters is none.
    states: states.size === 0 ? ['open', 'closed'] : [...states],
    sort: SORT[o.field], direction: o.direction === 'DESC' ? 'desc' : 'asc',
    ...(args.labels ? { anyLabels: args.labels } : {}),
    ...(f.labels?.length ? { allLabels: f.labels } : {}),
    ...('assignee' in f ? { assignee: f.assignee ?? null } : {}),
    ...(f.createdBy ? { createdBy: f.createdBy } : {}),
    ...(f.mentioned ? { mentioned: f.mentioned } : {}),
    ...('milestone' in f ? { milestoneId: milestoneArg(f.milestone, 'milestone') } : {}),
    ...('milestoneNumber' in f ? { milestoneNumber: milestoneArg(f.milestoneNumber, 'milestoneNumber') } : {}),
    ...(since ? { since } : {}),
    ...(f.viewerSubscribed ? { participantId: g.user.id } : {}),
    ...extra,
  };
  if (states.size === 0 && top && inner) return { ...q, states: [], anyLabels: [] };
  return q;
}

/** The issues of `repoList` matching the arguments, as a connection. */
export function issuesConnection(
  g: GraphQLContext, repoList: readonly Repo[], args: IssuesArgs, extra: Partial<lists.IssueQuery> = {},
): Promise<Connection<IssueNode>> {
  const q = issueQueryOf(g, args, { pullRequests: false, ...extra });
  const byId = new Map(repoList.filter((r) => r.hasIssues).map((r) => [r.id, r]));
  return offsetConnection(args, async (offset, limit) => {
    const page = await lists.listIssueRecords(g.ctx, [...byId.keys()], q, { offset, perPage: limit });
    primeIssues(g, page.items);
    return page;
  }, (i: IssueRecord) => ({ node: issueNode(i, byId.get(i.repositoryId)!) }));
}

// ---------------------------------------------------------------- types

const STATE_REASONS: Record<string, string> = {
  completed: 'COMPLETED', not_planned: 'NOT_PLANNED', reopened: 'REOPENED',
  // Upstream's schema has no DUPLICATE here: a duplicate is closed as not planned.
  duplicate: 'NOT_PLANNED',
};

const issuePath = (n: IssueNode) => `/${n.repo.owner.login}/${n.repo.name}/issues/${n.issue.number}`;

const issueFields = {
  ...issueBackedFields((n: IssueNode) => n),
  id: (n: IssueNode) => encodeNodeId('Issue', n.issue.id),
  databaseId: (n: IssueNode) => n.issue.id,
  number: (n: IssueNode) => n.issue.number,
  title: (n: IssueNode) => n.issue.title,
  titleHTML: (n: IssueNode) => escapeHtml(n.issue.title),
  state: (n: IssueNode) => n.issue.state.toUpperCase(),
  stateReason: (n: IssueNode) => (n.issue.stateReason ? STATE_REASONS[n.issue.stateReason] ?? null : null),
  resourcePath: issuePath,
  url: (n: IssueNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(issuePath(n)),
  bodyResourcePath: issuePath,
  bodyUrl: (n: IssueNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(issuePath(n)),
  // Wharf deletes no issue.
  viewerCanDelete: () => false,
};

async function commentIssue(g: GraphQLContext, c: IssueCommentNode): Promise<IssueRecord> {
  const issue = await load(g, issueRecordById, c.comment.issueId);
  if (!issue) throw notFound('Could not resolve to an Issue.');
  return issue;
}

async function commentPath(g: GraphQLContext, c: IssueCommentNode): Promise<string> {
  const issue = await commentIssue(g, c);
  return `/${c.repo.owner.login}/${c.repo.name}/${issue.isPullRequest ? 'pull' : 'issues'}/${issue.number}#issuecomment-${c.comment.id}`;
}

/** Editing or deleting a comment: the comments service's rule. */
const commentCannotUpdate = (c: IssueCommentNode, g: GraphQLContext) => commentCannotUpdateReasons(g, c.repo, c.comment);

const issueCommentFields = {
  id: (c: IssueCommentNode) => encodeNodeId('IssueComment', c.comment.id),
  databaseId: (c: IssueCommentNode) => c.comment.id,
  author: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => authorOf(g, c.comment.userId),
  authorAssociation: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => authorAssociationOf(g, c.repo, c.comment.userId),
  body: (c: IssueCommentNode) => c.comment.body,
  bodyHTML: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => bodyHtmlOf(g.ctx, c.repo, c.comment.body),
  bodyText: (c: IssueCommentNode) => bodyTextOf(c.comment.body),
  createdAt: (c: IssueCommentNode) => c.comment.createdAt,
  updatedAt: (c: IssueCommentNode) => c.comment.updatedAt,
  publishedAt: (c: IssueCommentNode) => c.comment.createdAt,
  createdViaEmail: () => false,
  editor: () => null,
  includesCreatedEdit: () => false,
  lastEditedAt: () => null,
  viewerDidAuthor: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => c.comment.userId === g.user.id,
  issue: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => issueNode(await commentIssue(g, c), c.repo),
  repository: (c: IssueCommentNode) => repositoryNode(c.repo),
  resourcePath: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => commentPath(g, c),
  url: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(await commentPath(g, c)),
  reactionGroups: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, c, 'issue_comment', c.comment.id),
  reactions: (c: IssueCommentNode, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, c, 'issue_comment', c.comment.id, args),
  viewerCanReact: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => viewerCanReactOn(g, c.repo, (await commentIssue(g, c)).locked),
  viewerCanUpdate: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => (await commentCannotUpdate(c, g)).length === 0,
  viewerCanDelete: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => (await commentCannotUpdate(c, g)).length === 0,
  viewerCannotUpdateReasons: (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => commentCannotUpdate(c, g),
  isMinimized: (c: IssueCommentNode) => c.comment.minimizedReason !== null,
  minimizedReason: (c: IssueCommentNode) => c.comment.minimizedReason,
  viewerCanMinimize: async (c: IssueCommentNode, _a: unknown, g: GraphQLContext) => canMinimizeComment(await load(g, viewerRole, c.repo)),
};

const labelPath = (l: LabelNode) => `/${l.repo.owner.login}/${l.repo.name}/labels/${encodeURIComponent(l.label.name)}`;

const labelFields = {
  id: (l: LabelNode) => encodeNodeId('Label', l.label.id),
  name: (l: LabelNode) => l.label.name,
  color: (l: LabelNode) => l.label.color,
  description: (l: LabelNode) => l.label.description,
  isDefault: (l: LabelNode) => l.label.isDefault,
  createdAt: (l: LabelNode) => l.label.createdAt,
  updatedAt: (l: LabelNode) => l.label.updatedAt,
  repository: (l: LabelNode) => repositoryNode(l.repo),
  resourcePath: labelPath,
  url: (l: LabelNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(labelPath(l)),
  issues: (l: LabelNode, args: IssuesArgs, g: GraphQLContext) => {
    const q = issueQueryOf(g, args);
    const anyLabels = q.anyLabels ? q.anyLabels.filter((n) => n.toLowerCase() === l.label.name.toLowerCase()) : [l.label.name];
    return issuesConnection(g, [l.repo], args, { anyLabels });
  },
};

const milestonePath = (m: MilestoneNode) => `/${m.repo.owner.login}/${m.repo.name}/milestone/${m.milestone.number}`;

/** Opening and closing milestones: the milestones service's rule. */
async function viewerMayEditMilestone(m: MilestoneNode, g: GraphQLContext): Promise<boolean> {
  return !m.repo.archived && canEditMilestones(await load(g, viewerRole, m.repo));
}

const milestoneFields = {
  id: (m: MilestoneNode) => encodeNodeId('Milestone', m.milestone.id),
  number: (m: MilestoneNode) => m.milestone.number,
  title: (m: MilestoneNode) => m.milestone.title,
  description: (m: MilestoneNode) => m.milestone.description,
  state: (m: MilestoneNode) => m.milestone.state.toUpperCase(),
  closed: (m: MilestoneNode) => m.milestone.state === 'closed',
  closedAt: (m: MilestoneNode) => m.milestone.closedAt,
  dueOn: (m: MilestoneNode) => m.milestone.dueOn,
  createdAt: (m: MilestoneNode) => m.milestone.createdAt,
  updatedAt: (m: MilestoneNode) => m.milestone.updatedAt,
  creator: (m: MilestoneNode, _a: unknown, g: GraphQLContext) => (m.milestone.creatorId === null ? null : authorOf(g, m.milestone.creatorId)),
  progressPercentage: async (m: MilestoneNode, _a: unknown, g: GraphQLContext) => {
    const c = await load(g, milestoneCounts, m.milestone.id);
    return c.open + c.closed === 0 ? 0 : (100 * c.closed) / (c.open + c.closed);
  },
  repository: (m: MilestoneNode) => repositoryNode(m.repo),
  resourcePath: milestonePath,
  url: (m: MilestoneNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(milestonePath(m)),
  viewerCanClose: async (m: MilestoneNode, _a: unknown, g: GraphQLContext) => m.milestone.state === 'open' && viewerMayEditMilestone(m, g),
  viewerCanReopen: async (m: MilestoneNode, _a: unknown, g: GraphQLContext) => m.milestone.state === 'closed' && viewerMayEditMilestone(m, g),
  issues: (m: MilestoneNode, args: IssuesArgs, g: GraphQLContext) => issuesConnection(g, [m.repo], args, { milestoneId: m.milestone.id, milestoneNumber: undefined }),
};

// ---------------------------------------------------------------- Repository and User fields

interface MilestonesArgs extends ConnectionArgs {
  states?: ('OPEN' | 'CLOSED')[] | null;
  orderBy?: { field: 'DUE_DATE' | 'CREATED_AT' | 'UPDATED_AT' | 'NUMBER'; direction: 'ASC' | 'DESC' } | null;
  query?: string | null;
}

function contains(haystack: string | null, needle: string): boolean {
  return (haystack ?? '').toLowerCase().includes(needle.toLowerCase());
}

function repositoryIssueByNumber(g: GraphQLContext, repo: Repo, number: number): Promise<IssueRecord | null> {
  return present.issueByNumber(g.ctx, repo.id, number);
}

const repositoryFields = {
  issues: (r: RepositoryNode, args: IssuesArgs, g: GraphQLContext) => issuesConnection(g, [r.repo], args),
  issue: async (r: RepositoryNode, args: { number: number }, g: GraphQLContext) => {
    const issue = r.repo.hasIssues ? await repositoryIssueByNumber(g, r.repo, args.number) : null;
    if (!issue || issue.isPullRequest) throw notFound(`Could not resolve to an Issue with the number of ${args.number}.`);
    return issueNode(issue, r.repo);
  },
  issueOrPullRequest: async (r: RepositoryNode, args: { number: number }, g: GraphQLContext) => {
    const issue = await repositoryIssueByNumber(g, r.repo, args.number);
    if (!issue || (!issue.isPullRequest && !r.repo.hasIssues)) {
      throw notFound(`Could not resolve to an issue or pull request with the number of ${args.number}.`);
    }
    return issueOrPullRequestNode(g, issue, r.repo, 'IssueOrPullRequest');
  },
  labels: async (r: RepositoryNode, args: LabelsArgs & { query?: string | null }, g: GraphQLContext) => {
    let all = await present.labelsOfRepository(g.ctx, r.repo.id);
    if (args.query) all = all.filter((l) => contains(l.name, args.query!) || contains(l.description, args.query!));
    return arrayConnection(sortLabels(all, args.orderBy), args, (l) => ({ node: labelNode(l, r.repo) }));
  },
  label: async (r: RepositoryNode, args: { name: string }, g: GraphQLContext) => {
    const label = await present.labelOfRepository(g.ctx, r.repo.id, args.name);
    return label ? labelNode(label, r.repo) : null;
  },
  milestones: async (r: RepositoryNode, args: MilestonesArgs, g: GraphQLContext) => {
    let all = await present.milestonesOfRepository(g.ctx, r.repo.id);
    if (args.states?.length) all = all.filter((m) => args.states!.includes(m.state.toUpperCase() as 'OPEN' | 'CLOSED'));
    if (args.query) all = all.filter((m) => contains(m.title, args.query!) || contains(m.description, args.query!));
    const o = args.orderBy ?? { field: 'NUMBER', direction: 'ASC' };
    const key = (m: (typeof all)[number]): string | number => {
      switch (o.field) {
        case 'DUE_DATE': return m.dueOn ?? '9999';
        case 'CREATED_AT': return m.createdAt;
        case 'UPDATED_AT': return m.updatedAt;
        default: return m.number;
      }
    };
    const sign = o.direction === 'DESC' ? -1 : 1;
    all = [...all].sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return sign * (ka < kb ? -1 : ka > kb ? 1 : a.number - b.number);
    });
    return arrayConnection(all, args, (m) => ({ node: milestoneNode(m, r.repo) }));
  },
  milestone: async (r: RepositoryNode, args: { number: number }, g: GraphQLContext) => {
    const m = await present.milestoneOfRepository(g.ctx, r.repo.id, args.number);
    return m ? milestoneNode(m, r.repo) : null;
  },
  assignableUsers: async (r: RepositoryNode, args: ConnectionArgs & { query?: string | null }, g: GraphQLContext) => {
    const all = await listAssignees(g.ctx, g.actor, r.repo.owner.login, r.repo.name, { offset: 0, perPage: 1_000_000 });
    const q = args.query;
    const shown = q ? all.items.filter((a) => contains(a.login, q) || contains(a.name, q)) : all.items;
    return arrayConnection(shown.map(accountNode), args);
  },
};

const userFields = {
  issues: async (u: AccountNode, args: IssuesArgs, g: GraphQLContext) => {
    const candidates = await lists.readableRepositories(g.ctx, g.actor, await lists.repositoriesWithIssuesBy(g.ctx, u.account.id));
    return issuesConnection(g, candidates, args, { createdBy: u.account.login });
  },
};

// ---------------------------------------------------------------- search

/**
 * search(type: ISSUE): issues and pull requests, through the search service (the same
 * qualifiers and visibility as REST's GET /search/issues); sort: in the query as upstream.
 */
const searchIssues: SearchHandler = async (g, query, page) => {
  const q = parseQuery(query);
  const { sort, order } = sortQualifier(q, search.ISSUE_SORTS);
  const hits = await search.searchIssues(g.ctx, g.actor, q, sort, order, { offset: page.offset, perPage: page.limit });
  primeIssues(g, hits.items);
  const items: Typed[] = await Promise.all(hits.items.map((i) => issueOrPullRequestNode(g, i, hits.repos.get(i.repositoryId)!, 'SearchResultItem')));
  return { items, total: hits.total };
};

// ---------------------------------------------------------------- the module

export const issuesGraphQL: GraphQLModule = {
  name: 'issues',
  register: () => registerIssueReactables({ visibleIssue, visibleComment }),
  typeDefs: issuesTypeDefs,
  resolvers: {
    Issue: issueFields,
    IssueComment: issueCommentFields,
    Label: labelFields,
    Milestone: milestoneFields,
    Repository: repositoryFields,
    User: userFields,
    Mutation: issueMutations({ visibleIssue, visibleComment, visibleLabel, visibleMilestone }),
  },
  nodes: {
    Issue: async (g, id) => {
      const n = numericId(id);
      const found = n === null ? null : await visibleIssue(g, n);
      return found ? issueNode(found.issue, found.repo) : null;
    },
    IssueComment: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleComment(g, n);
    },
    Label: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleLabel(g, n);
    },
    Milestone: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleMilestone(g, n);
    },
  },
  scopes: ISSUE_MUTATION_SCOPES,
  search: { ISSUE: searchIssues },
};
