// Team discussions: posts on a team's page and their comments, so that people can
// discuss (and react) outside any repository.
//
// Who sees what (upstream): a discussion lives on a team's page, so whoever may see the
// team (organization owners; members for closed teams and for secret teams they are
// in) sees its public posts; private posts only the team's members (members of child
// teams included) and the organization's owners. Anyone who sees a discussion may
// comment on it; the author, the team's maintainers and the organization's owners may
// edit or delete a post or comment. Tokens need read:discussion to read and
// write:discussion to write. An installation token of an app installed on the
// organization reaches all its teams' discussions (upstream's rule: a bot is never a
// team member); the route checks its team_discussions permission (read or write).
import { createHash } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { findInstallation } from '../apps/installations.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import type { Team } from '../orgs/orgs.model.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { deleteReactionsOf } from '../reactions/reactions.subjects.ts';
import type { Direction, TeamDiscussion, TeamDiscussionComment } from './team-discussions.model.ts';
import * as store from './team-discussions.store.ts';

/** Scopes each kind of operation accepts (write:discussion grants read:discussion). */
export const SCOPES = {
  read: ['read:discussion'],
  write: ['write:discussion'],
} as const satisfies Record<string, readonly string[]>;

export type { TeamRef } from '../orgs/orgs.service.ts';
type TeamRef = orgs.TeamRef;

const DISCUSSION = 'TeamDiscussion';
const COMMENT = 'TeamDiscussionComment';

/** Where a discussion hangs, as its URLs need it. */
export interface TeamPlace {
  team: Team;
  orgLogin: string;
}

/** A discussion and the team page it is on (what the service returns). */
export interface DiscussionRecord extends TeamPlace {
  discussion: TeamDiscussion;
}

/** A comment, its discussion and the team page they are on. */
export interface CommentRecord extends DiscussionRecord {
  comment: TeamDiscussionComment;
}

// ---------------------------------------------------------------- access

/** The caller on the team's page, with what they may do there. */
export interface TeamSeat extends TeamPlace {
  userId: number;
  /** Team member (child teams included) or organization owner: sees private posts. */
  insider: boolean;
  /** Team maintainer or organization owner: moderates every post and comment. */
  moderator: boolean;
}

/** An installation token's seat: sees every post of its organization's teams, moderates only its own. */
async function installationSeat(ctx: AppContext, actor: Actor, installationId: number, ref: TeamRef): Promise<TeamSeat> {
  const user = requireUser(actor);
  const installation = await findInstallation(ctx, installationId);
  if (!installation) throw new NotFoundError();
  const { org, team } = await orgs.teamOfInstallationAccount(ctx, installation.accountId, ref);
  return { team, orgLogin: org.account.login, userId: user.id, insider: true, moderator: false };
}

async function seatOn(ctx: AppContext, actor: Actor, ref: TeamRef, write: boolean): Promise<TeamSeat> {
  const installationId = actor.method === 'installation' ? actor.integration?.installationId ?? null : null;
  if (installationId !== null) return installationSeat(ctx, actor, installationId, ref);
  const user = requireUser(actor);
  requireScope(actor, ...(write ? SCOPES.write : SCOPES.read));
  const v = await orgs.teamForViewer(ctx, actor, ref);
  return {
    team: v.team,
    orgLogin: v.org.account.login,
    userId: user.id,
    insider: v.orgOwner || v.teamRole !== null,
    moderator: v.orgOwner || v.teamRole === 'maintainer',
  };
}

async function requireDiscussion(ctx: AppContext, seat: TeamSeat, number: number): Promise<TeamDiscussion> {
  const d = await store.findDiscussion(ctx.db, seat.team.id, number);
  // A private post is not there for those who may not see it.
  if (!d || (d.private && !seat.insider)) throw new NotFoundError();
  return d;
}

async function requireComment(ctx: AppContext, discussion: TeamDiscussion, number: number): Promise<TeamDiscussionComment> {
  const c = await store.findComment(ctx.db, discussion.id, number);
  if (!c) throw new NotFoundError();
  return c;
}

/** The author, the team's maintainers and the organization's owners edit and delete a post or comment. */
export function canEditPost(seat: TeamSeat, authorId: number | null): boolean {
  return seat.moderator || (authorId !== null && authorId === seat.userId);
}

/** Team maintainers and organization owners pin posts. */
export function canPin(seat: TeamSeat): boolean {
  return seat.moderator;
}

function requireModeration(seat: TeamSeat, authorId: number | null, what: string): void {
  if (canEditPost(seat, authorId)) return;
  throw new ForbiddenError(`You must be the author of this ${what}, a team maintainer or an organization owner to do this.`);
}

// ---------------------------------------------------------------- bodies

/** Upstream's body_version: a digest of the body, which changes with every edit of it. */
function bodyVersion(body: string): string {
  return createHash('md5').update(body).digest('hex');
}

async function bodyValues(ctx: AppContext, body: string, resource: string): Promise<store.BodyValues> {
  // Bounded before rendering: the limit is upstream's body length.
  requireMaxLength(resource, 'body', body, TEXT_LIMITS.body);
  return { body, bodyHtml: await renderHtml(ctx, body, { mode: 'gfm' }), bodyVersion: bodyVersion(body) };
}

function requireTitle(title: string): string {
  if (title.trim() === '') throw ValidationError.field(DISCUSSION, 'title', 'missing_field', 'title cannot be blank');
  requireMaxLength(DISCUSSION, 'title', title, TEXT_LIMITS.title);
  return title;
}

function requireCommentBody(body: string): string {
  if (body.trim() === '') throw ValidationError.field(COMMENT, 'body', 'missing_field', 'body cannot be blank');
  return body;
}

function placeOf(seat: TeamSeat): TeamPlace {
  return { team: seat.team, orgLogin: seat.orgLogin };
}

function discussionRecord(seat: TeamSeat, discussion: TeamDiscussion): DiscussionRecord {
  return { ...placeOf(seat), discussion };
}

function commentRecord(seat: TeamSeat, discussion: TeamDiscussion, comment: TeamDiscussionComment): CommentRecord {
  return { ...placeOf(seat), discussion, comment };
}

// ---------------------------------------------------------------- discussions

export interface ListDiscussionsQuery {
  direction?: Direction;
  /** Upstream's filter is a string: "true" lists pinned posts only, "false" the others. */
  pinned?: string;
}

export async function listDiscussions(ctx: AppContext, actor: Actor, ref: TeamRef, q: ListDiscussionsQuery, slice: Slice): Promise<Page<DiscussionRecord>> {
  const seat = await seatOn(ctx, actor, ref, false);
  const pinned = q.pinned === 'true' ? true : q.pinned === 'false' ? false : undefined;
  const filter: store.DiscussionFilter = { teamId: seat.team.id, includePrivate: seat.insider, ...(pinned === undefined ? {} : { pinned }) };
  const [list, total] = await Promise.all([
    store.listDiscussions(ctx.db, filter, q.direction ?? 'desc', slice),
    store.countDiscussions(ctx.db, filter),
  ]);
  return { items: list.map((d) => discussionRecord(seat, d)), total };
}

export interface NewDiscussionInput {
  title: string;
  body: string;
  private?: boolean;
}

export async function createDiscussion(ctx: AppContext, actor: Actor, ref: TeamRef, input: NewDiscussionInput): Promise<DiscussionRecord> {
  const seat = await seatOn(ctx, actor, ref, true);
  const title = requireTitle(input.title);
  const isPrivate = input.private ?? false;
  // A private post is for the team: someone outside it could not even read it back.
  if (isPrivate && !seat.insider) throw new ForbiddenError('Only team members and organization owners can create private posts.');
  const body = await bodyValues(ctx, input.body, DISCUSSION);
  return inTransaction(ctx, async (tx) => {
    const number = await store.nextDiscussionNumber(tx.db, seat.team.id);
    const d = await store.insertDiscussion(tx.db, {
      teamId: seat.team.id, number, authorId: seat.userId, title, private: isPrivate, ...body,
    }, nowIso(tx.clock));
    return discussionRecord(seat, d);
  });
}

export async function getDiscussion(ctx: AppContext, actor: Actor, ref: TeamRef, number: number): Promise<DiscussionRecord> {
  const seat = await seatOn(ctx, actor, ref, false);
  const d = await requireDiscussion(ctx, seat, number);
  return discussionRecord(seat, d);
}

export interface DiscussionChangesInput {
  title?: string;
  body?: string;
}

export async function updateDiscussion(
  ctx: AppContext, actor: Actor, ref: TeamRef, number: number, input: DiscussionChangesInput,
): Promise<DiscussionRecord> {
  const seat = await seatOn(ctx, actor, ref, true);
  const title = input.title === undefined ? undefined : requireTitle(input.title);
  const body = input.body === undefined ? undefined : await bodyValues(ctx, input.body, DISCUSSION);
  return inTransaction(ctx, async (tx) => {
    let d = await requireDiscussion(tx, seat, number);
    requireModeration(seat, d.authorId, 'discussion');
    if (title !== undefined || body !== undefined) {
      const now = nowIso(tx.clock);
      d = await store.updateDiscussion(tx.db, d.id, { ...(title === undefined ? {} : { title }), ...body, lastEditedAt: now }, now);
    }
    return discussionRecord(seat, d);
  });
}

/** Pins or unpins a post (moderators only). Upstream does this outside REST (GraphQL's updateTeamDiscussion). */
export async function setDiscussionPinned(ctx: AppContext, actor: Actor, ref: TeamRef, number: number, pinned: boolean): Promise<DiscussionRecord> {
  const seat = await seatOn(ctx, actor, ref, true);
  if (!canPin(seat)) throw new ForbiddenError('You must be a team maintainer or an organization owner to pin a discussion.');
  return inTransaction(ctx, async (tx) => {
    let d = await requireDiscussion(tx, seat, number);
    if (d.pinned !== pinned) d = await store.updateDiscussion(tx.db, d.id, { pinned }, nowIso(tx.clock));
    return discussionRecord(seat, d);
  });
}

export async function deleteDiscussion(ctx: AppContext, actor: Actor, ref: TeamRef, number: number): Promise<void> {
  const seat = await seatOn(ctx, actor, ref, true);
  await inTransaction(ctx, async (tx) => {
    const d = await requireDiscussion(tx, seat, number);
    requireModeration(seat, d.authorId, 'discussion');
    await deleteReactionsOf(tx, 'team_discussion_comment', await store.commentIdsOf(tx.db, d.id));
    await deleteReactionsOf(tx, 'team_discussion', [d.id]);
    await store.deleteDiscussion(tx.db, d.id);
  });
}

// ---------------------------------------------------------------- comments

export async function listComments(
  ctx: AppContext, actor: Actor, ref: TeamRef, number: number, direction: Direction | undefined, slice: Slice,
): Promise<Page<CommentRecord>> {
  const seat = await seatOn(ctx, actor, ref, false);
  const d = await requireDiscussion(ctx, seat, number);
  const list = await store.listComments(ctx.db, d.id, direction ?? 'desc', slice);
  return { items: list.map((c) => commentRecord(seat, d, c)), total: d.commentsCount };
}

export async function createComment(ctx: AppContext, actor: Actor, ref: TeamRef, number: number, input: { body: string }): Promise<CommentRecord> {
  const seat = await seatOn(ctx, actor, ref, true);
  const body = await bodyValues(ctx, requireCommentBody(input.body), COMMENT);
  return inTransaction(ctx, async (tx) => {
    const d = await requireDiscussion(tx, seat, number);
    const n = await store.nextCommentNumber(tx.db, d.id);
    const c = await store.insertComment(tx.db, { discussionId: d.id, number: n, authorId: seat.userId, ...body }, nowIso(tx.clock));
    return commentRecord(seat, { ...d, commentsCount: d.commentsCount + 1 }, c);
  });
}

export async function getComment(ctx: AppContext, actor: Actor, ref: TeamRef, number: number, commentNumber: number): Promise<CommentRecord> {
  const seat = await seatOn(ctx, actor, ref, false);
  const d = await requireDiscussion(ctx, seat, number);
  const c = await requireComment(ctx, d, commentNumber);
  return commentRecord(seat, d, c);
}

export async function updateComment(
  ctx: AppContext, actor: Actor, ref: TeamRef, number: number, commentNumber: number, input: { body: string },
): Promise<CommentRecord> {
  const seat = await seatOn(ctx, actor, ref, true);
  const body = await bodyValues(ctx, requireCommentBody(input.body), COMMENT);
  return inTransaction(ctx, async (tx) => {
    const d = await requireDiscussion(tx, seat, number);
    let c = await requireComment(tx, d, commentNumber);
    requireModeration(seat, c.authorId, 'comment');
    c = await store.updateComment(tx.db, c.id, body, nowIso(tx.clock));
    return commentRecord(seat, d, c);
  });
}

export async function deleteComment(ctx: AppContext, actor: Actor, ref: TeamRef, number: number, commentNumber: number): Promise<void> {
  const seat = await seatOn(ctx, actor, ref, true);
  await inTransaction(ctx, async (tx) => {
    const d = await requireDiscussion(tx, seat, number);
    const c = await requireComment(tx, d, commentNumber);
    requireModeration(seat, c.authorId, 'comment');
    await deleteReactionsOf(tx, 'team_discussion_comment', [c.id]);
    await store.deleteComment(tx.db, c);
  });
}

// ---------------------------------------------------------------- reaction subjects

/** A discussion or comment as a subject of reactions, for the reactions module. */
export interface DiscussionSubject {
  type: 'team_discussion' | 'team_discussion_comment';
  id: number;
  /** The caller may remove anyone's reactions here. */
  moderator: boolean;
}

/**
 * The discussion (or, with commentNumber, the comment) the caller may see; `write`
 * asks for the write:discussion scope, reading for read:discussion.
 */
export async function discussionSubject(
  ctx: AppContext, actor: Actor, ref: TeamRef, number: number, commentNumber: number | null, write: boolean,
): Promise<DiscussionSubject> {
  const seat = await seatOn(ctx, actor, ref, write);
  const d = await requireDiscussion(ctx, seat, number);
  if (commentNumber === null) return { type: 'team_discussion', id: d.id, moderator: seat.moderator };
  const c = await requireComment(ctx, d, commentNumber);
  return { type: 'team_discussion_comment', id: c.id, moderator: seat.moderator };
}

// ---------------------------------------------------------------- GraphQL: seats and global ids

/** The caller's seat on a team's page (GraphQL's viewer fields); read:discussion needed, as for reading. */
export function seatOnTeam(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<TeamSeat> {
  return seatOn(ctx, actor, ref, false);
}

async function teamRefOf(ctx: AppContext, teamId: number): Promise<TeamRef> {
  const [found] = await orgs.teamsWithOrgLogins(ctx, [teamId]);
  if (!found) throw new NotFoundError();
  return { orgId: found.team.orgId, teamId };
}

/** A discussion by its id (a global id's), as its number on its team's page would show it to the caller. */
export async function getDiscussionById(ctx: AppContext, actor: Actor, id: number): Promise<DiscussionRecord> {
  const d = await store.findDiscussionById(ctx.db, id);
  if (!d) throw new NotFoundError();
  return getDiscussion(ctx, actor, await teamRefOf(ctx, d.teamId), d.number);
}

/** A comment by its id, as its discussion's page would show it to the caller. */
export async function getCommentById(ctx: AppContext, actor: Actor, id: number): Promise<CommentRecord> {
  const c = await store.findCommentById(ctx.db, id);
  const d = c ? await store.findDiscussionById(ctx.db, c.discussionId) : null;
  if (!c || !d) throw new NotFoundError();
  return getComment(ctx, actor, await teamRefOf(ctx, d.teamId), d.number, c.number);
}
