// GraphQL resolvers of team discussions, on the team discussions service (the one REST
// calls): the same rules about who sees private posts, and the read:discussion scope.
import { NotFoundError } from '../../domain/errors.ts';
import { arrayConnection, offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import {
  authorOf, bodyTextOf, reactionGroupsFor, reactionsConnectionFor, registerReactableNode, registerReactionSubject, type ReactionsArgs,
} from '../issues/issues.graphql-helpers.ts';
import type { TeamNode } from '../orgs/orgs.resolvers.ts';
import { accountById } from '../users/users.resolvers.ts';
import { teamDiscussionsTypeDefs } from './team-discussions.graphql.ts';
import type { TeamDiscussion, TeamDiscussionComment } from './team-discussions.model.ts';
import * as discussions from './team-discussions.service.ts';
import { orNull } from '../../graphql/errors.ts';

interface DiscussionNode {
  __typename: 'TeamDiscussion';
  place: discussions.TeamPlace;
  discussion: TeamDiscussion;
}

interface CommentNode {
  __typename: 'TeamDiscussionComment';
  place: discussions.TeamPlace;
  discussion: TeamDiscussion;
  comment: TeamDiscussionComment;
}

function discussionNode(place: discussions.TeamPlace, discussion: TeamDiscussion): DiscussionNode {
  return { __typename: 'TeamDiscussion', place: { team: place.team, orgLogin: place.orgLogin }, discussion };
}

function commentNode(place: discussions.TeamPlace, discussion: TeamDiscussion, comment: TeamDiscussionComment): CommentNode {
  return { __typename: 'TeamDiscussionComment', place: { team: place.team, orgLogin: place.orgLogin }, discussion, comment };
}

const refOf = (place: discussions.TeamPlace) => ({ orgId: place.team.orgId, teamId: place.team.id });

/** The caller's seat on each team's page (who sees private posts, who moderates). */
const seatOf = defineLoader('teamDiscussionSeat',
  (g, places: readonly discussions.TeamPlace[]) => Promise.all(places.map((p) => discussions.seatOnTeam(g.ctx, g.actor, refOf(p)))),
  (p: discussions.TeamPlace) => p.team.id);


// ---------------------------------------------------------------- shared by posts and comments

type Post = DiscussionNode | CommentNode;

const record = (p: Post) => (p.__typename === 'TeamDiscussion' ? p.discussion : p.comment);

const discussionPath = (p: Post) => `/orgs/${p.place.orgLogin}/teams/${p.place.team.slug}/discussions/${p.discussion.number}`;

/** The author, the team's maintainers and the organization's owners edit and delete a post or comment (the service's rule). */
async function cannotUpdate(p: Post, _a: unknown, g: GraphQLContext): Promise<string[]> {
  return discussions.canEditPost(await load(g, seatOf, p.place), record(p).authorId) ? [] : ['INSUFFICIENT_ACCESS'];
}

function postFields(subjectType: 'team_discussion' | 'team_discussion_comment') {
  return {
    id: (p: Post) => encodeNodeId(p.__typename, record(p).id),
    databaseId: (p: Post) => record(p).id,
    number: (p: Post) => record(p).number,
    author: async (p: Post, _a: unknown, g: GraphQLContext) => {
      const id = record(p).authorId;
      return id === null ? null : authorOf(g, id);
    },
    // Only the organization's members see a team's page, so only they write on it.
    authorAssociation: () => 'MEMBER',
    body: (p: Post) => record(p).body,
    bodyHTML: (p: Post) => record(p).bodyHtml,
    bodyText: (p: Post) => bodyTextOf(record(p).body),
    bodyVersion: (p: Post) => record(p).bodyVersion,
    createdAt: (p: Post) => record(p).createdAt,
    updatedAt: (p: Post) => record(p).updatedAt,
    publishedAt: (p: Post) => record(p).createdAt,
    lastEditedAt: (p: Post) => record(p).lastEditedAt,
    // Wharf keeps no edit history and takes no content by e-mail.
    createdViaEmail: () => false,
    editor: () => null,
    includesCreatedEdit: () => false,
    viewerDidAuthor: (p: Post, _a: unknown, g: GraphQLContext) => record(p).authorId === g.user.id,
    viewerCannotUpdateReasons: cannotUpdate,
    viewerCanUpdate: async (p: Post, a: unknown, g: GraphQLContext) => (await cannotUpdate(p, a, g)).length === 0,
    viewerCanDelete: async (p: Post, a: unknown, g: GraphQLContext) => (await cannotUpdate(p, a, g)).length === 0,
    // Whoever sees a post may react to it.
    viewerCanReact: () => true,
    reactionGroups: (p: Post, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, p, subjectType, record(p).id),
    reactions: (p: Post, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, p, subjectType, record(p).id, args),
  };
}

// ---------------------------------------------------------------- discussions

interface CommentsArgs extends ConnectionArgs {
  fromComment?: number | null;
  orderBy?: { field: 'NUMBER'; direction: 'ASC' | 'DESC' } | null;
}

/** Every comment at once: fromComment picks by number, which deleted comments leave gaps in. */
const ALL_COMMENTS = 100_000;

function commentsConnection(d: DiscussionNode, args: CommentsArgs, g: GraphQLContext) {
  const direction = args.orderBy?.direction === 'DESC' ? 'desc' : 'asc';
  const list = (offset: number, limit: number) =>
    discussions.listComments(g.ctx, g.actor, refOf(d.place), d.discussion.number, direction, { perPage: limit, offset });
  const edge = (c: discussions.CommentRecord) => ({ node: commentNode(d.place, c.discussion, c.comment) });
  const from = args.fromComment;
  if (from !== null && from !== undefined) {
    return list(0, ALL_COMMENTS).then((page) => arrayConnection(
      page.items.filter((c) => (direction === 'asc' ? c.comment.number >= from : c.comment.number <= from)), args, edge));
  }
  return offsetConnection(args, list, edge);
}

const discussionFields = {
  ...postFields('team_discussion'),
  title: (d: DiscussionNode) => d.discussion.title,
  isPinned: (d: DiscussionNode) => d.discussion.pinned,
  isPrivate: (d: DiscussionNode) => d.discussion.private,
  viewerCanPin: async (d: DiscussionNode, _a: unknown, g: GraphQLContext) => discussions.canPin(await load(g, seatOf, d.place)),
  team: (d: DiscussionNode): TeamNode => ({ __typename: 'Team', team: d.place.team }),
  comments: commentsConnection,
  resourcePath: discussionPath,
  url: (d: DiscussionNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(discussionPath(d)),
  commentsResourcePath: (d: DiscussionNode) => `${discussionPath(d)}/comments`,
  commentsUrl: (d: DiscussionNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(`${discussionPath(d)}/comments`),
};

const commentPath = (c: CommentNode) => `${discussionPath(c)}/comments/${c.comment.number}`;

const commentFields = {
  ...postFields('team_discussion_comment'),
  discussion: (c: CommentNode) => discussionNode(c.place, c.discussion),
  resourcePath: commentPath,
  url: (c: CommentNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(commentPath(c)),
};

// ---------------------------------------------------------------- Team

interface DiscussionsArgs extends ConnectionArgs {
  isPinned?: boolean | null;
  orderBy?: { field: 'CREATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

async function placeOfTeam(g: GraphQLContext, t: TeamNode): Promise<discussions.TeamPlace> {
  const org = await load(g, accountById, t.team.orgId);
  if (!org) throw new NotFoundError();
  return { team: t.team, orgLogin: org.login };
}

const teamFields = {
  // Newest first unless asked otherwise, as REST lists them.
  discussions: (t: TeamNode, args: DiscussionsArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await discussions.listDiscussions(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.id }, {
        direction: args.orderBy?.direction === 'ASC' ? 'asc' : 'desc',
        ...(args.isPinned === true || args.isPinned === false ? { pinned: String(args.isPinned) } : {}),
      }, { perPage: limit, offset });
      return { items: page.items.map((d) => discussionNode(d, d.discussion)), total: page.total };
    }),
  discussion: async (t: TeamNode, args: { number: number }, g: GraphQLContext) => {
    const d = await orNull(discussions.getDiscussion(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.id }, args.number));
    return d ? discussionNode(d, d.discussion) : null;
  },
  discussionsResourcePath: async (t: TeamNode, _a: unknown, g: GraphQLContext) =>
    `/orgs/${(await placeOfTeam(g, t)).orgLogin}/teams/${t.team.slug}/discussions`,
  discussionsUrl: async (t: TeamNode, _a: unknown, g: GraphQLContext) =>
    g.ctx.urls.raw(`/orgs/${(await placeOfTeam(g, t)).orgLogin}/teams/${t.team.slug}/discussions`),
};

// ---------------------------------------------------------------- node ids and reactions

async function visibleDiscussion(g: GraphQLContext, id: number): Promise<DiscussionNode | null> {
  const d = await orNull(discussions.getDiscussionById(g.ctx, g.actor, id));
  return d ? discussionNode(d, d.discussion) : null;
}

async function visibleComment(g: GraphQLContext, id: number): Promise<CommentNode | null> {
  const c = await orNull(discussions.getCommentById(g.ctx, g.actor, id));
  return c ? commentNode(c, c.discussion, c.comment) : null;
}

/** Discussions and their comments as reaction subjects (teamDiscussionsGraphQL.register). */
function registerDiscussionReactables(): void {
  registerReactableNode('TeamDiscussion', async (g, id) => {
    const n = numericId(id);
    const d = n === null ? null : await visibleDiscussion(g, n);
    return d ? { ref: { kind: 'team_discussion', team: refOf(d.place), number: d.discussion.number }, type: 'team_discussion', id: d.discussion.id, node: d } : null;
  });
  registerReactableNode('TeamDiscussionComment', async (g, id) => {
    const n = numericId(id);
    const c = n === null ? null : await visibleComment(g, n);
    return c ? {
      ref: { kind: 'team_discussion_comment', team: refOf(c.place), number: c.discussion.number, commentNumber: c.comment.number },
      type: 'team_discussion_comment', id: c.comment.id, node: c,
    } : null;
  });
  registerReactionSubject('team_discussion', visibleDiscussion);
  registerReactionSubject('team_discussion_comment', visibleComment);
}

const READ = ['read:discussion'];

export const teamDiscussionsGraphQL: GraphQLModule = {
  name: 'team-discussions',
  register: registerDiscussionReactables,
  typeDefs: teamDiscussionsTypeDefs,
  resolvers: {
    Team: teamFields,
    TeamDiscussion: discussionFields,
    TeamDiscussionComment: commentFields,
  },
  nodes: {
    TeamDiscussion: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleDiscussion(g, n);
    },
    TeamDiscussionComment: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleComment(g, n);
    },
  },
  // Reading team discussions takes read:discussion (write:discussion grants it), as on REST.
  scopes: {
    'Team.discussions': READ,
    'Team.discussion': READ,
    TeamDiscussion: READ,
    TeamDiscussionComment: READ,
  },
};
