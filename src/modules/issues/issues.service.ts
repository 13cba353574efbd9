// Issues: creation with an atomically allocated number, reading, editing (state,
// labels, assignees, milestone), locking; the record-level functions other modules
// (pull requests, notifications) build on; the timeline and webhook events of each
// change. Pull requests are issue rows too: their `pull_request` webhook events are the
// pulls module's, so the record functions record `issues` events only for issues.
import { inTransaction, type AppContext } from '../../context.ts';
import { actingAppId, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, GoneError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import { canInteract } from '../interactions/interactions.service.ts';
import * as collaborators from '../collaborators/collaborators.service.ts';
import { mentionedLogins, parseMarkdown } from '../markdown/markdown.render.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import {
  LOCK_REASONS, STATE_REASONS, type IssueEventDetail, type IssueRecord, type IssueState, type LabelRecord, type MilestoneRecord,
} from './issues.model.ts';
import { payloadIssue, presentMilestones, refOf, type KnownParts } from './issues.present.ts';
import * as store from './issues.store.ts';
import * as eventStore from './issue-events.store.ts';
import * as labelStore from './labels.store.ts';
import * as milestoneStore from './milestones.store.ts';
import { labelView, type IssueView } from './issues.views.ts';

export type { IssueRecord } from './issues.model.ts';
export {
  authorAssociations, loadIssueDecorations, presentComments, presentIssues, presentMilestones,
  type IssueDecorations, type PresentOptions, type PullRequestInfoProvider,
} from './issues.present.ts';
export { labelView, milestoneView, issueView, type IssueView, type LabelView, type MilestoneView } from './issues.views.ts';

const RESOURCE = 'Issue';
/** A new label's color when an issue names a label the repository does not have yet (upstream's). */
export const NEW_LABEL_COLOR = 'ededed';
/** Mentions looked up per body. */
const MAX_MENTIONS = 50;

// ---------------------------------------------------------------- lookups for other modules

export function findIssueByNumber(ctx: AppContext, repositoryId: number, number: number): Promise<IssueRecord | null> {
  return store.findByNumber(ctx.db, repositoryId, number);
}

export function findIssuesByIds(ctx: AppContext, ids: readonly number[]): Promise<IssueRecord[]> {
  return store.findByIds(ctx.db, ids);
}


/** Whether the user authored an issue or a pull request in the repository (interaction limits' contributors). */
export { hasAuthoredIssueOrPullRequest, openIssueCounts } from './issues.contributions.ts';

/** Makes an issue the issue row of a pull request, inside the caller's transaction (pulls module). */
export function convertIssueToPullRequest(tx: AppContext, issue: IssueRecord): Promise<IssueRecord> {
  return store.markPullRequest(tx.db, issue.id, nowIso(tx.clock));
}

/** Bumps updated_at of an issue or pull request (a push to a pull request's head, a review). */
export function touchIssue(tx: AppContext, issueId: number): Promise<void> {
  return store.touch(tx.db, issueId, nowIso(tx.clock));
}

// ---------------------------------------------------------------- shared rules

export function requireWritable(repo: Repo): void {
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
}

export function requireIssuesEnabled(repo: Repo): void {
  if (!repo.hasIssues) throw new GoneError('Issues are disabled for this repo');
}

const LIMIT_WORDING: Record<string, string> = {
  existing_users: 'users whose accounts are older than 24 hours, prior contributors and collaborators',
  contributors_only: 'users that have contributed to this repository in the past',
  collaborators_only: 'collaborators',
};

/**
 * Refuses the user's interaction (opening an issue or a pull request, commenting,
 * reacting) on a repository under an interaction limit that excludes them (upstream's
 * wording). The pulls and reactions modules call it for their own writes.
 */
export async function requireInteraction(ctx: AppContext, userId: number, repo: Repo, what: string): Promise<void> {
  // Writes anyone who can read may make (issues, comments, reactions) end here too.
  if (repo.lockedForMigration) throw new ForbiddenError(repos.MIGRATION_LOCK_MESSAGE);
  const decision = await canInteract(ctx, userId, repo);
  if (decision.allowed) return;
  const who = LIMIT_WORDING[decision.limit ?? ''] ?? 'some users';
  throw new ForbiddenError(`An owner of this repository has limited the ability to ${what} to ${who}.`);
}

async function roleOn(ctx: AppContext, actor: Actor, repo: Repo): Promise<Role | null> {
  return (await repos.accessTo(ctx, actor, repo)).effective;
}

// ---------------------------------------------------------------- permission rules
// Pure predicates on the caller's role: the service's checks and GraphQL's viewerCan*
// fields both use them, so the two cannot drift apart.

/** Title, body and state: the author, or triage access. */
export function canUpdateIssue(userId: number, role: Role | null, issue: Pick<IssueRecord, 'userId'>): boolean {
  return issue.userId === userId || roleAtLeast(role, 'triage');
}

/** Labels, assignees and milestone of an issue: triage access (the author's are silently dropped). */
export function canTriageIssues(role: Role | null): boolean {
  return roleAtLeast(role, 'triage');
}

/** Locking and unlocking: push access. */
export function canLockIssue(role: Role | null): boolean {
  return roleAtLeast(role, 'push');
}

/** Commenting and reacting: a locked issue takes them only from users with push access (collaborators). */
export function canCommentOnIssue(role: Role | null, issue: Pick<IssueRecord, 'locked'>): boolean {
  return !issue.locked || roleAtLeast(role, 'push');
}

/** canCommentOnIssue for an actor, looking their role up only when the issue is locked. */
export async function canComment(ctx: AppContext, actor: Actor, repo: Repo, issue: IssueRecord): Promise<boolean> {
  if (!actor.user) return false;
  return canCommentOnIssue(issue.locked ? await roleOn(ctx, actor, repo) : null, issue);
}

function invalid(field: string, value: unknown, message?: string): FieldError {
  return { resource: RESOURCE, field, code: 'invalid', value, ...(message ? { message } : {}) };
}

/** The accounts behind logins that may be assigned (push access); others are reported in `rejected`. */
export async function assignableAccounts(ctx: AppContext, repo: Repo, logins: readonly string[]): Promise<{ accounts: Account[]; rejected: string[] }> {
  const unique = [...new Map(logins.map((l) => [l.toLowerCase(), l])).values()];
  const found = await Promise.all(unique.map((l) => users.findAccount(ctx, l)));
  const accounts = found.filter((a): a is Account => a !== null && a.type === 'User');
  const grants = accounts.length ? await collaborators.repositoryGrants(ctx, repo, accounts.map((a) => a.id)) : new Map();
  const ok = accounts.filter((a) => roleAtLeast(grants.get(a.id)?.role ?? null, 'push'));
  const okLower = new Set(ok.map((a) => a.login.toLowerCase()));
  return { accounts: ok, rejected: unique.filter((l) => !okLower.has(l.toLowerCase())) };
}

/** Labels by name, creating the ones the repository lacks (upstream creates them too). */
export async function labelsByNames(tx: AppContext, repo: Repo, names: readonly string[]): Promise<LabelRecord[]> {
  const wanted = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  if (!wanted.length) return [];
  // Names that would create a label obey the label name limit.
  for (const n of wanted) requireMaxLength('Label', 'name', n, TEXT_LIMITS.labelName);
  // In the order named: the labeled events and webhooks follow it (the database returns
  // rows in whatever order its plan reads them, which differed between runs on PostgreSQL).
  const position = new Map(wanted.map((n, i) => [n.toLowerCase(), i]));
  const inOrder = (ls: LabelRecord[]) => ls.sort((a, b) => position.get(a.name.toLowerCase())! - position.get(b.name.toLowerCase())!);
  const existing = await labelStore.findByNames(tx.db, repo.id, wanted);
  const have = new Set(existing.map((l) => l.name.toLowerCase()));
  const missing = wanted.filter((n) => !have.has(n.toLowerCase()));
  if (missing.length) {
    await labelStore.insertMany(tx.db, repo.id, missing.map((name) => ({ name, color: NEW_LABEL_COLOR, description: null, isDefault: false })), nowIso(tx.clock));
    for (const name of missing) await recordLabelEvent(tx, repo, 'created', name);
    return inOrder(await labelStore.findByNames(tx.db, repo.id, wanted));
  }
  return inOrder(existing);
}

async function recordLabelEvent(tx: AppContext, repo: Repo, action: string, name: string): Promise<void> {
  const label = await labelStore.findByName(tx.db, repo.id, name);
  if (!label) return;
  await recordEvent(tx, {
    event: 'label', action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: null,
    payload: { label: labelView(label, refOf(repo), tx.urls) },
  });
}

export function orgIdOf(repo: Repo): number | null {
  return repo.owner.type === 'Organization' ? repo.ownerId : null;
}

async function milestoneByNumber(ctx: AppContext, repo: Repo, number: number): Promise<MilestoneRecord> {
  const m = await milestoneStore.findByNumber(ctx.db, repo.id, number);
  if (!m) throw new ValidationError([invalid('milestone', number)]);
  return m;
}

/** @logins in a body that are accounts, recorded for the `mentioned` filters. */
export async function recordMentions(tx: AppContext, issueId: number, body: string | null): Promise<void> {
  if (!body || !body.includes('@')) return;
  const logins = mentionedLogins(parseMarkdown(body, 'gfm')).slice(0, MAX_MENTIONS);
  if (!logins.length) return;
  const accounts = await Promise.all(logins.map((l) => users.findAccount(tx, l)));
  const ids = accounts.filter((a): a is Account => a !== null && a.type === 'User').map((a) => a.id);
  await store.addMentions(tx.db, issueId, ids, nowIso(tx.clock));
}

// ---------------------------------------------------------------- timeline and webhooks

type Timeline = { event: eventStore.NewEvent['event']; detail?: IssueEventDetail; commitId?: string }[];

async function writeTimeline(tx: AppContext, issue: IssueRecord, actor: Actor, entries: Timeline): Promise<void> {
  const actorId = requireUser(actor).id;
  const performedViaAppId = actingAppId(actor);
  await eventStore.insertMany(tx.db, entries.map((e) => ({
    repositoryId: issue.repositoryId, issueId: issue.id, actorId, event: e.event, detail: e.detail, commitId: e.commitId, performedViaAppId,
  })), nowIso(tx.clock));
}

interface WebhookEntry {
  action: string;
  extra?: Record<string, unknown>;
}

/** Records the `issues` events of a change; returns the payload's issue view (null when none was needed). */
async function emitIssueEvents(
  tx: AppContext, actor: Actor, repo: Repo, issue: IssueRecord, entries: readonly WebhookEntry[], known?: KnownParts,
): Promise<IssueView | null> {
  if (issue.isPullRequest || !entries.length) return null;
  const view = await payloadIssue(tx, actor, repo, issue, known);
  for (const e of entries) {
    await recordEvent(tx, {
      event: 'issues', action: e.action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: actor.user?.id ?? null,
      payload: { issue: view, ...e.extra },
    });
  }
  return view;
}

function userPayload(ctx: AppContext, a: Account) {
  return { login: a.login, id: a.id, type: a.type, url: ctx.urls.api('users', a.login) };
}

// ---------------------------------------------------------------- create

export interface IssueInput {
  title: string;
  body?: string | null;
  labels?: string[];
  assignees?: string[];
  milestone?: number | null;
}

/**
 * Creates the issue (or the issue row of a pull request) inside the caller's
 * transaction. Labels, assignees and milestone count only for callers with push
 * access and are silently dropped otherwise (upstream); an unknown assignee or
 * milestone is a 422.
 */
export async function createIssueRecord(
  tx: AppContext, repo: Repo, actor: Actor, input: IssueInput, opts: { isPullRequest: boolean },
): Promise<IssueRecord> {
  return (await createIssueWithParts(tx, repo, actor, input, opts)).issue;
}

/**
 * createIssueRecord, also handing back what is known of the new issue (its labels and
 * assignees, no reactions yet) so that presenting it loads nothing again; `role` saves
 * looking up the caller's role once more.
 */
async function createIssueWithParts(
  tx: AppContext, repo: Repo, actor: Actor, input: IssueInput, opts: { isPullRequest: boolean; role?: Role | null },
): Promise<{ issue: IssueRecord; known: KnownParts }> {
  const user = requireUser(actor);
  const title = input.title.trim();
  if (title === '') throw new ValidationError([{ resource: RESOURCE, field: 'title', code: 'missing_field' }]);
  requireTextBounds(opts.isPullRequest, input);
  const decorate = roleAtLeast(opts.role !== undefined ? opts.role : await roleOn(tx, actor, repo), 'push');
  let assignees: Account[] = [];
  let milestone: MilestoneRecord | null = null;
  if (decorate) {
    if (input.assignees?.length) {
      const found = await assignableAccounts(tx, repo, input.assignees);
      if (found.rejected.length) throw new ValidationError(found.rejected.map((l) => invalid('assignees', l)));
      assignees = found.accounts;
    }
    if (input.milestone !== undefined && input.milestone !== null) milestone = await milestoneByNumber(tx, repo, input.milestone);
  }
  const now = nowIso(tx.clock);
  const number = await store.allocateNumber(tx.db, repo.id);
  const issue = await store.insert(tx.db, {
    repositoryId: repo.id, number, isPullRequest: opts.isPullRequest, title, body: input.body ?? null, userId: user.id,
    milestoneId: milestone?.id ?? null, performedViaAppId: actingAppId(actor), now,
  });
  const labels = decorate && input.labels?.length ? await labelsByNames(tx, repo, input.labels) : [];
  await labelStore.attach(tx.db, issue.id, labels.map((l) => l.id), now);
  await store.addAssignees(tx.db, issue.id, assignees.map((a) => a.id), now);
  await recordMentions(tx, issue.id, issue.body);
  await writeTimeline(tx, issue, actor, [
    ...labels.map((l) => ({ event: 'labeled' as const, detail: { label: { name: l.name, color: l.color } } })),
    ...assignees.map((a) => ({ event: 'assigned' as const, detail: { assigneeId: a.id, assignerId: user.id } })),
    ...(milestone ? [{ event: 'milestoned' as const, detail: { milestone: { title: milestone.title } } }] : []),
  ]);
  // Everything about the new issue is at hand: its views need no lookups but the author's.
  const known: KnownParts = {
    labels: new Map([[issue.id, [...labels].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))]]),
    assigneeIds: new Map([[issue.id, assignees.map((a) => a.id).sort((a, b) => a - b)]]),
    accounts: assignees,
    noReactions: true,
  };
  await emitIssueEvents(tx, actor, repo, issue, [{ action: 'opened' }], known);
  return { issue, known };
}

// ---------------------------------------------------------------- update

export interface IssueChanges {
  title?: string;
  body?: string | null;
  state?: IssueState;
  stateReason?: string | null;
  /** Replaces the issue's labels (by name). */
  labels?: string[];
  /** Replaces the issue's assignees (by login). */
  assignees?: string[];
  /** A milestone number; null removes the milestone. */
  milestone?: number | null;
  /** The commit whose closing keyword closes the issue: the `closed` event's `commit_id`. */
  closingCommitId?: string;
}

/** Title and body within upstream's lengths (both the issue and the pull request routes, REST and GraphQL). */
function requireTextBounds(isPullRequest: boolean, c: { title?: string; body?: string | null }): void {
  const resource = isPullRequest ? 'PullRequest' : RESOURCE;
  requireMaxLength(resource, 'title', c.title, TEXT_LIMITS.title);
  requireMaxLength(resource, 'body', c.body, TEXT_LIMITS.body);
}

function validateState(c: IssueChanges): void {
  const errors: FieldError[] = [];
  if (c.state !== undefined && c.state !== 'open' && c.state !== 'closed') errors.push(invalid('state', c.state));
  if (c.stateReason !== undefined && c.stateReason !== null && !STATE_REASONS.includes(c.stateReason as never)) {
    errors.push(invalid('state_reason', c.stateReason));
  }
  if (c.title !== undefined && c.title.trim() === '') errors.push({ resource: RESOURCE, field: 'title', code: 'missing_field' });
  if (errors.length) throw new ValidationError(errors);
}

/**
 * Applies changes (the caller has checked who may make which) inside the caller's
 * transaction: the row, the timeline (renamed, closed, reopened, labeled, unlabeled,
 * assigned, unassigned, milestoned, demilestoned) and, for issues, the webhook events.
 */
export async function updateIssueRecord(
  tx: AppContext, repo: Repo, actor: Actor, issue: IssueRecord, changes: IssueChanges,
): Promise<IssueRecord> {
  const user = requireUser(actor);
  validateState(changes);
  requireTextBounds(issue.isPullRequest, changes);
  const now = nowIso(tx.clock);
  const timeline: Timeline = [];
  const hooks: WebhookEntry[] = [];
  const row: store.IssueChanges = {};

  // Title and body.
  const edits: Record<string, { from: string }> = {};
  if (changes.title !== undefined && changes.title.trim() !== issue.title) {
    row.title = changes.title.trim();
    timeline.push({ event: 'renamed', detail: { rename: { from: issue.title, to: row.title } } });
    edits.title = { from: issue.title };
  }
  if (changes.body !== undefined && changes.body !== issue.body) {
    row.body = changes.body;
    edits.body = { from: issue.body ?? '' };
  }
  if (Object.keys(edits).length) hooks.push({ action: 'edited', extra: { changes: edits } });

  // State.
  if (changes.state === 'closed' && issue.state === 'open') {
    const reason = changes.stateReason && changes.stateReason !== 'reopened' ? changes.stateReason : 'completed';
    Object.assign(row, { state: 'closed', stateReason: reason, closedAt: now, closedById: user.id });
    timeline.push({ event: 'closed', detail: { stateReason: reason }, commitId: changes.closingCommitId });
    hooks.push({ action: 'closed' });
  } else if (changes.state === 'open' && issue.state === 'closed') {
    Object.assign(row, { state: 'open', stateReason: 'reopened', closedAt: null, closedById: null });
    timeline.push({ event: 'reopened', detail: { stateReason: 'reopened' } });
    hooks.push({ action: 'reopened' });
  } else if (changes.stateReason !== undefined && changes.state === undefined && issue.state === 'closed'
    && changes.stateReason !== 'reopened' && changes.stateReason !== issue.stateReason) {
    row.stateReason = changes.stateReason;
  }

  // Milestone.
  if (changes.milestone !== undefined) {
    const next = changes.milestone === null ? null : await milestoneByNumber(tx, repo, changes.milestone);
    if ((next?.id ?? null) !== issue.milestoneId) {
      const [previous] = issue.milestoneId === null ? [] : await milestoneStore.findByIds(tx.db, [issue.milestoneId]);
      if (previous) {
        timeline.push({ event: 'demilestoned', detail: { milestone: { title: previous.title } } });
        if (!next) hooks.push({ action: 'demilestoned', extra: { milestone: (await presentMilestones(tx, repo, [previous]))[0] } });
      }
      if (next) {
        timeline.push({ event: 'milestoned', detail: { milestone: { title: next.title } } });
        hooks.push({ action: 'milestoned', extra: { milestone: (await presentMilestones(tx, repo, [next]))[0] } });
      }
      row.milestoneId = next?.id ?? null;
    }
  }

  // Assignees.
  if (changes.assignees !== undefined) {
    const found = await assignableAccounts(tx, repo, changes.assignees);
    if (found.rejected.length) throw new ValidationError(found.rejected.map((l) => invalid('assignees', l)));
    await setAssignees(tx, issue, user.id, found.accounts, timeline, hooks);
  }

  // Labels.
  if (changes.labels !== undefined) {
    const wanted = await labelsByNames(tx, repo, changes.labels);
    const current = (await labelStore.labelsOf(tx.db, [issue.id])).get(issue.id) ?? [];
    const added = wanted.filter((l) => !current.some((c) => c.id === l.id));
    const removed = current.filter((c) => !wanted.some((l) => l.id === c.id));
    await labelStore.detach(tx.db, issue.id, removed.map((l) => l.id));
    await labelStore.attach(tx.db, issue.id, added.map((l) => l.id), now);
    noteLabels(tx, repo, added, removed, timeline, hooks);
  }

  const touched = Object.keys(row).length > 0 || timeline.length > 0;
  const updated = touched ? await store.update(tx.db, issue.id, row, now) : issue;
  if (row.body !== undefined) await recordMentions(tx, issue.id, row.body);
  await writeTimeline(tx, updated, actor, timeline);
  await emitIssueEvents(tx, actor, repo, updated, hooks);
  return updated;
}

function noteLabels(tx: AppContext, repo: Repo, added: LabelRecord[], removed: LabelRecord[], timeline: Timeline, hooks: WebhookEntry[]): void {
  for (const l of removed) {
    timeline.push({ event: 'unlabeled', detail: { label: { name: l.name, color: l.color } } });
    hooks.push({ action: 'unlabeled', extra: { label: labelView(l, refOf(repo), tx.urls) } });
  }
  for (const l of added) {
    timeline.push({ event: 'labeled', detail: { label: { name: l.name, color: l.color } } });
    hooks.push({ action: 'labeled', extra: { label: labelView(l, refOf(repo), tx.urls) } });
  }
}

async function setAssignees(
  tx: AppContext, issue: IssueRecord, actorId: number, next: Account[], timeline: Timeline, hooks: WebhookEntry[],
): Promise<void> {
  const current = (await store.assigneesOf(tx.db, [issue.id])).get(issue.id) ?? [];
  const added = next.filter((a) => !current.includes(a.id));
  const removedIds = current.filter((id) => !next.some((a) => a.id === id));
  const removed = [...(await users.accountsByIds(tx, removedIds)).values()];
  await store.removeAssignees(tx.db, issue.id, removedIds);
  await store.addAssignees(tx.db, issue.id, added.map((a) => a.id), nowIso(tx.clock));
  for (const a of removed) {
    timeline.push({ event: 'unassigned', detail: { assigneeId: a.id, assignerId: actorId } });
    hooks.push({ action: 'unassigned', extra: { assignee: userPayload(tx, a) } });
  }
  for (const a of added) {
    timeline.push({ event: 'assigned', detail: { assigneeId: a.id, assignerId: actorId } });
    hooks.push({ action: 'assigned', extra: { assignee: userPayload(tx, a) } });
  }
}

// ---------------------------------------------------------------- small changes other endpoints make

/** Adds labels to an issue (issue label endpoints); returns the issue's labels. */
export async function addLabels(tx: AppContext, repo: Repo, actor: Actor, issue: IssueRecord, names: readonly string[], replace: boolean): Promise<void> {
  requireUser(actor);
  const wanted = await labelsByNames(tx, repo, names);
  const current = (await labelStore.labelsOf(tx.db, [issue.id])).get(issue.id) ?? [];
  const added = wanted.filter((l) => !current.some((c) => c.id === l.id));
  const removed = replace ? current.filter((c) => !wanted.some((l) => l.id === c.id)) : [];
  if (!added.length && !removed.length) return;
  const timeline: Timeline = [];
  const hooks: WebhookEntry[] = [];
  await labelStore.detach(tx.db, issue.id, removed.map((l) => l.id));
  await labelStore.attach(tx.db, issue.id, added.map((l) => l.id), nowIso(tx.clock));
  noteLabels(tx, repo, added, removed, timeline, hooks);
  const updated = await store.update(tx.db, issue.id, {}, nowIso(tx.clock));
  await writeTimeline(tx, updated, actor, timeline);
  await emitIssueEvents(tx, actor, repo, updated, hooks);
}

export async function removeLabel(tx: AppContext, repo: Repo, actor: Actor, issue: IssueRecord, label: LabelRecord): Promise<void> {
  requireUser(actor);
  const timeline: Timeline = [];
  const hooks: WebhookEntry[] = [];
  await labelStore.detach(tx.db, issue.id, [label.id]);
  noteLabels(tx, repo, [], [label], timeline, hooks);
  const updated = await store.update(tx.db, issue.id, {}, nowIso(tx.clock));
  await writeTimeline(tx, updated, actor, timeline);
  await emitIssueEvents(tx, actor, repo, updated, hooks);
}

/** Adds or removes assignees (assignee endpoints); logins that may not be assigned are ignored (upstream). */
export async function changeAssignees(tx: AppContext, repo: Repo, actor: Actor, issue: IssueRecord, logins: readonly string[], add: boolean): Promise<void> {
  const user = requireUser(actor);
  const current = (await store.assigneesOf(tx.db, [issue.id])).get(issue.id) ?? [];
  let next: Account[];
  if (add) {
    const found = await assignableAccounts(tx, repo, logins);
    const keep = [...(await users.accountsByIds(tx, current)).values()];
    next = [...keep, ...found.accounts.filter((a) => !current.includes(a.id))];
  } else {
    const lower = new Set(logins.map((l) => l.toLowerCase()));
    next = [...(await users.accountsByIds(tx, current)).values()].filter((a) => !lower.has(a.login.toLowerCase()));
  }
  const timeline: Timeline = [];
  const hooks: WebhookEntry[] = [];
  await setAssignees(tx, issue, user.id, next, timeline, hooks);
  if (!timeline.length) return;
  const updated = await store.update(tx.db, issue.id, {}, nowIso(tx.clock));
  await writeTimeline(tx, updated, actor, timeline);
  await emitIssueEvents(tx, actor, repo, updated, hooks);
}

// ---------------------------------------------------------------- REST-facing operations

export interface Located {
  repo: Repo;
  role: Role | null;
}

async function locateRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Located> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  return { repo, role: access.effective };
}

/** The issue (or pull request) numbered `number`, as a reader of the repository sees it. */
export async function requireIssue(ctx: AppContext, repo: Repo, number: number): Promise<IssueRecord> {
  const issue = Number.isSafeInteger(number) && number > 0 ? await store.findByNumber(ctx.db, repo.id, number) : null;
  if (!issue) throw new NotFoundError();
  if (!issue.isPullRequest) requireIssuesEnabled(repo);
  return issue;
}

export interface IssueContext extends Located {
  issue: IssueRecord;
}

export async function locateIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<IssueContext> {
  const located = await locateRepo(ctx, actor, owner, name);
  return { ...located, issue: await requireIssue(ctx, located.repo, number) };
}

/** An issue with its repository, and what is already known of it (saves lookups when presenting it). */
export interface IssueAt {
  repo: Repo;
  issue: IssueRecord;
  known?: KnownParts;
}

export async function getIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<IssueAt> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  return { repo, issue };
}

/** The body of POST /repos/{owner}/{repo}/issues, as the route parsed it. */
export interface CreateIssueInput {
  title?: unknown;
  body?: unknown;
  labels?: unknown[];
  assignees?: unknown[];
  assignee?: unknown;
  milestone?: unknown;
}

/** Label names from strings or objects with a name (upstream takes both). */
export function labelNames(field: string, raw: unknown[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const out: string[] = [];
  for (const l of raw) {
    const name = typeof l === 'string' ? l : l && typeof l === 'object' && typeof (l as { name?: unknown }).name === 'string' ? (l as { name: string }).name : null;
    if (name === null) throw new ValidationError([invalid(field, l)]);
    if (name.trim() !== '') out.push(name.trim());
  }
  return out;
}

function stringList(field: string, raw: unknown[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  for (const v of raw) if (typeof v !== 'string') throw new ValidationError([invalid(field, v)]);
  return (raw as string[]).filter((s) => s !== '');
}

/** A milestone given as a number or a numeric string; null clears. */
function milestoneNumber(raw: unknown): number | null | undefined {
  if (raw === undefined || raw === null) return raw as null | undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new ValidationError([invalid('milestone', raw)]);
  return n;
}

function titleOf(raw: unknown, required: boolean): string | undefined {
  if (raw === undefined || raw === null) {
    if (required) throw new ValidationError([{ resource: RESOURCE, field: 'title', code: 'missing_field' }]);
    return undefined;
  }
  // Upstream takes a number as the title too.
  if (typeof raw === 'number') return String(raw);
  if (typeof raw !== 'string') throw new ValidationError([invalid('title', raw)]);
  return raw;
}

function bodyOf(raw: unknown): string | null | undefined {
  if (raw === undefined || raw === null || typeof raw === 'string') return raw as string | null | undefined;
  throw new ValidationError([invalid('body', raw)]);
}

function assigneesOf(input: { assignees?: unknown[]; assignee?: unknown }): string[] | undefined {
  const list = stringList('assignees', input.assignees);
  if (list !== undefined) return list;
  // The deprecated single assignee; null clears.
  if (input.assignee === null) return [];
  if (input.assignee === undefined) return undefined;
  if (typeof input.assignee !== 'string') throw new ValidationError([invalid('assignee', input.assignee)]);
  return input.assignee === '' ? [] : [input.assignee];
}

export async function createIssue(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateIssueInput): Promise<IssueAt> {
  const user = requireUser(actor);
  const { repo, role } = await locateRepo(ctx, actor, owner, name);
  requireIssuesEnabled(repo);
  requireWritable(repo);
  repos.requireWriteScope(actor, repo);
  const parsed: IssueInput = {
    title: titleOf(input.title, true)!,
    body: bodyOf(input.body),
    labels: labelNames('labels', input.labels),
    assignees: assigneesOf(input),
    milestone: milestoneNumber(input.milestone),
  };
  await requireInteraction(ctx, user.id, repo, 'open issues');
  const made = await inTransaction(ctx, (tx) => createIssueWithParts(tx, repo, actor, parsed, { isPullRequest: false, role }));
  return { repo, ...made };
}

export interface UpdateIssueInput extends CreateIssueInput {
  state?: unknown;
  state_reason?: unknown;
}

/** Edits title, body or state of a pull request on behalf of the issue endpoints. */
export type PullRequestEditor = (
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number,
  changes: { title?: string; body?: string | null; state?: IssueState },
) => Promise<void>;

declare module '../../events/bus.ts' {
  interface Providers {
    /** The pulls module's (it depends on issues, not the reverse). */
    pullRequestEditor: PullRequestEditor;
  }
}

export async function updateIssue(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: UpdateIssueInput,
): Promise<IssueAt> {
  const user = requireUser(actor);
  const { repo, role, issue } = await locateIssue(ctx, actor, owner, name, number);
  requireWritable(repo);
  repos.requireWriteScope(actor, repo);
  const triage = canTriageIssues(role);
  if (!canUpdateIssue(user.id, role, issue)) throw new ForbiddenError('Must have triage access to edit this issue.');
  const changes: IssueChanges = {
    title: titleOf(input.title, false),
    body: bodyOf(input.body),
  };
  if (input.state !== undefined) changes.state = input.state as IssueState;
  if (input.state_reason !== undefined) changes.stateReason = input.state_reason as string | null;
  // Labels, assignees and milestone are for triagers; silently dropped for the author (upstream).
  if (triage) {
    changes.labels = labelNames('labels', input.labels);
    changes.assignees = assigneesOf(input);
    changes.milestone = milestoneNumber(input.milestone);
  }
  const pullRequestEditor = ctx.bus.provider('pullRequestEditor');
  if (issue.isPullRequest && pullRequestEditor && (changes.title !== undefined || changes.body !== undefined || changes.state !== undefined)) {
    // Title, body and state of a pull request change through the pulls module, so that
    // its rules (a merged pull request stays closed) and pull_request events apply.
    await pullRequestEditor(ctx, actor, owner, name, number, { title: changes.title, body: changes.body, state: changes.state });
    delete changes.title;
    delete changes.body;
    delete changes.state;
    delete changes.stateReason;
  }
  const updated = await inTransaction(ctx, async (tx) => {
    // Re-read inside the transaction so that concurrent edits see each other.
    const current = (await store.findById(tx.db, issue.id)) ?? issue;
    return updateIssueRecord(tx, repo, actor, current, changes);
  });
  return { repo, issue: updated };
}

// ---------------------------------------------------------------- lock

export async function lockIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reason: unknown): Promise<void> {
  requireUser(actor);
  const { repo, role, issue } = await locateIssue(ctx, actor, owner, name, number);
  if (!canLockIssue(role)) throw new ForbiddenError('Must have push access to lock this issue.');
  requireWritable(repo);
  if (reason !== undefined && reason !== null && !LOCK_REASONS.includes(reason as never)) {
    throw new ValidationError([invalid('lock_reason', reason, `lock_reason must be one of: ${LOCK_REASONS.join(', ')}`)]);
  }
  const lockReason = (reason ?? null) as string | null;
  await inTransaction(ctx, async (tx) => {
    const current = (await store.findById(tx.db, issue.id)) ?? issue;
    if (current.locked && current.activeLockReason === lockReason) return;
    const updated = await store.update(tx.db, issue.id, { locked: true, activeLockReason: lockReason }, nowIso(tx.clock));
    await writeTimeline(tx, updated, actor, [{ event: 'locked', detail: { lockReason } }]);
    await emitIssueEvents(tx, actor, repo, updated, [{ action: 'locked' }]);
  });
}

export async function unlockIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<void> {
  requireUser(actor);
  const { repo, role, issue } = await locateIssue(ctx, actor, owner, name, number);
  if (!canLockIssue(role)) throw new ForbiddenError('Must have push access to unlock this issue.');
  requireWritable(repo);
  await inTransaction(ctx, async (tx) => {
    const current = (await store.findById(tx.db, issue.id)) ?? issue;
    if (!current.locked) return;
    const updated = await store.update(tx.db, issue.id, { locked: false, activeLockReason: null }, nowIso(tx.clock));
    await writeTimeline(tx, updated, actor, [{ event: 'unlocked' }]);
    await emitIssueEvents(tx, actor, repo, updated, [{ action: 'unlocked' }]);
  });
}
