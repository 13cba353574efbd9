// Reactions on issues, issue comments, pull request review comments, team discussions
// and team discussion comments. The module owning each subject resolves it (and says
// whether the caller may see it); this one keeps the reactions.
//
// Upstream rules kept here: one reaction per user, subject and content, so leaving it
// again answers the existing one (200) instead of a new one (201); reading needs read
// access to the subject; reacting needs a signed-in user who may read the subject (on
// a repository, with a token that may write to it: public_repo or repo), and is
// refused on archived repositories and to users an interaction limit restricts (the
// issues module's requireInteraction, upstream's wording); a reaction is removed by its author
// or by an administrator of the subject (repository admin; for team discussions, the
// organization's owners and the team's maintainers).
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireInteraction, requireWritable } from '../issues/issues.service.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as discussions from '../team-discussions/team-discussions.service.ts';
import type { Reaction } from './reactions.model.ts';
import { RELEASE_REACTION_CONTENTS, type ReactionContent, type ReactionSubjectType } from './reactions.rollup.ts';
import * as store from './reactions.store.ts';
import { repositorySubject, type RepositorySubjectRef } from './reactions.subject-lookup.ts';

export type { GroupRow } from './reactions.store.ts';

/** The subject a reaction route addresses. */
export type SubjectRef =
  | RepositorySubjectRef
  | { kind: 'team_discussion'; team: discussions.TeamRef; number: number }
  | { kind: 'team_discussion_comment'; team: discussions.TeamRef; number: number; commentNumber: number };

interface Resolved {
  key: store.SubjectKey;
  /** The repository of a repository subject (interaction limits apply there). */
  repo: Repo | null;
  /** The caller may remove anyone's reactions on the subject. */
  moderator: boolean;
}

async function resolve(ctx: AppContext, actor: Actor, ref: SubjectRef, write: boolean): Promise<Resolved> {
  if (ref.kind === 'team_discussion' || ref.kind === 'team_discussion_comment') {
    const commentNumber = ref.kind === 'team_discussion_comment' ? ref.commentNumber : null;
    const s = await discussions.discussionSubject(ctx, actor, ref.team, ref.number, commentNumber, write);
    return { key: { type: s.type, id: s.id }, repo: null, moderator: s.moderator };
  }
  if (write) requireUser(actor);
  const { repo, access } = await repos.locate(ctx, actor, ref.owner, ref.repo, 'pull');
  // Reacting writes to the repository as far as tokens go, though read access is enough.
  if (write) requireScope(actor, ...(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']));
  const id = await repositorySubject(ctx, actor, repo, ref);
  return { key: { type: ref.kind, id }, repo, moderator: roleAtLeast(access.effective, 'admin') };
}

/** A reaction is removed by its author or by a moderator of its subject (repository admin; team maintainer, organization owner). */
export function canDeleteReaction(viewerId: number | null, moderator: boolean, reaction: Reaction): boolean {
  return reaction.userId === viewerId || moderator;
}

export async function listReactions(
  ctx: AppContext, actor: Actor, ref: SubjectRef, content: ReactionContent | undefined, slice: Slice,
): Promise<Page<Reaction>> {
  const { key } = await resolve(ctx, actor, ref, false);
  return reactionsOfSubject(ctx, key.type, key.id, content, slice);
}

export interface CreatedReaction {
  reaction: Reaction;
  /** False when the user had already left this reaction (upstream answers 200 then). */
  created: boolean;
}

export async function createReaction(ctx: AppContext, actor: Actor, ref: SubjectRef, content: ReactionContent): Promise<CreatedReaction> {
  const user = requireUser(actor);
  const { key, repo } = await resolve(ctx, actor, ref, true);
  // A release takes fewer contents than the rest (REST's schema says so too; GraphQL's enum has them all).
  if (ref.kind === 'release' && !(RELEASE_REACTION_CONTENTS as readonly string[]).includes(content)) {
    throw ValidationError.field('Reaction', 'content', 'invalid', `A release cannot take the ${content} reaction.`);
  }
  if (repo) {
    requireWritable(repo);
    await requireInteraction(ctx, user.id, repo, 'react');
  }
  return inTransaction(ctx, async (tx) => {
    const inserted = await store.insertUnlessExists(tx.db, key, repo?.id ?? null, user.id, content, nowIso(tx.clock));
    const reaction = inserted ?? await store.findByUser(tx.db, key, user.id, content);
    if (!reaction) throw new NotFoundError();
    return { reaction, created: inserted !== null };
  });
}

export async function deleteReaction(ctx: AppContext, actor: Actor, ref: SubjectRef, reactionId: number): Promise<void> {
  const user = requireUser(actor);
  const { key, repo, moderator } = await resolve(ctx, actor, ref, true);
  if (repo) requireWritable(repo);
  await inTransaction(ctx, async (tx) => {
    const reaction = await store.findById(tx.db, key, reactionId);
    if (!reaction) throw new NotFoundError();
    if (!canDeleteReaction(user.id, moderator, reaction)) throw new ForbiddenError('You can only delete your own reactions.');
    await store.remove(tx.db, reaction.id);
  });
}

/**
 * Removes the caller's own reaction of `content` from the subject (GraphQL's
 * removeReaction names the content, not the reaction); answers what was removed,
 * or null when the caller had not left that reaction.
 */
export async function removeOwnReaction(ctx: AppContext, actor: Actor, ref: SubjectRef, content: ReactionContent): Promise<Reaction | null> {
  const user = requireUser(actor);
  const { key, repo } = await resolve(ctx, actor, ref, true);
  if (repo) requireWritable(repo);
  return inTransaction(ctx, async (tx) => {
    const reaction = await store.findByUser(tx.db, key, user.id, content);
    if (!reaction) return null;
    await store.remove(tx.db, reaction.id);
    return reaction;
  });
}

// ---------------------------------------------------------------- bulk reads for GraphQL (the callers have checked that the subjects are visible)

/** Groups (content, count, first reaction, the viewer's) of each subject, by subject id; one query whatever the number of subjects. */
export async function reactionGroupsOf(
  ctx: AppContext, type: ReactionSubjectType, subjectIds: readonly number[], viewerId: number,
): Promise<Map<number, store.GroupRow[]>> {
  const out = new Map<number, store.GroupRow[]>(subjectIds.map((id) => [id, []]));
  for (const row of await store.groupsOf(ctx.db, type, subjectIds, viewerId)) out.get(row.subjectId)?.push(row);
  return out;
}

export function reactionsByIds(ctx: AppContext, ids: readonly number[]): Promise<Reaction[]> {
  return store.findByIds(ctx.db, ids);
}

/** One subject's reactions (of one content, when given), oldest first, and their number. */
export async function reactionsOfSubject(
  ctx: AppContext, type: ReactionSubjectType, subjectId: number, content: ReactionContent | undefined, slice: Slice,
): Promise<Page<Reaction>> {
  const key = { type, id: subjectId };
  const [items, total] = await Promise.all([
    slice.perPage > 0 ? store.list(ctx.db, key, content, slice) : Promise.resolve([]),
    store.count(ctx.db, key, content),
  ]);
  return { items, total };
}
