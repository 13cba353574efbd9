// Issue comments (also the conversation comments of pull requests): list per issue and
// per repository, create, read, edit, delete. The issue's `comments` counter moves in
// the same transaction as the comment row. A locked issue takes comments only from
// users with push access; interaction limits apply to commenting.
import { inTransaction, type AppContext } from '../../context.ts';
import { actingAppId, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso, storedTimestamp } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { CommentRecord, IssueRecord } from './issues.model.ts';
import { payloadIssue, presentComments } from './issues.present.ts';
import {
  canComment, locateIssue, orgIdOf, recordMentions, requireInteraction, requireIssuesEnabled, requireWritable,
} from './issues.service.ts';
import * as store from './issues.store.ts';
import * as commentStore from './comments.store.ts';
import { deleteReactionsOf } from '../reactions/reactions.subjects.ts';

const RESOURCE = 'IssueComment';

/** A comment with the repository and issue it belongs to (what its view needs). */
export interface CommentAt {
  repo: Repo;
  issue: IssueRecord;
  comment: CommentRecord;
}

/** A page of comments of one repository; `issues` are the ones already loaded. */
export interface CommentsOf {
  repo: Repo;
  issues: IssueRecord[];
  page: Page<CommentRecord>;
}

function bodyOf(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') {
    throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'missing_field' }]);
  }
  if (typeof raw !== 'string') throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'invalid', value: raw }]);
  requireMaxLength(RESOURCE, 'body', raw, TEXT_LIMITS.body);
  return raw;
}


export async function listForIssue(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, q: { since?: string }, slice: Slice,
): Promise<CommentsOf> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const { rows, total } = await commentStore.list(ctx.db, {
    repositoryId: repo.id, issueId: issue.id, since: storedTimestamp(q.since), sort: 'created', direction: 'asc',
  }, slice);
  return { repo, issues: [issue], page: { items: rows, total } };
}

export async function listForRepo(
  ctx: AppContext, actor: Actor, owner: string, name: string,
  q: { since?: string; sort?: 'created' | 'updated'; direction?: 'asc' | 'desc' }, slice: Slice,
): Promise<CommentsOf> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { rows, total } = await commentStore.list(ctx.db, {
    repositoryId: repo.id, since: storedTimestamp(q.since), sort: q.sort ?? 'created', direction: q.direction ?? 'asc',
  }, slice);
  return { repo, issues: [], page: { items: rows, total } };
}

async function locateComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number) {
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  const comment = Number.isSafeInteger(id) ? await commentStore.findById(ctx.db, repo.id, id) : null;
  if (!comment) throw new NotFoundError();
  const [issue] = await store.findByIds(ctx.db, [comment.issueId]);
  if (!issue) throw new NotFoundError();
  if (!issue.isPullRequest) requireIssuesEnabled(repo);
  return { repo, role: access.effective, comment, issue };
}

/**
 * The comment `id` of a repository the caller already located (reactions find their
 * subject with this): NotFoundError when there is none, GoneError when issues are
 * disabled and the comment is not on a pull request.
 */
export async function requireCommentInRepo(ctx: AppContext, repo: Repo, id: number): Promise<CommentRecord> {
  const comment = Number.isSafeInteger(id) ? await commentStore.findById(ctx.db, repo.id, id) : null;
  if (!comment) throw new NotFoundError();
  const [issue] = await store.findByIds(ctx.db, [comment.issueId]);
  if (!issue) throw new NotFoundError();
  if (!issue.isPullRequest) requireIssuesEnabled(repo);
  return comment;
}

export async function getComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<CommentAt> {
  const { repo, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  return { repo, issue, comment };
}

async function emit(tx: AppContext, actor: Actor, repo: Repo, issueId: number, comment: CommentRecord, action: string, extra: Record<string, unknown> = {}): Promise<void> {
  const issue = await store.findById(tx.db, issueId);
  if (!issue) return;
  const [view] = await presentComments(tx, repo, [comment], { issues: [issue] });
  await recordEvent(tx, {
    event: 'issue_comment', action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: actor.user?.id ?? null,
    payload: { issue: await payloadIssue(tx, actor, repo, issue), comment: view, ...extra },
  });
}

/** Adds a comment inside the caller's transaction (the pulls module may reuse it). */
export async function addIssueCommentRecord(tx: AppContext, repo: Repo, actor: Actor, issue: IssueRecord, body: string): Promise<CommentRecord> {
  const user = requireUser(actor);
  requireMaxLength(RESOURCE, 'body', body, TEXT_LIMITS.body);
  const now = nowIso(tx.clock);
  const comment = await commentStore.insert(tx.db, { repositoryId: repo.id, issueId: issue.id, userId: user.id, body, performedViaAppId: actingAppId(actor) }, now);
  await store.bumpComments(tx.db, issue.id, 1, now);
  await recordMentions(tx, issue.id, body);
  await emit(tx, actor, repo, issue.id, comment, 'created');
  return comment;
}

export async function createComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: { body?: unknown },
): Promise<CommentAt> {
  const user = requireUser(actor);
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  repos.requireWriteScope(actor, repo);
  const body = bodyOf(input.body);
  requireWritable(repo);
  if (!(await canComment(ctx, actor, repo, issue))) throw new ForbiddenError('Unable to create comment because issue is locked.');
  await requireInteraction(ctx, user.id, repo, 'comment');
  const comment = await inTransaction(ctx, (tx) => addIssueCommentRecord(tx, repo, actor, issue, body));
  return { repo, issue, comment };
}

/** The author edits or deletes their comment; others need push access (GraphQL's viewerCanUpdate uses it too). */
export function canEditComment(userId: number, role: Role | null, comment: Pick<CommentRecord, 'userId'>): boolean {
  return comment.userId === userId || roleAtLeast(role, 'push');
}

function requireCommentRights(actor: Actor, role: Role | null, comment: CommentRecord): void {
  const user = requireUser(actor);
  if (!canEditComment(user.id, role, comment)) {
    throw new ForbiddenError('Must have push access to edit or delete another user\'s comment.');
  }
}

export async function updateComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, input: { body?: unknown },
): Promise<CommentAt> {
  const { repo, role, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  repos.requireWriteScope(actor, repo);
  requireCommentRights(actor, role, comment);
  const body = bodyOf(input.body);
  requireWritable(repo);
  const updated = await inTransaction(ctx, async (tx) => {
    const next = await commentStore.update(tx.db, comment.id, body, nowIso(tx.clock));
    await recordMentions(tx, issue.id, body);
    await emit(tx, actor, repo, issue.id, next, 'edited', { changes: { body: { from: comment.body } } });
    return next;
  });
  return { repo, issue, comment: updated };
}

/** The classifiers minimizeComment takes, and the words minimizedReason answers with (upstream's). */
export const MINIMIZE_REASONS = {
  SPAM: 'spam', ABUSE: 'abuse', OFF_TOPIC: 'off-topic', OUTDATED: 'outdated', DUPLICATE: 'duplicate', RESOLVED: 'resolved',
} as const;
export type MinimizeClassifier = keyof typeof MINIMIZE_REASONS;

/** Hiding a comment, or showing it again, takes triage access or more (upstream's rule; authors included). */
export function canMinimizeComment(role: Role | null): boolean {
  return roleAtLeast(role, 'triage');
}

/** Hides a comment for a classifier's reason, or (null) shows it again. */
export async function setCommentMinimized(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, classifier: MinimizeClassifier | null,
): Promise<CommentAt> {
  requireUser(actor);
  const { repo, role, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  if (!canMinimizeComment(role)) throw new ForbiddenError('Must have triage access to minimize or unminimize a comment.');
  requireWritable(repo);
  const updated = await commentStore.setMinimized(ctx.db, comment.id, classifier === null ? null : MINIMIZE_REASONS[classifier]);
  return { repo, issue, comment: updated };
}

export async function deleteComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const { repo, role, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  repos.requireWriteScope(actor, repo);
  requireCommentRights(actor, role, comment);
  requireWritable(repo);
  await inTransaction(ctx, async (tx) => {
    // The payload shows the comment as it was; recorded before the row goes.
    await emit(tx, actor, repo, issue.id, comment, 'deleted');
    if (await commentStore.remove(tx.db, comment.id)) await store.bumpComments(tx.db, issue.id, -1, nowIso(tx.clock));
    await deleteReactionsOf(tx, 'issue_comment', [comment.id]);
  });
}
