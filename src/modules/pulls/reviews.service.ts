// Reviews of pull requests: pending reviews (seen by their author alone) that gather
// comments until submitted, submitted reviews (APPROVED, CHANGES_REQUESTED, COMMENTED),
// dismissals. Submitting a review answers the reviewer's review request. Upstream's
// rule kept: the author of a pull request cannot approve it or request changes on it.
import { inTransaction, type AppContext } from '../../context.ts';
import { actingAppId, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as issues from '../issues/issues.service.ts';
import { recordIssueEvent } from '../issues/issue-events.service.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { orgIdOf } from './pulls.events.ts';
import { STATE_OF_EVENT, type PullRequestRecord, type ReviewCommentRecord, type ReviewEvent, type ReviewRecord } from './pulls.model.ts';
import { presentPulls } from './pulls.present.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';
import * as store from './pulls.store.ts';
import { commentPlacement, requireCommentable, requireCommitOfPull, type PlacedComment, type PlacementInput } from './review-comments.rules.ts';
import { presentReviewComments, presentReviews } from './reviews.present.ts';
import * as reviewStore from './reviews.store.ts';

const RESOURCE = 'PullRequestReview';

function refuse(message: string, field = 'event'): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field, code: 'custom', message }], message);
}

/** The pull request view a review or review comment webhook payload carries. */
export async function payloadPullSimple(tx: AppContext, actor: Actor, l: LocatedPull) {
  const [view] = await presentPulls(tx, actor, l.repo, [l], { forPayload: true });
  return view!;
}

/** A review with the pull request it belongs to, as the change left them. */
export interface LocatedReview extends LocatedPull {
  review: ReviewRecord;
}

/** A page of reviews or review comments of one pull request. */
export interface ReviewsPage<T> extends Page<T> {
  repo: Repo;
  pull: PullRequestRecord;
}

function located(l: LocatedPull, review: ReviewRecord): LocatedReview {
  return { ...l, review };
}

/** Only its author edits a review. */
export function canEditReview(viewerId: number | null, review: ReviewRecord): boolean {
  return review.userId === viewerId;
}

/** Only its author deletes a review, and only while it is pending. */
export function canDeleteReview(viewerId: number | null, review: ReviewRecord): boolean {
  return canEditReview(viewerId, review) && review.state === 'PENDING';
}

/** Those with push access dismiss approvals and change requests. */
export function canDismissReviews(role: Role | null): boolean {
  return roleAtLeast(role, 'push');
}

/** The author may comment on their own pull request but not approve it or ask changes of it. */
function checkEvent(l: LocatedPull, userId: number, event: ReviewEvent, body: string, commentCount: number): void {
  if (l.issue.userId === userId && event === 'APPROVE') throw refuse('Can not approve your own pull request');
  if (l.issue.userId === userId && event === 'REQUEST_CHANGES') throw refuse('Can not request changes on your own pull request');
  if (event === 'REQUEST_CHANGES' && body.trim() === '') throw refuse('Body is required when requesting changes', 'body');
  if (event === 'COMMENT' && body.trim() === '' && commentCount === 0) throw refuse('Body is required when commenting', 'body');
}

async function recordSubmitted(tx: AppContext, actor: Actor, l: LocatedPull, review: ReviewRecord, action: 'submitted' | 'dismissed' | 'edited', extra: Record<string, unknown> = {}): Promise<void> {
  const [view] = await presentReviews(tx, l.repo, l.pull, [review]);
  await recordEvent(tx, {
    event: 'pull_request_review', action, repositoryId: l.repo.id, organizationId: orgIdOf(l.repo), actorId: actor.user?.id ?? null,
    payload: { review: view, pull_request: await payloadPullSimple(tx, actor, l), ...extra },
  });
}

/**
 * The issue timeline's review_dismissed event: the review's state before (lower case, as
 * upstream's dismissed_review), the message, and the commit a push dismissed it with.
 */
async function recordDismissedEvent(
  tx: AppContext, actor: Actor, l: LocatedPull, before: ReviewRecord, message: string | null, commitId: string | null,
): Promise<void> {
  await recordIssueEvent(tx, {
    repositoryId: l.repo.id, issueId: l.issue.id, actorId: actor.user?.id ?? null, event: 'review_dismissed', performedViaAppId: actingAppId(actor),
    detail: { dismissedReview: { state: before.state.toLowerCase(), review_id: before.id, dismissal_message: message, dismissal_commit_id: commitId } },
  });
}

/** The review comment events of a review just submitted (upstream sends one per comment). */
async function recordCommentsCreated(tx: AppContext, actor: Actor, l: LocatedPull, reviewId: number): Promise<void> {
  const comments = await reviewStore.commentsOfReview(tx.db, reviewId);
  if (!comments.length) return;
  const views = await presentReviewComments(tx, l.repo, comments, 'raw', [l.pull]);
  const pullView = await payloadPullSimple(tx, actor, l);
  for (const comment of views) {
    await recordEvent(tx, {
      event: 'pull_request_review_comment', action: 'created', repositoryId: l.repo.id, organizationId: orgIdOf(l.repo),
      actorId: actor.user?.id ?? null, payload: { comment, pull_request: pullView },
    });
  }
}

/**
 * A review just submitted: the reviewer's request is answered, the pull request touched,
 * the events recorded. Gives the pull request as it now is.
 */
async function afterSubmit(tx: AppContext, actor: Actor, l: LocatedPull, review: ReviewRecord): Promise<LocatedPull> {
  await store.removeRequests(tx.db, l.pull.id, [review.userId], []);
  await issues.touchIssue(tx, l.issue.id);
  const fresh = await reload(tx, l);
  await recordSubmitted(tx, actor, fresh, review, 'submitted');
  await recordCommentsCreated(tx, actor, fresh, review.id);
  return fresh;
}

// ---------------------------------------------------------------- create and submit

export interface DraftComment extends PlacementInput {
  body: string;
}

export interface CreateReviewInput {
  commitId?: string;
  body?: string;
  /** Without an event the review stays pending. */
  event?: ReviewEvent;
  comments?: DraftComment[];
}

export async function createReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: CreateReviewInput,
): Promise<LocatedReview> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  await requireCommentable(ctx, actor, l);
  const body = input.body ?? '';
  const comments = input.comments ?? [];
  requireMaxLength(RESOURCE, 'body', body, TEXT_LIMITS.body);
  if (input.event) checkEvent(l, user.id, input.event, body, comments.length);
  const commitId = input.commitId ?? l.pull.headSha;
  await requireCommitOfPull(ctx, l, commitId, RESOURCE);
  const errors: FieldError[] = [];
  const placed: { body: string; placement: PlacedComment | null }[] = [];
  for (const [i, c] of comments.entries()) {
    if (typeof c.body !== 'string' || c.body.trim() === '') {
      errors.push({ resource: RESOURCE, field: `comments[${i}].body`, code: 'missing_field' });
      continue;
    }
    requireMaxLength(RESOURCE, `comments[${i}].body`, c.body, TEXT_LIMITS.body);
    placed.push({ body: c.body, placement: await commentPlacement(ctx, l, commitId, c, errors, `comments[${i}].`) });
  }
  if (errors.length) throw new ValidationError(errors);

  return inTransaction(ctx, async (tx) => {
    if (await reviewStore.findPendingReview(tx.db, l.pull.id, user.id)) throw refuse('User can only have one pending review per pull request', 'user_id');
    const now = nowIso(tx.clock);
    const review = await reviewStore.insertReview(tx.db, {
      pullRequestId: l.pull.id, repositoryId: l.repo.id, userId: user.id, state: input.event ? STATE_OF_EVENT[input.event] : 'PENDING',
      body, commitId, submittedAt: input.event ? now : null,
    }, now);
    await reviewStore.insertComments(tx.db, placed.map((p) => ({
      pullRequestId: l.pull.id, repositoryId: l.repo.id, reviewId: review.id, userId: user.id, inReplyToId: null,
      body: p.body, commitId, originalCommitId: commitId, ...p.placement!,
    })), now);
    return located(input.event ? await afterSubmit(tx, actor, l, review) : l, review);
  });
}

/**
 * A line comment added to the caller's pending review, which it starts when there is
 * none (upstream's addPullRequestReviewThread on a pending review, which REST lacks):
 * the same rules as a review's comments (who may comment, the line must be in the diff
 * of the review's commit); nothing is sent until the review is submitted.
 */
export async function addPendingComment(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: DraftComment,
): Promise<LocatedReview & { comment: ReviewCommentRecord }> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  await requireCommentable(ctx, actor, l);
  if (input.body.trim() === '') throw new ValidationError([{ resource: RESOURCE, field: 'body', code: 'missing_field' }]);
  requireMaxLength(RESOURCE, 'body', input.body, TEXT_LIMITS.body);
  const pending = await reviewStore.findPendingReview(ctx.db, l.pull.id, user.id);
  const commitId = pending?.commitId ?? l.pull.headSha;
  const errors: FieldError[] = [];
  const placement = await commentPlacement(ctx, l, commitId, input, errors);
  if (!placement) throw new ValidationError(errors);
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const found = await reviewStore.findPendingReview(tx.db, l.pull.id, user.id);
    // Placed against the commit of the review it joins: one started meanwhile at another is not joined blindly.
    if (found && found.commitId !== commitId) throw refuse('The pending review changed while this comment was added', 'review');
    const review = found ?? await reviewStore.insertReview(tx.db, {
      pullRequestId: l.pull.id, repositoryId: l.repo.id, userId: user.id, state: 'PENDING', body: '', commitId, submittedAt: null,
    }, now);
    const [comment] = await reviewStore.insertComments(tx.db, [{
      pullRequestId: l.pull.id, repositoryId: l.repo.id, reviewId: review.id, userId: user.id, inReplyToId: null,
      body: input.body, commitId, originalCommitId: commitId, ...placement,
    }], now);
    return { ...located(l, review), comment: comment! };
  });
}

/** The caller's pending review of a pull request, or null (what the web's review form submits). */
export async function findOwnPendingReview(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<ReviewRecord | null> {
  const l = await locatePull(ctx, actor, owner, name, number);
  return actor.user ? reviewStore.findPendingReview(ctx.db, l.pull.id, actor.user.id) : null;
}

/** The caller's own review; someone else's pending review does not exist for them. */
async function ownReview(ctx: AppContext, l: LocatedPull, reviewId: number, userId: number | null): Promise<ReviewRecord> {
  const review = await reviewStore.findReview(ctx.db, l.pull.id, reviewId, userId);
  if (!review) throw new NotFoundError();
  return review;
}

export async function submitReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number,
  input: { body?: string; event: ReviewEvent },
): Promise<LocatedReview> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  const found = await ownReview(ctx, l, reviewId, user.id);
  if (found.userId !== user.id) throw new NotFoundError();
  if (found.state !== 'PENDING') throw refuse('Can not submit a non-pending review', 'review');
  const body = input.body ?? found.body;
  requireMaxLength(RESOURCE, 'body', body, TEXT_LIMITS.body);
  checkEvent(l, user.id, input.event, body, await reviewStore.countCommentsOfReview(ctx.db, found.id));
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const submitted = await reviewStore.updateReview(tx.db, found.id, { state: STATE_OF_EVENT[input.event], body, submittedAt: now }, now);
    return located(await afterSubmit(tx, actor, l, submitted), submitted);
  });
}

// ---------------------------------------------------------------- read

export async function listReviews(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, slice: Slice,
): Promise<ReviewsPage<ReviewRecord>> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const { rows, total } = await reviewStore.listReviews(ctx.db, l.pull.id, actor.user?.id ?? null, slice);
  return { repo: l.repo, pull: l.pull, items: rows, total };
}

export async function getReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number,
): Promise<LocatedReview> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const review = await ownReview(ctx, l, reviewId, actor.user?.id ?? null);
  return located(l, review);
}

export async function listReviewComments(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number, slice: Slice,
): Promise<ReviewsPage<ReviewCommentRecord>> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const review = await ownReview(ctx, l, reviewId, actor.user?.id ?? null);
  const { rows, total } = await reviewStore.listComments(ctx.db, {
    repositoryId: l.repo.id, pullRequestId: l.pull.id, reviewId: review.id, viewerId: actor.user?.id ?? null, sort: 'created', direction: 'asc',
  }, slice);
  return { repo: l.repo, pull: l.pull, items: rows, total };
}

// ---------------------------------------------------------------- change

export async function updateReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number, body: string,
): Promise<LocatedReview> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  const found = await ownReview(ctx, l, reviewId, user.id);
  if (!canEditReview(user.id, found)) throw new ForbiddenError('Only the author of a review may edit it.');
  requireMaxLength(RESOURCE, 'body', body, TEXT_LIMITS.body);
  const review = await inTransaction(ctx, async (tx) => {
    const updated = await reviewStore.updateReview(tx.db, found.id, { body }, nowIso(tx.clock));
    if (updated.state !== 'PENDING' && body !== found.body) await recordSubmitted(tx, actor, l, updated, 'edited', { changes: { body: { from: found.body } } });
    return updated;
  });
  return located(l, review);
}

export async function deletePendingReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number,
): Promise<LocatedReview> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  repos.requireWriteScope(actor, l.repo);
  const found = await ownReview(ctx, l, reviewId, user.id);
  // The author's own rule first (403), then the state's (422).
  if (!canEditReview(user.id, found)) throw new ForbiddenError('Only the author of a review may delete it.');
  if (found.state !== 'PENDING') throw refuse('Can not delete a non-pending pull request review', 'review');
  await reviewStore.deleteReview(ctx.db, found.id);
  return located(l, found);
}

/** Those with push access dismiss approvals and change requests. */
export async function dismissReview(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number, message: string,
): Promise<LocatedReview> {
  requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  repos.requireWriteScope(actor, l.repo);
  if (!canDismissReviews(l.role)) throw new ForbiddenError('Must have push access to dismiss a review.');
  const found = await ownReview(ctx, l, reviewId, actor.user?.id ?? null);
  if (found.state === 'PENDING') throw refuse('Can not dismiss a pending review', 'review');
  if (found.state !== 'APPROVED' && found.state !== 'CHANGES_REQUESTED') throw refuse(`Can not dismiss a ${found.state === 'DISMISSED' ? 'dismissed' : 'commented'} pull request review`, 'review');
  if (message.trim() === '') throw new ValidationError([{ resource: RESOURCE, field: 'message', code: 'missing_field' }]);
  requireMaxLength(RESOURCE, 'message', message, TEXT_LIMITS.body);
  const review = await inTransaction(ctx, async (tx) => {
    const dismissed = await reviewStore.updateReview(tx.db, found.id, { state: 'DISMISSED' }, nowIso(tx.clock));
    await recordSubmitted(tx, actor, l, dismissed, 'dismissed');
    await recordDismissedEvent(tx, actor, l, found, message, null);
    return dismissed;
  });
  return located(l, review);
}

/** Submitted reviews of pull requests (GraphQL: reviews, reviewDecision); no caller check. */
export function submittedReviewsOf(ctx: AppContext, pullIds: readonly number[]): Promise<ReviewRecord[]> {
  return reviewStore.listSubmittedReviews(ctx.db, pullIds);
}

/**
 * Upstream's review decision: CHANGES_REQUESTED when a reviewer's latest deciding review
 * asks for changes, APPROVED when some approve and none ask for changes, else null.
 */
export function reviewDecision(reviews: readonly ReviewRecord[]): 'APPROVED' | 'CHANGES_REQUESTED' | null {
  const latest = new Map<number, ReviewRecord>();
  for (const r of reviews) if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') latest.set(r.userId, r);
  const states = [...latest.values()].map((r) => r.state);
  if (states.includes('CHANGES_REQUESTED')) return 'CHANGES_REQUESTED';
  return states.includes('APPROVED') ? 'APPROVED' : null;
}

// ---------------------------------------------------------------- lookups for GraphQL (no repository check: the caller checks it)

/** Reviews of pull requests as `viewerId` sees them: submitted ones and their own pending one, in order. */
export function reviewsOfPulls(ctx: AppContext, pullIds: readonly number[], viewerId: number | null): Promise<ReviewRecord[]> {
  return reviewStore.listReviewsOfPulls(ctx.db, pullIds, viewerId);
}

/** Reviews by id as `viewerId` sees them (node ids). */
/** A submitted review of the repository by id (what reactions may be left on); 404 otherwise. */
export async function requireSubmittedReview(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<ReviewRecord> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const [review] = Number.isSafeInteger(id) && id > 0 ? await reviewStore.findReviewsByIds(ctx.db, [id], actor.user?.id ?? null) : [];
  if (!review || review.repositoryId !== repo.id || review.state === 'PENDING') throw new NotFoundError();
  return review;
}

export function reviewsByIds(ctx: AppContext, ids: readonly number[], viewerId: number | null): Promise<ReviewRecord[]> {
  return reviewStore.findReviewsByIds(ctx.db, ids, viewerId);
}

/** The comments of reviews (reviews the caller already sees), in order. */
export function commentsOfReviews(ctx: AppContext, reviewIds: readonly number[]): Promise<ReviewCommentRecord[]> {
  return reviewStore.commentsOfReviews(ctx.db, reviewIds);
}

/** Review comments by id as `viewerId` sees them (node ids). */
export function reviewCommentsByIds(ctx: AppContext, ids: readonly number[], viewerId: number | null): Promise<ReviewCommentRecord[]> {
  return reviewStore.findCommentsByIds(ctx.db, ids, viewerId);
}

/**
 * A push to the head under dismiss_stale_reviews: approvals of earlier commits are
 * dismissed, as upstream does, each with its `dismissed` event (in the push's transaction).
 */
export async function dismissStaleApprovals(tx: AppContext, actor: Actor, l: LocatedPull): Promise<void> {
  const stale = (await reviewStore.listSubmittedReviews(tx.db, [l.pull.id])).filter((r) => r.state === 'APPROVED' && r.commitId !== l.pull.headSha);
  for (const review of stale) {
    const dismissed = await reviewStore.updateReview(tx.db, review.id, { state: 'DISMISSED' }, nowIso(tx.clock));
    await recordSubmitted(tx, actor, l, dismissed, 'dismissed');
    // Dismissed by the push: no message, the commit that made the approval stale.
    await recordDismissedEvent(tx, actor, l, review, null, l.pull.headSha);
  }
}
