// Issue comments (also the conversation comments of pull requests): list per issue and
// per repository, create, read, edit, delete. The issue's `comments` counter moves in
// the same transaction as the comment row. A locked issue takes comments only from
// users with push access; interaction limits apply to commenting.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { CommentRecord, IssueRecord } from './issues.model.ts';
import { payloadIssue, presentComments } from './issues.present.ts';
import {
  canComment, locateIssue, orgIdOf, recordMentions, requireInteraction, requireIssuesEnabled, requireWritable,
} from './issues.service.ts';
import * as store from './issues.store.ts';
import * as commentStore from './comments.store.ts';
import type { BodyFormat, CommentView } from './issues.views.ts';
import { deleteReactionsOf } from '../reactions/reactions.subjects.ts';

const RESOURCE = 'IssueComment';

const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function sinceOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const t = ISO.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(t)) throw new ValidationError([{ resource: RESOURCE, field: 'since', code: 'invalid', value: raw }]);
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function bodyOf(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') {
    throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'missing_field' }]);
  }
  if (typeof raw !== 'string') throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'invalid', value: raw }]);
  return raw;
}

async function present(ctx: AppContext, repo: Repo, comments: CommentRecord[], format: BodyFormat, issues?: IssueRecord[]): Promise<CommentView[]> {
  return presentComments(ctx, repo, comments, { bodyFormat: format, issues });
}

export async function listForIssue(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, q: { since?: string }, slice: Slice, format: BodyFormat,
): Promise<Page<CommentView>> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const { rows, total } = await commentStore.list(ctx.db, {
    repositoryId: repo.id, issueId: issue.id, since: sinceOf(q.since), sort: 'created', direction: 'asc',
  }, slice);
  return { items: await present(ctx, repo, rows, format, [issue]), total };
}

export async function listForRepo(
  ctx: AppContext, actor: Actor, owner: string, name: string,
  q: { since?: string; sort?: 'created' | 'updated'; direction?: 'asc' | 'desc' }, slice: Slice, format: BodyFormat,
): Promise<Page<CommentView>> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { rows, total } = await commentStore.list(ctx.db, {
    repositoryId: repo.id, since: sinceOf(q.since), sort: q.sort ?? 'created', direction: q.direction ?? 'asc',
  }, slice);
  return { items: await present(ctx, repo, rows, format), total };
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

export async function getComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, format: BodyFormat): Promise<CommentView> {
  const { repo, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  return (await present(ctx, repo, [comment], format, [issue]))[0]!;
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
  const now = nowIso(tx.clock);
  const comment = await commentStore.insert(tx.db, { repositoryId: repo.id, issueId: issue.id, userId: user.id, body }, now);
  await store.bumpComments(tx.db, issue.id, 1, now);
  await recordMentions(tx, issue.id, body);
  await emit(tx, actor, repo, issue.id, comment, 'created');
  return comment;
}

export async function createComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: { body?: unknown }, format: BodyFormat,
): Promise<CommentView> {
  const user = requireUser(actor);
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const body = bodyOf(input.body);
  requireWritable(repo);
  if (!(await canComment(ctx, actor, repo, issue))) throw new ForbiddenError('Unable to create comment because issue is locked.');
  await requireInteraction(ctx, user.id, repo, 'comment');
  const comment = await inTransaction(ctx, (tx) => addIssueCommentRecord(tx, repo, actor, issue, body));
  return (await present(ctx, repo, [comment], format))[0]!;
}

/** The author edits or deletes their comment; others need push access. */
function requireCommentRights(actor: Actor, role: Parameters<typeof roleAtLeast>[0], comment: CommentRecord): void {
  const user = requireUser(actor);
  if (comment.userId !== user.id && !roleAtLeast(role, 'push')) {
    throw new ForbiddenError('Must have push access to edit or delete another user\'s comment.');
  }
}

export async function updateComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, input: { body?: unknown }, format: BodyFormat,
): Promise<CommentView> {
  const { repo, role, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  requireCommentRights(actor, role, comment);
  const body = bodyOf(input.body);
  requireWritable(repo);
  const updated = await inTransaction(ctx, async (tx) => {
    const next = await commentStore.update(tx.db, comment.id, body, nowIso(tx.clock));
    await recordMentions(tx, issue.id, body);
    await emit(tx, actor, repo, issue.id, next, 'edited', { changes: { body: { from: comment.body } } });
    return next;
  });
  return (await present(ctx, repo, [updated], format, [issue]))[0]!;
}

export async function deleteComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const { repo, role, comment, issue } = await locateComment(ctx, actor, owner, name, id);
  requireCommentRights(actor, role, comment);
  requireWritable(repo);
  await inTransaction(ctx, async (tx) => {
    // The payload shows the comment as it was; recorded before the row goes.
    await emit(tx, actor, repo, issue.id, comment, 'deleted');
    if (await commentStore.remove(tx.db, comment.id)) await store.bumpComments(tx.db, issue.id, -1, nowIso(tx.clock));
    await deleteReactionsOf(tx, 'issue_comment', [comment.id]);
  });
}
