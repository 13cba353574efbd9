// What every Reactable type (Issue, IssueComment, PullRequest, PullRequestReview,
// PullRequestReviewComment, Release, TeamDiscussion, TeamDiscussionComment) resolves its reaction fields with, whichever
// area owns it: reactionGroupsFor, reactionsConnectionFor, and the registry through
// which an area tells the reactions mutations and Reaction.reactable how to find its
// subjects. Groups of a page of subjects load in one query (a per-request loader).
//
// An area that owns a reactable type:
//   Reactable fields:  reactionGroups: (s, _a, g) => reactionGroupsFor(g, s, 'pull_request_review_comment', s.comment.id)
//                      reactions: (s, args, g) => reactionsConnectionFor(g, s, 'pull_request_review_comment', s.comment.id, args)
//   registerReactableNode('PullRequestReviewComment', async (g, id) => ({ ref, key, node }) | null)   (addReaction's subjectId)
//   registerReactionSubject('pull_request_review_comment', async (g, subjectId) => node | null)      (Reaction.reactable)
import { encodeCursor, MAX_PAGE_SIZE, offsetConnection, type Connection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { GraphQLApiError } from '../../graphql/errors.ts';
import { defineLoader, load } from '../../graphql/loaders.ts';
import { encodeNodeId } from '../../graphql/node-id.ts';
import { accountById, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import type { Reaction } from './reactions.model.ts';
import type { ReactionContent, ReactionSubjectType } from './reactions.rollup.ts';
import * as reactions from './reactions.service.ts';
import type { SubjectRef } from './reactions.service.ts';

export type { ReactionSubjectType } from './reactions.rollup.ts';

/** ReactionContent enum values, in upstream's order, and the REST content each stands for. */
export const REACTION_ENUM: readonly (readonly [string, ReactionContent])[] = [
  ['THUMBS_UP', '+1'], ['THUMBS_DOWN', '-1'], ['LAUGH', 'laugh'], ['HOORAY', 'hooray'],
  ['CONFUSED', 'confused'], ['HEART', 'heart'], ['ROCKET', 'rocket'], ['EYES', 'eyes'],
];
const TO_ENUM = new Map(REACTION_ENUM.map(([e, c]) => [c, e]));
const FROM_ENUM = new Map(REACTION_ENUM.map(([e, c]) => [e, c]));

export function reactionEnumOf(content: ReactionContent): string {
  return TO_ENUM.get(content)!;
}

export function reactionContentOf(value: string): ReactionContent {
  const c = FROM_ENUM.get(value);
  if (!c) throw new GraphQLApiError('UNPROCESSABLE', `Unknown reaction content ${value}.`);
  return c;
}

// ---------------------------------------------------------------- the subject registry

/** A reactable subject found from a global id: what the reactions service addresses, and its GraphQL node. */
export interface ReactableSubject {
  ref: SubjectRef;
  type: ReactionSubjectType;
  id: number;
  node: Typed;
}

type NodeResolver = (g: GraphQLContext, id: string) => Promise<ReactableSubject | null>;
type SubjectResolver = (g: GraphQLContext, subjectId: number) => Promise<Typed | null>;

const byNodeType = new Map<string, NodeResolver>();
const bySubjectType = new Map<ReactionSubjectType, SubjectResolver>();

/** The id part of a global id of `nodeType` → the subject, or null when absent or not visible (addReaction, removeReaction). */
export function registerReactableNode(nodeType: string, resolve: NodeResolver): void {
  byNodeType.set(nodeType, resolve);
}

/** A subject of the reactions table → its GraphQL node, or null when absent or not visible (Reaction.reactable, node ids of reactions). */
export function registerReactionSubject(type: ReactionSubjectType, resolve: SubjectResolver): void {
  bySubjectType.set(type, resolve);
}

export function reactableByNode(g: GraphQLContext, nodeType: string, id: string): Promise<ReactableSubject | null> {
  const resolve = byNodeType.get(nodeType);
  return resolve ? resolve(g, id) : Promise.resolve(null);
}

export function reactionSubjectNode(g: GraphQLContext, type: ReactionSubjectType, subjectId: number): Promise<Typed | null> {
  const resolve = bySubjectType.get(type);
  return resolve ? resolve(g, subjectId) : Promise.resolve(null);
}

// ---------------------------------------------------------------- groups

export interface ReactionGroupNode {
  __typename: 'ReactionGroup';
  content: ReactionContent;
  /** The ReactionContent enum value. */
  contentEnum: string;
  count: number;
  createdAt: string | null;
  viewerHasReacted: boolean;
  subject: Typed;
  subjectType: ReactionSubjectType;
  subjectId: number;
}

interface SubjectKey {
  type: ReactionSubjectType;
  id: number;
}

/** The groups of many subjects, one query per subject type for the whole request. */
const groupRows = defineLoader('reactionGroups', async (g, keys: readonly SubjectKey[]) => {
  const byType = new Map<ReactionSubjectType, number[]>();
  for (const k of keys) byType.set(k.type, [...(byType.get(k.type) ?? []), k.id]);
  const found = new Map<string, reactions.GroupRow[]>();
  await Promise.all([...byType].map(async ([type, ids]) => {
    for (const [id, rows] of await reactions.reactionGroupsOf(g.ctx, type, ids, g.user.id)) found.set(`${type}:${id}`, rows);
  }));
  return keys.map((k) => found.get(`${k.type}:${k.id}`) ?? []);
}, (k: SubjectKey) => `${k.type}:${k.id}`);

/**
 * Reactable.reactionGroups of `subject` (the node being resolved): every content, in
 * upstream's order, those nobody left with a count of zero.
 */
export async function reactionGroupsFor(g: GraphQLContext, subject: Typed, type: ReactionSubjectType, id: number): Promise<ReactionGroupNode[]> {
  const rows = await load(g, groupRows, { type, id });
  return REACTION_ENUM.map(([contentEnum, content]) => {
    const row = rows.length ? rows.find((r) => r.content === content) : undefined;
    return {
      __typename: 'ReactionGroup', content, contentEnum, count: row?.count ?? 0, createdAt: row?.firstAt ?? null,
      viewerHasReacted: row?.viewerHasReacted ?? false, subject, subjectType: type, subjectId: id,
    };
  });
}

// ---------------------------------------------------------------- reactions

export interface ReactionNode {
  __typename: 'Reaction';
  reaction: Reaction;
}

export function reactionNode(reaction: Reaction): ReactionNode {
  return { __typename: 'Reaction', reaction };
}

export interface ReactionsArgs extends ConnectionArgs {
  content?: string | null;
  orderBy?: { field: 'CREATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

/** A page of one subject's reactions, oldest first unless ordered otherwise; total from the groups when no record is asked for. */
function reactionsFetch(g: GraphQLContext, type: ReactionSubjectType, id: number, content: ReactionContent | undefined, desc: boolean) {
  let total: number | null = null;
  const count = async () => {
    if (total === null) {
      const rows = await load(g, groupRows, { type, id });
      total = rows.filter((r) => content === undefined || r.content === content).reduce((n, r) => n + r.count, 0);
    }
    return total;
  };
  return async (offset: number, limit: number) => {
    if (limit === 0) return { items: [] as Reaction[], total: await count() };
    if (!desc) return reactions.reactionsOfSubject(g.ctx, type, id, content, { offset, perPage: limit });
    const all = await count();
    const end = Math.max(0, all - offset);
    const start = Math.max(0, end - limit);
    const page = await reactions.reactionsOfSubject(g.ctx, type, id, content, { offset: start, perPage: end - start });
    return { items: [...page.items].reverse(), total: page.total };
  };
}

export interface ReactionConnectionNode extends Connection<ReactionNode> {
  viewerHasReacted: boolean;
}

/** Reactable.reactions: the subject's reactions (of one content, when asked), and whether the viewer left one. */
export async function reactionsConnectionFor(
  g: GraphQLContext, _subject: Typed, type: ReactionSubjectType, id: number, args: ReactionsArgs,
): Promise<ReactionConnectionNode> {
  const content = args.content ? reactionContentOf(args.content) : undefined;
  const fetch = reactionsFetch(g, type, id, content, args.orderBy?.direction === 'DESC');
  const [connection, rows] = await Promise.all([
    offsetConnection(args, fetch, (r: Reaction) => ({ node: reactionNode(r) })),
    load(g, groupRows, { type, id }),
  ]);
  const viewerHasReacted = rows.some((r) => r.viewerHasReacted && (content === undefined || r.content === content));
  return { ...connection, viewerHasReacted };
}

/**
 * A connection asked for its count alone (no first, last or cursors): what
 * offsetConnection answers then, made at once from a count already at hand. Lists of
 * records ask for counts of hundreds of sub-lists (reaction groups, comments).
 */
export function countOnly<N>(args: ConnectionArgs, total: number): Connection<N> | null {
  if (args.first != null || args.last != null || args.after || args.before) return null;
  return { edges: [], nodes: [], totalCount: total, pageInfo: total > 0 ? MORE_AHEAD : NOTHING_AHEAD };
}

const MORE_AHEAD = Object.freeze({ hasPreviousPage: false, hasNextPage: true, startCursor: null, endCursor: null });
const NOTHING_AHEAD = Object.freeze({ hasPreviousPage: false, hasNextPage: false, startCursor: null, endCursor: null });

/**
 * The first items of a list already in memory (`first`, no cursors: how lists of
 * labels and assignees are asked for), made at once; null for any other arguments,
 * which arrayConnection answers. The same cursors as offsetConnection's.
 */
export function firstOf<T, N>(all: readonly T[], args: ConnectionArgs, node: (item: T) => N): Connection<N> | null {
  if (args.first == null || args.last != null || args.after || args.before || args.first < 0 || args.first > MAX_PAGE_SIZE) return null;
  const nodes = all.slice(0, args.first).map(node);
  const edges = nodes.map((n, i) => ({ node: n, get cursor() { return encodeCursor(i); } }));
  return {
    edges, nodes, totalCount: all.length,
    pageInfo: {
      hasPreviousPage: false, hasNextPage: nodes.length < all.length,
      get startCursor() { return nodes.length ? encodeCursor(0) : null; },
      get endCursor() { return nodes.length ? encodeCursor(nodes.length - 1) : null; },
    },
  };
}

/** The users who left a group's reaction (ReactionGroup.reactors and users), with when. */
export function reactorsConnection(g: GraphQLContext, group: ReactionGroupNode, args: ConnectionArgs) {
  const counted = countOnly<{ node: AccountNode; reactedAt: string }>(args, group.count);
  if (counted) return counted;
  const fetch = reactionsFetch(g, group.subjectType, group.subjectId, group.content, false);
  return offsetConnection(args, async (offset, limit) => {
    const page = await fetch(offset, limit);
    const accounts = await Promise.all(page.items.map((r) => load(g, accountById, r.userId)));
    const items = page.items.flatMap((r, i) => {
      const a = accounts[i];
      return a ? [{ node: accountNode(a), reactedAt: r.createdAt }] : [];
    });
    return { items, total: page.total };
  }, (x: { node: AccountNode; reactedAt: string }) => x);
}

export const reactionGroupFields = {
  content: (r: ReactionGroupNode) => r.contentEnum,
  createdAt: (r: ReactionGroupNode) => r.createdAt,
  subject: (r: ReactionGroupNode) => r.subject,
  viewerHasReacted: (r: ReactionGroupNode) => r.viewerHasReacted,
  reactors: (r: ReactionGroupNode, args: ConnectionArgs, g: GraphQLContext) => reactorsConnection(g, r, args),
  users: (r: ReactionGroupNode, args: ConnectionArgs, g: GraphQLContext) => reactorsConnection(g, r, args),
};

export const reactionFields = {
  id: (r: ReactionNode) => encodeNodeId('Reaction', r.reaction.id),
  databaseId: (r: ReactionNode) => r.reaction.id,
  content: (r: ReactionNode) => reactionEnumOf(r.reaction.content),
  createdAt: (r: ReactionNode) => r.reaction.createdAt,
  user: async (r: ReactionNode, _args: unknown, g: GraphQLContext) => {
    const a = await load(g, accountById, r.reaction.userId);
    return a && a.type === 'User' ? accountNode(a) : null;
  },
  reactable: (r: ReactionNode, _args: unknown, g: GraphQLContext) => reactionSubjectNode(g, r.reaction.subjectType, r.reaction.subjectId),
};
