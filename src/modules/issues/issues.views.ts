// Issues, labels, milestones, comments and issue events → API representation. Pure:
// the service loads users, labels, milestones, counts, reactions and rendered bodies
// first; every URL comes from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { AppRecordView } from '../apps/apps.present.ts';
import { reactionRollup, type ReactionCounts } from '../reactions/reactions.rollup.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import type { TeamRecord } from '../orgs/orgs.views.ts';
import type {
  AuthorAssociation, CommentRecord, IssueEventRecord, IssueRecord, LabelRecord, MilestoneCounts, MilestoneRecord,
} from './issues.model.ts';

/** The repository an issue lives in, as URLs need it. */
export interface RepoRef {
  owner: string;
  name: string;
}

import type { BodyFormat } from '../../http/media-type.ts';
import type { Static } from '@sinclair/typebox';
import type { Issue, IssueComment, IssueEvent, Label, Milestone } from './issues.schemas.ts';

export type LabelView = Static<typeof Label>;
export type MilestoneView = Static<typeof Milestone>;
export type IssueView = Static<typeof Issue>;
export type CommentView = Static<typeof IssueComment>;
export type EventView = Static<typeof IssueEvent>;
export { bodyFormatOf, type BodyFormat } from '../../http/media-type.ts';

export interface ViewOptions {
  urls: Urls;
  bodyFormat: BodyFormat;
  /** Preview media types asked for: sailor-v shows active_lock_reason. */
  previews: ReadonlySet<string>;
  /**
   * Views already made for this page, by id: a page of issues shows the same users,
   * labels and milestones many times over, and each is built once.
   */
  memo?: ViewMemo;
}

export interface ViewMemo {
  users: Map<number, SimpleUser>;
  labels: Map<number, LabelView>;
  milestones: Map<number, MilestoneView>;
}

export function newViewMemo(): ViewMemo {
  return { users: new Map(), labels: new Map(), milestones: new Map() };
}

function memoized<K, V>(map: Map<K, V> | undefined, key: K, make: () => V): V {
  if (!map) return make();
  let v = map.get(key);
  if (v === undefined) map.set(key, v = make());
  return v;
}

/** body_html and body_text, rendered by the service when the format asks for them. */
export interface RenderedBody {
  html: string | null;
  text: string | null;
}

function repoApi(urls: Urls, r: RepoRef): string {
  return urls.api('repos', r.owner, r.name);
}

function bodyFields(body: string | null, rendered: RenderedBody | undefined, format: BodyFormat) {
  switch (format) {
    case 'raw': return { body };
    case 'text': return { body_text: rendered?.text ?? null };
    case 'html': return { body_html: rendered?.html ?? null };
    case 'full': return { body, body_text: rendered?.text ?? null, body_html: rendered?.html ?? null };
  }
}

// ---------------------------------------------------------------- labels


export function labelView(l: LabelRecord, repo: RepoRef, urls: Urls): LabelView {
  return {
    id: l.id,
    node_id: encodeNodeId('Label', l.id),
    url: urls.api('repos', repo.owner, repo.name, 'labels', l.name),
    name: l.name,
    description: l.description,
    color: l.color,
    default: l.isDefault,
  };
}

// ---------------------------------------------------------------- milestones

export interface MilestoneDetail {
  milestone: MilestoneRecord;
  repo: RepoRef;
  creator: Account | null;
  counts: MilestoneCounts;
}


export function milestoneView(d: MilestoneDetail, urls: Urls): MilestoneView {
  const m = d.milestone;
  const url = urls.api('repos', d.repo.owner, d.repo.name, 'milestones', m.number);
  return {
    url,
    html_url: urls.html(d.repo.owner, d.repo.name, 'milestone', m.number),
    labels_url: `${url}/labels`,
    id: m.id,
    node_id: encodeNodeId('Milestone', m.id),
    number: m.number,
    state: m.state,
    title: m.title,
    description: m.description,
    creator: d.creator ? simpleUser(d.creator, urls) : null,
    open_issues: d.counts.open,
    closed_issues: d.counts.closed,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    closed_at: m.closedAt,
    due_on: m.dueOn,
  };
}

// ---------------------------------------------------------------- issues

/** What the pulls module supplies for a pull request's issue record. */
export interface PullRequestSummary {
  mergedAt: string | null;
  draft: boolean;
}

export interface IssueDetail {
  issue: IssueRecord;
  repo: RepoRef;
  user: Account;
  labels: LabelRecord[];
  assignees: Account[];
  milestone: MilestoneDetail | null;
  closedBy: Account | null;
  reactions: ReactionCounts | undefined;
  authorAssociation: AuthorAssociation;
  rendered?: RenderedBody;
  /** Only for pull requests. */
  pull?: PullRequestSummary;
  /** The repository's representation, on lists across repositories (GET /issues). */
  repository?: unknown;
  /** The app whose token created the issue (performed_via_github_app). */
  performedViaApp: AppRecordView | null;
}


export function issueUrl(urls: Urls, repo: RepoRef, number: number): string {
  return urls.api('repos', repo.owner, repo.name, 'issues', number);
}

export function issueView(d: IssueDetail, o: ViewOptions): IssueView {
  const { urls } = o;
  const i = d.issue;
  const api = repoApi(urls, d.repo);
  const url = `${api}/issues/${i.number}`;
  const memo = o.memo;
  const user = (a: Account) => memoized(memo?.users, a.id, () => simpleUser(a, urls));
  const assignees = d.assignees.map(user);
  const view: IssueView = {
    id: i.id,
    node_id: encodeNodeId('Issue', i.id),
    url,
    repository_url: api,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: urls.html(d.repo.owner, d.repo.name, i.isPullRequest ? 'pull' : 'issues', i.number),
    number: i.number,
    state: i.state,
    title: i.title,
    ...bodyFields(i.body, d.rendered, o.bodyFormat),
    user: user(d.user),
    labels: d.labels.map((l) => memoized(memo?.labels, l.id, () => labelView(l, d.repo, urls))),
    assignee: assignees[0] ?? null,
    assignees,
    milestone: d.milestone ? memoized(memo?.milestones, d.milestone.milestone.id, () => milestoneView(d.milestone!, urls)) : null,
    locked: i.locked,
    // The lock reason is a preview feature (sailor-v), as upstream.
    ...(o.previews.has('sailor-v') ? { active_lock_reason: i.activeLockReason } : {}),
    comments: i.comments,
    ...(i.isPullRequest ? {
      pull_request: {
        url: `${api}/pulls/${i.number}`,
        html_url: urls.html(d.repo.owner, d.repo.name, 'pull', i.number),
        diff_url: `${urls.html(d.repo.owner, d.repo.name, 'pull', i.number)}.diff`,
        patch_url: `${urls.html(d.repo.owner, d.repo.name, 'pull', i.number)}.patch`,
        merged_at: d.pull?.mergedAt ?? null,
      },
    } : {}),
    closed_at: i.closedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_by: d.closedBy ? user(d.closedBy) : null,
    author_association: d.authorAssociation,
    state_reason: i.stateReason,
    reactions: reactionRollup(d.reactions, `${url}/reactions`),
    timeline_url: `${url}/timeline`,
    ...(d.repository !== undefined ? { repository: d.repository } : {}),
    performed_via_github_app: d.performedViaApp,
    ...(i.isPullRequest ? { draft: d.pull?.draft ?? false } : {}),
  };
  return view;
}

// ---------------------------------------------------------------- comments

export interface CommentDetail {
  comment: CommentRecord;
  repo: RepoRef;
  issueNumber: number;
  isPullRequest: boolean;
  user: Account;
  authorAssociation: AuthorAssociation;
  reactions: ReactionCounts | undefined;
  rendered?: RenderedBody;
  /** The app whose token wrote the comment (performed_via_github_app). */
  performedViaApp: AppRecordView | null;
}


export function commentView(d: CommentDetail, o: ViewOptions): CommentView {
  const { urls } = o;
  const c = d.comment;
  const api = repoApi(urls, d.repo);
  const url = `${api}/issues/comments/${c.id}`;
  const html = urls.html(d.repo.owner, d.repo.name, d.isPullRequest ? 'pull' : 'issues', d.issueNumber);
  return {
    url,
    html_url: `${html}#issuecomment-${c.id}`,
    issue_url: `${api}/issues/${d.issueNumber}`,
    id: c.id,
    node_id: encodeNodeId('IssueComment', c.id),
    user: simpleUser(d.user, urls),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: d.authorAssociation,
    ...bodyFields(c.body, d.rendered, o.bodyFormat),
    reactions: reactionRollup(d.reactions, `${url}/reactions`),
    performed_via_github_app: d.performedViaApp,
  };
}

// ---------------------------------------------------------------- issue events

export interface EventDetail {
  event: IssueEventRecord;
  repo: RepoRef;
  actor: Account | null;
  /** Accounts the event names (assignee, assigner), by id. */
  accounts: ReadonlyMap<number, Account>;
  /** The issue, on the repository-wide list and the single event. */
  issue?: IssueView;
  /** The app whose token did what the event records (performed_via_github_app). */
  performedViaApp: AppRecordView | null;
  /** The actor's association with the repository (NONE without an actor). */
  authorAssociation: AuthorAssociation;
  /** The team a review was requested of, or the request withdrawn from (its view). */
  requestedTeam: TeamRecord | null;
}

/** added_to_project → AddedToProjectEvent, as upstream's GraphQL type names. */
function eventNodeType(event: string): string {
  return `${event.split('_').map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`).join('')}Event`;
}

export function eventView(d: EventDetail, urls: Urls): EventView {
  const e = d.event;
  const api = repoApi(urls, d.repo);
  const user = (id: number | undefined) => {
    const a = id === undefined ? undefined : d.accounts.get(id);
    return a ? simpleUser(a, urls) : null;
  };
  return {
    id: e.id,
    node_id: encodeNodeId(eventNodeType(e.event), e.id),
    url: `${api}/issues/events/${e.id}`,
    actor: d.actor ? simpleUser(d.actor, urls) : null,
    event: e.event,
    commit_id: e.commitId,
    commit_url: e.commitId ? `${api}/commits/${e.commitId}` : null,
    created_at: e.createdAt,
    ...(e.detail.label ? { label: e.detail.label } : {}),
    ...(e.event === 'assigned' || e.event === 'unassigned'
      ? { assignee: user(e.detail.assigneeId), assigner: user(e.detail.assignerId) }
      : {}),
    ...(e.detail.milestone ? { milestone: e.detail.milestone } : {}),
    ...(e.detail.rename ? { rename: e.detail.rename } : {}),
    ...(e.detail.projectCard ? { project_card: e.detail.projectCard } : {}),
    ...(e.event === 'locked' ? { lock_reason: e.detail.lockReason ?? null } : {}),
    ...(e.event === 'closed' || e.event === 'reopened' ? { state_reason: e.detail.stateReason ?? null } : {}),
    ...(d.issue ? { issue: d.issue } : {}),
    performed_via_github_app: d.performedViaApp,
    author_association: d.authorAssociation,
    review_requester: user(e.detail.reviewRequesterId),
    requested_reviewer: user(e.detail.requestedReviewerId),
    ...(d.requestedTeam ? { requested_team: d.requestedTeam } : {}),
    ...(e.detail.dismissedReview ? { dismissed_review: e.detail.dismissedReview } : {}),
  };
}

