// Review comments: comments on lines (or files) of a pull request's diff. A comment
// made on its own is, as upstream, a review of its own (COMMENTED, empty body); a reply
// joins the thread of the comment it answers and takes its place in the diff.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as issues from '../issues/issues.service.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { orgIdOf } from './pulls.events.ts';
import type { PullRequestRecord, ReviewCommentRecord } from './pulls.model.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';
import * as store from './pulls.store.ts';
import { commentPlacement, requireCommentable, requireCommitOfPull, type PlacementInput } from './review-comments.rules.ts';
import { presentReviewComments } from './reviews.present.ts';
import { payloadPullSimple } from './reviews.service.ts';
import * as reviewStore from './reviews.store.ts';
import { deleteReactionsOf } from '../reactions/reactions.subjects.ts';

const RESOURCE = 'PullRequestReviewComment';

async function recordCommentEvent(
  tx: AppContext, actor: Actor, l: LocatedPull, comment: ReviewCommentRecord, action: 'created' | 'edited' | 'deleted', extra: Record<string, unknown> = {},
): Promise<void> {
  const [view] = await presentReviewComments(tx, l.repo, [comment], 'raw', [l.pull]);
  await recordEvent(tx, {
    event: 'pull_request_review_comment', action, repositoryId: l.repo.id, organizationId: orgIdOf(l.repo), actorId: actor.user?.id ?? null,
    payload: { comment: view, pull_request: await payloadPullSimple(tx, actor, l), ...extra },
  });
}

export interface CreateCommentInput extends PlacementInput {
  body: string;
  commitId?: string;
  inReplyTo?: number;
}

export async function createReviewComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: CreateCommentInput,
): Promise<LocatedComment> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  await requireCommentable(ctx, actor, l);
  if (input.body.trim() === '') throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'missing_field' }]);
  requireMaxLength(RESOURCE, 'body', input.body, TEXT_LIMITS.body);
  let values: Omit<reviewStore.NewComment, 'reviewId' | 'pullRequestId' | 'repositoryId' | 'userId' | 'body'>;
  if (input.inReplyTo !== undefined) {
    const parent = await reviewStore.findComment(ctx.db, l.repo.id, input.inReplyTo, user.id);
    if (!parent || parent.pullRequestId !== l.pull.id) throw new NotFoundError();
    // Threads are flat: a reply to a reply answers the thread's first comment.
    const rootId = parent.inReplyToId ?? parent.id;
    values = {
      inReplyToId: rootId, path: parent.path, commitId: parent.commitId, originalCommitId: parent.originalCommitId, diffHunk: parent.diffHunk,
      position: parent.position, line: parent.line, side: parent.side, startLine: parent.startLine, startSide: parent.startSide, subjectType: parent.subjectType,
    };
  } else {
    if (!input.commitId) throw new ValidationError([{ resource: RESOURCE, field: 'commit_id', code: 'missing_field' }]);
    await requireCommitOfPull(ctx, l, input.commitId, RESOURCE);
    const errors: FieldError[] = [];
    const placed = await commentPlacement(ctx, l, input.commitId, input, errors);
    if (!placed) throw new ValidationError(errors);
    values = { inReplyToId: null, commitId: input.commitId, originalCommitId: input.commitId, ...placed };
  }
  const comment = await inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const review = await reviewStore.insertReview(tx.db, {
      pullRequestId: l.pull.id, repositoryId: l.repo.id, userId: user.id, state: 'COMMENTED', body: '', commitId: values.commitId, submittedAt: now,
    }, now);
    const [comment] = await reviewStore.insertComments(tx.db, [{
      ...values, pullRequestId: l.pull.id, repositoryId: l.repo.id, reviewId: review.id, userId: user.id, body: input.body,
    }], now);
    await issues.touchIssue(tx, l.issue.id);
    await recordCommentEvent(tx, actor, await reload(tx, l), comment!, 'created');
    return comment!;
  });
  return { repo: l.repo, pull: l.pull, comment };
}

// ---------------------------------------------------------------- read

export interface ListCommentsQuery {
  sort?: 'created' | 'updated';
  direction?: 'asc' | 'desc';
  since?: string;
}

export async function listPullReviewComments(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, q: ListCommentsQuery, slice: Slice,
): Promise<CommentPage> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const { rows, total } = await reviewStore.listComments(ctx.db, {
    repositoryId: l.repo.id, pullRequestId: l.pull.id, viewerId: actor.user?.id ?? null,
    sort: q.sort ?? 'created', direction: q.direction ?? 'asc', ...(q.since ? { since: q.since } : {}),
  }, slice);
  return { repo: l.repo, pulls: [l.pull], items: rows, total };
}

export async function listRepoReviewComments(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: ListCommentsQuery, slice: Slice,
): Promise<CommentPage> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { rows, total } = await reviewStore.listComments(ctx.db, {
    repositoryId: repo.id, viewerId: actor.user?.id ?? null,
    sort: q.sort ?? 'created', direction: q.direction ?? 'asc', ...(q.since ? { since: q.since } : {}),
  }, slice);
  return { repo, pulls: [], items: rows, total };
}

/** A page of review comments of a repository, with the pull requests already loaded. */
export interface CommentPage extends Page<ReviewCommentRecord> {
  repo: Repo;
  pulls: PullRequestRecord[];
}

/** A review comment with its repository (and its pull request, when the service loaded it). */
export interface LocatedComment {
  repo: Repo;
  pull?: PullRequestRecord;
  comment: ReviewCommentRecord;
}

/**
 * The review comment `id` of the repository as the caller may see it (reactions on
 * review comments use this to find their subject).
 */
export async function requireReviewComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<LocatedComment> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const comment = Number.isSafeInteger(id) && id > 0 ? await reviewStore.findComment(ctx.db, repo.id, id, actor.user?.id ?? null) : null;
  if (!comment) throw new NotFoundError();
  return { repo, comment };
}

export function getReviewComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<LocatedComment> {
  return requireReviewComment(ctx, actor, owner, name, id);
}

// ---------------------------------------------------------------- change

/** The comment's author, or someone with push access, may change or delete it. */
export function canChangeReviewComment(viewerId: number | null, role: Role | null, comment: ReviewCommentRecord): boolean {
  return comment.userId === viewerId || roleAtLeast(role, 'push');
}

async function locateForChange(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<{ l: LocatedPull; comment: ReviewCommentRecord }> {
  const user = requireUser(actor);
  const { repo, comment } = await requireReviewComment(ctx, actor, owner, name, id);
  requireWritable(repo);
  repos.requireWriteScope(actor, repo);
  const [pull] = await store.findByIds(ctx.db, [comment.pullRequestId]);
  if (!pull) throw new NotFoundError();
  const l = await locatePull(ctx, actor, owner, name, pull.number);
  if (!canChangeReviewComment(user.id, l.role, comment)) throw new ForbiddenError('Must have push access or be the author to change this comment.');
  return { l, comment };
}

export async function updateReviewComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, body: string,
): Promise<LocatedComment> {
  const { l, comment } = await locateForChange(ctx, actor, owner, name, id);
  if (body.trim() === '') throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'missing_field' }]);
  requireMaxLength(RESOURCE, 'body', body, TEXT_LIMITS.body);
  const updated = await inTransaction(ctx, async (tx) => {
    const updated = await reviewStore.updateComment(tx.db, comment.id, body, nowIso(tx.clock));
    if (body !== comment.body) await recordCommentEvent(tx, actor, l, updated, 'edited', { changes: { body: { from: comment.body } } });
    return updated;
  });
  return { repo: l.repo, pull: l.pull, comment: updated };
}

export async function deleteReviewComment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const { l, comment } = await locateForChange(ctx, actor, owner, name, id);
  await inTransaction(ctx, async (tx) => {
    await recordCommentEvent(tx, actor, l, comment, 'deleted');
    await reviewStore.deleteComment(tx.db, comment.id);
    await deleteReactionsOf(tx, 'pull_request_review_comment', [comment.id]);
  });
}
