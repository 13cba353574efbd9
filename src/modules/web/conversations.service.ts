// Issues and pull requests for the pages: the API's lists, an issue with its comments,
// a pull request with its mergeability, commits and files, and the writes the forms make.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Page } from '../../domain/page.ts';
import type { FileChange } from '../../git/history.ts';
import type { CommitRecordData } from '../git-data/commits.service.ts';
import * as comments from '../issues/comments.service.ts';
import * as issueLists from '../issues/issue-lists.service.ts';
import type { CommentRecord, IssueRecord, LabelRecord } from '../issues/issues.model.ts';
import { labelsOfIssues, loadIssueDecorations } from '../issues/issues.present.ts';
import { listLabels, type LabelPageOf } from '../issues/labels.service.ts';
import * as issues from '../issues/issues.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import * as pullChanges from '../pulls/pulls.changes.ts';
import { pullFigures } from '../pulls/pulls.present.ts';
import * as pulls from '../pulls/pulls.service.ts';
import type { PullRequestRecord } from '../pulls/pulls.model.ts';
import type { Repo, Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { conversationReactions, reviewReactions, type ConversationReactions, type ReactionBar } from './reactions.service.ts';
import { submittedReviews, type ReviewEntry } from './reviews.service.ts';
import { lineCommentsOf, type LineComments } from './line-comments.service.ts';
import { PER_PAGE } from './web.service.ts';

export interface IssueFilter {
  state: 'open' | 'closed' | 'all';
  labels: string;
  /** A milestone number, `*` (any) or `none`, as the API's `milestone`; '' for no filter. */
  milestone: string;
  page: number;
}

export interface IssueListView {
  repo: Repo;
  filter: IssueFilter;
  page: Page<IssueRecord>;
  authors: Map<number, Account>;
  labels: Map<number, LabelRecord[]>;
}

/** The repository's issues (and pull requests, as the API lists them) through the API's own list and filters. */
export async function issueList(ctx: AppContext, actor: Actor, owner: string, name: string, filter: IssueFilter): Promise<IssueListView> {
  const { repo, page } = await issueLists.listRepoIssues(ctx, actor, owner, name,
    { state: filter.state, ...(filter.labels ? { labels: filter.labels } : {}), ...(filter.milestone ? { milestone: filter.milestone } : {}) },
    { perPage: PER_PAGE, offset: (filter.page - 1) * PER_PAGE });
  const [authors, labels] = await Promise.all([
    users.accountsByIds(ctx, page.items.map((i) => i.userId)),
    labelsOfIssues(ctx, page.items.map((i) => i.id)),
  ]);
  return { repo, filter, page, authors, labels };
}

export interface Rendered<T> {
  record: T;
  html: string;
}

export interface IssueView {
  repo: Repo;
  role: Role | null;
  issue: Rendered<IssueRecord>;
  labels: LabelRecord[];
  comments: Rendered<CommentRecord>[];
  people: Map<number, Account>;
  canComment: boolean;
  /** The reaction buttons are offered (signed in, the repository not archived); the reactions service decides the rest. */
  canReact: boolean;
  reactions: ConversationReactions;
  /** The milestone the issue is in (its number and title, as the API shows it), or null. */
  milestone: { number: number; title: string; state: string } | null;
}

/** Comments shown on one issue page; the API pages the rest. */
const MAX_COMMENTS = 100;

export async function issuePage(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<IssueView> {
  const { repo, role, issue } = await issues.locateIssue(ctx, actor, owner, name, number);
  const list = await comments.listForIssue(ctx, actor, owner, name, number, {}, { perPage: MAX_COMMENTS, offset: 0 });
  const context = `${repo.owner.login}/${repo.name}`;
  const render = (body: string | null) => (body ? renderHtml(ctx, body, { mode: 'gfm', context }) : Promise.resolve(''));
  const [people, labels, issueHtml, commentHtml, canComment, decorations, reactions] = await Promise.all([
    users.accountsByIds(ctx, [issue.userId, ...list.page.items.map((c) => c.userId)]),
    labelsOfIssues(ctx, [issue.id]),
    render(issue.body),
    Promise.all(list.page.items.map((c) => render(c.body))),
    actor.user ? issues.canComment(ctx, actor, repo, issue) : Promise.resolve(false),
    issue.milestoneId === null ? Promise.resolve(null) : loadIssueDecorations(ctx, [issue.id]),
    conversationReactions(ctx, actor, issue.id, list.page.items.map((c) => c.id)),
  ]);
  const milestone = decorations?.get(issue.id)?.milestone ?? null;
  return {
    repo, role, issue: { record: issue, html: issueHtml }, labels: labels.get(issue.id) ?? [],
    comments: list.page.items.map((c, i) => ({ record: c, html: commentHtml[i]! })), people, canComment,
    canReact: actor.user !== null && !repo.archived, reactions,
    milestone: milestone ? { number: milestone.number, title: milestone.title, state: milestone.state } : null,
  };
}

export function newIssueRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<repos.Located> {
  return repos.locate(ctx, actor, owner, name);
}

export async function openIssue(ctx: AppContext, actor: Actor, owner: string, name: string, title: string, body: string): Promise<number> {
  return (await issues.createIssue(ctx, actor, owner, name, { title, body })).issue.number;
}

export async function addComment(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, body: string): Promise<void> {
  await comments.createComment(ctx, actor, owner, name, number, { body });
}

// ---------------------------------------------------------------- pull requests

export interface PullListView {
  repo: Repo;
  state: 'open' | 'closed' | 'all';
  page: number;
  items: { pull: PullRequestRecord; issue: IssueRecord }[];
  total: number;
  authors: Map<number, Account>;
}

export async function pullList(ctx: AppContext, actor: Actor, owner: string, name: string, state: 'open' | 'closed' | 'all', page: number): Promise<PullListView> {
  const list = await pulls.listPulls(ctx, actor, owner, name, { state, offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const authors = await users.accountsByIds(ctx, list.items.map((p) => p.issue.userId));
  return { repo, state, page, items: list.items, total: list.total, authors };
}

export interface PullView extends IssueView {
  pull: PullRequestRecord;
  mergeable: boolean | null;
  /** clean, blocked, behind, dirty, draft, unstable or unknown, as the API's mergeable_state. */
  mergeableState: string;
  files: FileChange[];
  fileCount: number;
  commits: CommitRecordData[];
  mergedBy: Account | null;
  /** The submitted reviews, oldest first. */
  reviews: ReviewEntry[];
  /** Each submitted review's reactions, by review id. */
  reviewReactions: Map<number, ReactionBar>;
  /** The review comments on the diff's lines (the viewer's pending ones too). */
  lineComments: LineComments;
}

export async function pullPage(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<PullView> {
  const located = await pulls.getPull(ctx, actor, owner, name, number);
  const [conversation, figures, files, commitList, reviews, lineComments] = await Promise.all([
    issuePage(ctx, actor, owner, name, number),
    pullFigures(ctx, located.repo, located.pull, located.issue),
    pullChanges.listPullFiles(ctx, actor, owner, name, number, { offset: 0, limit: pullChanges.MAX_FILES }),
    pullChanges.listPullCommits(ctx, actor, owner, name, number, { offset: 0, limit: 250 }),
    submittedReviews(ctx, actor, owner, name, number)
      .then(async (list) => ({ list, bars: await reviewReactions(ctx, actor, list.map((r) => r.record.id)) })),
    lineCommentsOf(ctx, actor, owner, name, number),
  ]);
  const mergedById = figures.pull.mergedById;
  const mergedBy = mergedById === null ? null : (await users.accountsByIds(ctx, [mergedById])).get(mergedById) ?? null;
  return {
    ...conversation, pull: figures.pull, mergeable: figures.figures.mergeable, mergeableState: figures.figures.mergeableState,
    files: files.items, fileCount: files.total, commits: commitList.items, mergedBy, reviews: reviews.list, reviewReactions: reviews.bars, lineComments,
  };
}

/** The page of issue `number`: a pull request's when it is one. */
export async function pullOrIssuePage(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number,
): Promise<{ kind: 'pull'; view: PullView } | { kind: 'issue'; view: IssueView }> {
  const { issue } = await issues.locateIssue(ctx, actor, owner, name, number);
  return issue.isPullRequest
    ? { kind: 'pull', view: await pullPage(ctx, actor, owner, name, number) }
    : { kind: 'issue', view: await issuePage(ctx, actor, owner, name, number) };
}

export { mergePull } from '../pulls/pulls.merge.ts';
export { submitReview } from './reviews.service.ts';
export { toggleReaction, toggleReviewReaction } from './reactions.service.ts';


/** A repository's labels, a page at a time as the API lists them. */
export function labelList(ctx: AppContext, actor: Actor, owner: string, name: string, page: number): Promise<LabelPageOf> {
  return listLabels(ctx, actor, owner, name, { perPage: PER_PAGE * 4, offset: (page - 1) * PER_PAGE * 4 });
}
