// Loads what the issue views need for a page of records, in a fixed number of
// queries whatever the page size: repositories, users, labels, assignees, milestones
// with their counts, reactions, author associations, rendered bodies. Also the bulk
// reads of records GraphQL's per-request loaders batch through (GraphQL selects fields
// one by one from records, not REST views).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { appRecordsByIds } from '../apps/apps.present.ts';
import { loadReactionCounts } from '../reactions/reactions.rollup.ts';
import * as collaborators from '../collaborators/collaborators.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { team as teamView } from '../orgs/orgs.views.ts';
import { renderHtml, renderText } from '../markdown/markdown.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { repository } from '../repos/repos.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type {
  AuthorAssociation, CommentRecord, IssueEventRecord, IssueRecord, LabelRecord, MilestoneCounts, MilestoneRecord,
} from './issues.model.ts';
import * as commentStore from './comments.store.ts';
import * as store from './issues.store.ts';
import * as labelStore from './labels.store.ts';
import * as milestoneStore from './milestones.store.ts';
import {
  commentView, eventView, issueView, labelView, milestoneView, newViewMemo, type BodyFormat, type CommentView, type EventView, type IssueView, type LabelView,
  type MilestoneDetail, type MilestoneView, type PullRequestSummary, type RenderedBody, type RepoRef,
} from './issues.views.ts';
import type { SimpleUser } from '../users/users.views.ts';
import { simpleUser } from '../users/users.views.ts';

export interface PresentOptions {
  bodyFormat?: BodyFormat;
  previews?: ReadonlySet<string>;
  /** Repositories already loaded (saves a lookup). */
  repos?: readonly Repo[];
  /** Add each issue's repository representation (lists across repositories, as upstream). */
  withRepository?: boolean;
  /**
   * What the caller already knows of the records (an issue it has just created): its
   * labels and assignees, and that it has no reactions yet. Saves those lookups.
   */
  known?: KnownParts;
  /** The pull requests' merged_at and draft by issue id, when the caller (the pulls module) has them. */
  pullRequests?: ReadonlyMap<number, PullRequestSummary>;
}

export interface KnownParts {
  labels: ReadonlyMap<number, LabelRecord[]>;
  assigneeIds: ReadonlyMap<number, number[]>;
  accounts: readonly Account[];
  noReactions: boolean;
}

// ---------------------------------------------------------------- pull request details

/** What the pulls module tells about pull requests (merged_at, draft), by issue id. */
export type PullRequestInfoProvider = (ctx: AppContext, issueIds: readonly number[]) => Promise<Map<number, PullRequestSummary>>;

declare module '../../events/bus.ts' {
  interface Providers {
    /** The pulls module's: issue records of pull requests show merged_at and draft. */
    pullRequestInfo: PullRequestInfoProvider;
  }
}

async function pullInfoOf(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, PullRequestSummary>> {
  const provider = ctx.bus.provider('pullRequestInfo');
  return issueIds.length && provider ? provider(ctx, issueIds) : new Map();
}

// ---------------------------------------------------------------- repositories and refs

export function refOf(repo: Repo): RepoRef {
  return { owner: repo.owner.login, name: repo.name };
}

async function reposFor(ctx: AppContext, ids: readonly number[], known: readonly Repo[] = []): Promise<Map<number, Repo>> {
  const out = new Map(known.map((r) => [r.id, r]));
  const missing = [...new Set(ids)].filter((id) => !out.has(id));
  for (const r of await repos.reposByIds(ctx, missing)) out.set(r.id, r);
  return out;
}

// ---------------------------------------------------------------- author association

/**
 * Upstream's author_association for (repository, user) pairs: OWNER (owns the
 * repository), MEMBER (of the owning organization), COLLABORATOR (any other role),
 * CONTRIBUTOR (a merged pull request here), FIRST_TIME_CONTRIBUTOR (pull requests here,
 * none merged yet), NONE. FIRST_TIMER (never contributed anywhere) is not told apart.
 */
export async function authorAssociations(
  ctx: AppContext, pairs: readonly { repo: Repo; userId: number }[],
): Promise<Map<string, AuthorAssociation>> {
  const out = new Map<string, AuthorAssociation>();
  const byRepo = new Map<number, { repo: Repo; userIds: Set<number> }>();
  for (const { repo, userId } of pairs) {
    const entry = byRepo.get(repo.id) ?? { repo, userIds: new Set<number>() };
    entry.userIds.add(userId);
    byRepo.set(repo.id, entry);
  }
  await Promise.all([...byRepo.values()].map(async ({ repo, userIds }) => {
    const ids = [...userIds];
    // The owner of a personal repository needs no lookup (most issues of such a repository are theirs).
    const others = ids.filter((id) => id !== repo.ownerId);
    const grants = others.length ? await collaborators.repositoryGrants(ctx, repo, others) : new Map();
    const rest: number[] = [];
    for (const id of ids) {
      const g = grants.get(id);
      const a: AuthorAssociation | null = id === repo.ownerId ? 'OWNER' : g?.orgMember ? 'MEMBER' : g ? 'COLLABORATOR' : null;
      if (a) out.set(`${repo.id}:${id}`, a);
      else rest.push(id);
    }
    if (!rest.length) return;
    const pulls = await store.pullRequestsBy(ctx.db, repo.id, rest);
    const info = await pullInfoOf(ctx, pulls.map((p) => p.issueId));
    for (const id of rest) {
      const mine = pulls.filter((p) => p.userId === id);
      const merged = mine.some((p) => info.get(p.issueId)?.mergedAt);
      out.set(`${repo.id}:${id}`, merged ? 'CONTRIBUTOR' : mine.length ? 'FIRST_TIME_CONTRIBUTOR' : 'NONE');
    }
  }));
  return out;
}

// ---------------------------------------------------------------- bodies

/** body_html and body_text when the format shows them; #N links point into the repository. */
export async function renderBodies(
  ctx: AppContext, items: readonly { key: number; body: string | null; repo: RepoRef }[], format: BodyFormat,
): Promise<Map<number, RenderedBody>> {
  const out = new Map<number, RenderedBody>();
  if (format === 'raw') return out;
  await Promise.all(items.map(async ({ key, body, repo }) => {
    if (body === null || body === '') {
      out.set(key, { html: body === null ? null : '', text: body === null ? null : '' });
      return;
    }
    const html = format === 'text' ? null : await renderHtml(ctx, body, { mode: 'gfm', context: `${repo.owner}/${repo.name}` });
    out.set(key, { html, text: format === 'html' ? null : renderText(body) });
  }));
  return out;
}

// ---------------------------------------------------------------- milestones

export async function milestoneDetails(ctx: AppContext, milestones: readonly MilestoneRecord[], repoById: ReadonlyMap<number, Repo>): Promise<Map<number, MilestoneDetail>> {
  const out = new Map<number, MilestoneDetail>();
  if (!milestones.length) return out;
  const [counts, creators] = await Promise.all([
    milestoneStore.countsOf(ctx.db, milestones.map((m) => m.id)),
    users.accountsByIds(ctx, milestones.flatMap((m) => (m.creatorId === null ? [] : [m.creatorId]))),
  ]);
  for (const m of milestones) {
    const repo = repoById.get(m.repositoryId);
    if (!repo) continue;
    out.set(m.id, {
      milestone: m, repo: refOf(repo), creator: m.creatorId === null ? null : creators.get(m.creatorId) ?? null,
      counts: counts.get(m.id) ?? { open: 0, closed: 0 },
    });
  }
  return out;
}

/** The views of labels of one repository. */
export function presentLabels(ctx: AppContext, repo: Repo, labels: readonly LabelRecord[]): LabelView[] {
  return labels.map((l) => labelView(l, refOf(repo), ctx.urls));
}

export function presentLabel(ctx: AppContext, at: { repo: Repo; label: LabelRecord }): LabelView {
  return labelView(at.label, refOf(at.repo), ctx.urls);
}

export async function presentMilestones(ctx: AppContext, repo: Repo, milestones: readonly MilestoneRecord[]): Promise<MilestoneView[]> {
  const details = await milestoneDetails(ctx, milestones, new Map([[repo.id, repo]]));
  return milestones.map((m) => milestoneView(details.get(m.id)!, ctx.urls));
}

// ---------------------------------------------------------------- issues

/** Labels, assignees and milestone of each issue, for the pulls module's representation. */
export interface IssueDecorations {
  labels: LabelView[];
  assignees: SimpleUser[];
  milestone: MilestoneView | null;
}

interface Loaded {
  repoById: Map<number, Repo>;
  labels: Map<number, LabelRecord[]>;
  assigneeIds: Map<number, number[]>;
  accounts: Map<number, Account>;
  milestones: Map<number, MilestoneDetail>;
}

async function loadAround(
  ctx: AppContext, records: readonly IssueRecord[], knownRepos?: readonly Repo[], extraUserIds: number[] = [], known?: KnownParts,
): Promise<Loaded> {
  const ids = records.map((r) => r.id);
  const [repoById, labels, assigneeIds, milestoneRows] = await Promise.all([
    reposFor(ctx, records.map((r) => r.repositoryId), knownRepos),
    known ? new Map(known.labels) : labelStore.labelsOf(ctx.db, ids),
    known ? new Map(known.assigneeIds) : store.assigneesOf(ctx.db, ids),
    milestoneStore.findByIds(ctx.db, records.flatMap((r) => (r.milestoneId === null ? [] : [r.milestoneId]))),
  ]);
  const have = new Map((known?.accounts ?? []).map((a) => [a.id, a]));
  const userIds = [...extraUserIds, ...[...assigneeIds.values()].flat()].filter((id) => !have.has(id));
  const [accounts, milestones] = await Promise.all([
    users.accountsByIds(ctx, userIds),
    milestoneDetails(ctx, milestoneRows, repoById),
  ]);
  for (const [id, a] of have) accounts.set(id, a);
  return { repoById, labels, assigneeIds, accounts, milestones };
}

export async function loadIssueDecorations(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, IssueDecorations>> {
  const records = await store.findByIds(ctx.db, issueIds);
  const l = await loadAround(ctx, records);
  const out = new Map<number, IssueDecorations>();
  for (const r of records) {
    const repo = l.repoById.get(r.repositoryId);
    if (!repo) continue;
    out.set(r.id, {
      labels: (l.labels.get(r.id) ?? []).map((x) => labelView(x, refOf(repo), ctx.urls)),
      assignees: (l.assigneeIds.get(r.id) ?? []).flatMap((id) => {
        const a = l.accounts.get(id);
        return a ? [simpleUser(a, ctx.urls)] : [];
      }),
      milestone: r.milestoneId === null || !l.milestones.has(r.milestoneId) ? null : milestoneView(l.milestones.get(r.milestoneId)!, ctx.urls),
    });
  }
  return out;
}

async function repositoryViews(ctx: AppContext, actor: Actor, list: readonly Repo[], previews: ReadonlySet<string>): Promise<Map<number, unknown>> {
  const presentable = await repos.presentable(ctx, actor, list);
  return new Map(presentable.map((p) => [p.repo.id, repository(p.repo, {
    urls: ctx.urls, counts: p.counts, role: p.role, previews,
    license: p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, ctx.urls) : null,
  })]));
}

/** The issue views of `records` (kept in order), loading everything in bulk. */
export async function presentIssues(ctx: AppContext, actor: Actor, records: readonly IssueRecord[], opts: PresentOptions = {}): Promise<IssueView[]> {
  if (!records.length) return [];
  const format = opts.bodyFormat ?? 'raw';
  const previews = opts.previews ?? new Set<string>();
  const ids = records.map((r) => r.id);
  const extraUsers = records.flatMap((r) => (r.closedById === null ? [r.userId] : [r.userId, r.closedById]));
  const l = await loadAround(ctx, records, opts.repos, extraUsers, opts.known);
  const shown = records.filter((r) => l.repoById.has(r.repositoryId) && l.accounts.has(r.userId));
  const [reactions, associations, rendered, pulls, repoViews, apps] = await Promise.all([
    opts.known?.noReactions ? new Map<number, undefined>() : loadReactionCounts(ctx, 'issue', ids),
    authorAssociations(ctx, shown.map((r) => ({ repo: l.repoById.get(r.repositoryId)!, userId: r.userId }))),
    renderBodies(ctx, shown.map((r) => ({ key: r.id, body: r.body, repo: refOf(l.repoById.get(r.repositoryId)!) })), format),
    opts.pullRequests ?? pullInfoOf(ctx, shown.filter((r) => r.isPullRequest).map((r) => r.id)),
    opts.withRepository ? repositoryViews(ctx, actor, [...new Set(shown.map((r) => l.repoById.get(r.repositoryId)!))], previews) : null,
    appRecordsByIds(ctx, shown.map((r) => r.performedViaAppId)),
  ]);
  const viewOptions = { urls: ctx.urls, bodyFormat: format, previews, memo: newViewMemo() };
  return shown.map((r) => {
    const repo = l.repoById.get(r.repositoryId)!;
    return issueView({
      issue: r,
      repo: refOf(repo),
      user: l.accounts.get(r.userId)!,
      labels: l.labels.get(r.id) ?? [],
      assignees: (l.assigneeIds.get(r.id) ?? []).flatMap((id) => {
        const a = l.accounts.get(id);
        return a ? [a] : [];
      }),
      milestone: r.milestoneId === null ? null : l.milestones.get(r.milestoneId) ?? null,
      closedBy: r.closedById === null ? null : l.accounts.get(r.closedById) ?? null,
      reactions: reactions.get(r.id),
      authorAssociation: associations.get(`${repo.id}:${r.userId}`) ?? 'NONE',
      rendered: rendered.get(r.id),
      ...(r.isPullRequest ? { pull: pulls.get(r.id) ?? { mergedAt: null, draft: false } } : {}),
      ...(repoViews ? { repository: repoViews.get(repo.id) } : {}),
      performedViaApp: r.performedViaAppId === null ? null : apps.get(r.performedViaAppId) ?? null,
    }, viewOptions);
  });
}

/** The view of one issue, its repository (and maybe parts of it) at hand. */
export async function presentIssue(
  ctx: AppContext, actor: Actor, at: { repo: Repo; issue: IssueRecord; known?: KnownParts }, opts: Pick<PresentOptions, 'bodyFormat' | 'previews'> = {},
): Promise<IssueView> {
  const [view] = await presentIssues(ctx, actor, [at.issue], { bodyFormat: opts.bodyFormat, previews: opts.previews, repos: [at.repo], known: at.known });
  return view!;
}

/** The view every `issues` webhook payload carries: raw body, lock reason shown. */
export async function payloadIssue(ctx: AppContext, actor: Actor, repo: Repo, record: IssueRecord, known?: KnownParts): Promise<IssueView> {
  const [view] = await presentIssues(ctx, actor, [record], { repos: [repo], previews: new Set(['sailor-v']), known });
  return view!;
}

// ---------------------------------------------------------------- comments

export async function presentComments(
  ctx: AppContext, repo: Repo, comments: readonly CommentRecord[], opts: { bodyFormat?: BodyFormat; issues?: readonly IssueRecord[] } = {},
): Promise<CommentView[]> {
  if (!comments.length) return [];
  const format = opts.bodyFormat ?? 'raw';
  const knownIssues = new Map((opts.issues ?? []).map((i) => [i.id, i]));
  const missing = comments.map((c) => c.issueId).filter((id) => !knownIssues.has(id));
  for (const i of await store.findByIds(ctx.db, missing)) knownIssues.set(i.id, i);
  const ref = refOf(repo);
  const [accounts, reactions, associations, rendered, apps] = await Promise.all([
    users.accountsByIds(ctx, comments.map((c) => c.userId)),
    loadReactionCounts(ctx, 'issue_comment', comments.map((c) => c.id)),
    authorAssociations(ctx, comments.map((c) => ({ repo, userId: c.userId }))),
    renderBodies(ctx, comments.map((c) => ({ key: c.id, body: c.body, repo: ref })), format),
    appRecordsByIds(ctx, comments.map((c) => c.performedViaAppId)),
  ]);
  return comments.flatMap((c) => {
    const user = accounts.get(c.userId);
    const issue = knownIssues.get(c.issueId);
    if (!user || !issue) return [];
    return [commentView({
      comment: c, repo: ref, issueNumber: issue.number, isPullRequest: issue.isPullRequest, user,
      authorAssociation: associations.get(`${repo.id}:${c.userId}`) ?? 'NONE',
      reactions: reactions.get(c.id), rendered: rendered.get(c.id),
      performedViaApp: c.performedViaAppId === null ? null : apps.get(c.performedViaAppId) ?? null,
    }, { urls: ctx.urls, bodyFormat: format, previews: new Set() })];
  });
}

/** The view of one comment, its repository and issue at hand. */
export async function presentComment(
  ctx: AppContext, at: { repo: Repo; issue: IssueRecord; comment: CommentRecord }, opts: { bodyFormat?: BodyFormat } = {},
): Promise<CommentView> {
  const [view] = await presentComments(ctx, at.repo, [at.comment], { bodyFormat: opts.bodyFormat, issues: [at.issue] });
  return view!;
}

// ---------------------------------------------------------------- issue events

/** The views of events of one repository, with their issues' views when `withIssue`. */
export async function presentEvents(ctx: AppContext, actor: Actor, repo: Repo, events: readonly IssueEventRecord[], withIssue: boolean, known: IssueRecord[] = []): Promise<EventView[]> {
  const userIds = events.flatMap((e) => [e.actorId, e.detail.assigneeId, e.detail.assignerId, e.detail.reviewRequesterId, e.detail.requestedReviewerId]
    .filter((id): id is number => typeof id === 'number'));
  const teamIds = events.flatMap((e) => (e.detail.requestedTeamId === undefined ? [] : [e.detail.requestedTeamId]));
  const actorIds = [...new Set(events.flatMap((e) => (e.actorId === null ? [] : [e.actorId])))];
  const [accounts, apps, associations, teams] = await Promise.all([
    users.accountsByIds(ctx, userIds),
    appRecordsByIds(ctx, events.map((e) => e.performedViaAppId)),
    authorAssociations(ctx, actorIds.map((userId) => ({ repo, userId }))),
    teamIds.length ? orgs.teamsWithOrgLogins(ctx, teamIds) : Promise.resolve([]),
  ]);
  const teamViews = new Map(teams.map((t) => [t.team.id, teamView(t.team, t.parent, t.orgLogin, ctx.urls)]));
  let issueViews = new Map<number, IssueView>();
  if (withIssue) {
    const have = new Map(known.map((i) => [i.id, i]));
    for (const i of await store.findByIds(ctx.db, events.map((e) => e.issueId).filter((id) => !have.has(id)))) have.set(i.id, i);
    const records = [...have.values()];
    const views = await presentIssues(ctx, actor, records, { repos: [repo] });
    issueViews = new Map(views.map((v) => [v.id, v]));
  }
  return events.map((e) => eventView({
    event: e, repo: refOf(repo), actor: e.actorId === null ? null : accounts.get(e.actorId) ?? null, accounts,
    performedViaApp: e.performedViaAppId === null ? null : apps.get(e.performedViaAppId) ?? null,
    authorAssociation: (e.actorId === null ? undefined : associations.get(`${repo.id}:${e.actorId}`)) ?? 'NONE',
    requestedTeam: e.detail.requestedTeamId === undefined ? null : teamViews.get(e.detail.requestedTeamId) ?? null,
    ...(withIssue ? { issue: issueViews.get(e.issueId) } : {}),
  }, ctx.urls));
}

// ---------------------------------------------------------------- bulk reads of records (GraphQL's loaders)

/** Everything a repository holds of one kind fits one read: labels and milestones are few per repository. */
const ALL: Slice = { perPage: 1_000_000, offset: 0 };

export function issuesByIds(ctx: AppContext, ids: readonly number[]): Promise<IssueRecord[]> {
  return store.findByIds(ctx.db, ids);
}

export function issueByNumber(ctx: AppContext, repositoryId: number, number: number): Promise<IssueRecord | null> {
  return Number.isSafeInteger(number) && number > 0 ? store.findByNumber(ctx.db, repositoryId, number) : Promise.resolve(null);
}

export function labelsOfIssues(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, LabelRecord[]>> {
  return labelStore.labelsOf(ctx.db, issueIds);
}

export function assigneeIdsOfIssues(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, number[]>> {
  return store.assigneesOf(ctx.db, issueIds);
}

export function labelsByIds(ctx: AppContext, ids: readonly number[]): Promise<LabelRecord[]> {
  return labelStore.findByIds(ctx.db, ids);
}

export function milestonesByIds(ctx: AppContext, ids: readonly number[]): Promise<MilestoneRecord[]> {
  return milestoneStore.findByIds(ctx.db, ids);
}

export function milestoneCountsOf(ctx: AppContext, ids: readonly number[]): Promise<Map<number, MilestoneCounts>> {
  return milestoneStore.countsOf(ctx.db, ids);
}

export function commentsByIds(ctx: AppContext, ids: readonly number[]): Promise<CommentRecord[]> {
  return commentStore.findByIds(ctx.db, ids);
}

export async function labelsOfRepository(ctx: AppContext, repositoryId: number): Promise<LabelRecord[]> {
  return (await labelStore.list(ctx.db, repositoryId, ALL)).rows;
}

export async function labelOfRepository(ctx: AppContext, repositoryId: number, name: string): Promise<LabelRecord | null> {
  return labelStore.findByName(ctx.db, repositoryId, name);
}

export async function milestonesOfRepository(ctx: AppContext, repositoryId: number): Promise<MilestoneRecord[]> {
  return (await milestoneStore.list(ctx.db, repositoryId, { state: 'all', sort: 'due_on', direction: 'asc' }, ALL)).rows;
}

export function milestoneOfRepository(ctx: AppContext, repositoryId: number, number: number): Promise<MilestoneRecord | null> {
  return milestoneStore.findByNumber(ctx.db, repositoryId, number);
}

/** The comments of one issue, oldest first (or newest first with 'desc'). */
export async function commentsOfIssue(
  ctx: AppContext, issue: IssueRecord, q: { sort: 'created' | 'updated'; direction: 'asc' | 'desc' }, slice: Slice,
): Promise<Page<CommentRecord>> {
  const { rows, total } = await commentStore.list(ctx.db, { repositoryId: issue.repositoryId, issueId: issue.id, ...q }, slice);
  return { items: rows, total };
}
