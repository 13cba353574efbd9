// Request and response schemas of the team discussion routes (upstream's published
// description, from before these endpoints left it: @octokit/openapi 22).
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import type { TeamRef } from '../orgs/orgs.service.ts';
import { ReactionRollup } from '../reactions/reactions.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

// Parameters. Every route answers at both of upstream's addresses of a team.

/** Team discussions and their reactions answer 415 to clients not asking for this preview. */
export const DISCUSSIONS_PREVIEW = 'squirrel-girl';

export type TeamForm = 'slug' | 'ids';

const TEAM_PARAMS = {
  slug: { org: Type.String(), team_slug: Type.String() },
  ids: { org_id: Type.Integer(), team_id: Type.Integer() },
} as const;

export const TEAM_BASES: Record<TeamForm, string> = {
  slug: '/orgs/:org/teams/:team_slug',
  ids: '/organizations/:org_id/team/:team_id',
};

/** The path parameters of a route under a team, in either form, with `extra` ones. */
export function teamParams(form: TeamForm, extra: TProperties = {}): TSchema {
  return Type.Object({ ...TEAM_PARAMS[form], ...extra });
}

/** Path parameters as validated by teamParams (integers already coerced). */
export type TeamPath = Record<string, string | number>;

export function teamRefOf(form: TeamForm, params: unknown): TeamRef {
  const p = params as TeamPath;
  return form === 'slug' ? { org: String(p.org), teamSlug: String(p.team_slug) } : { orgId: Number(p.org_id), teamId: Number(p.team_id) };
}

/** An integer path parameter validated by the route's schema. */
export function intParam(params: unknown, name: string): number {
  return Number((params as TeamPath)[name]);
}

export const DiscussionNumber = { discussion_number: Type.Integer() };
export const CommentNumber = { ...DiscussionNumber, comment_number: Type.Integer() };

/** page and per_page as text: out-of-range values fall back to the defaults (pageOf), as upstream. */
const PageProps = {
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
};

const Direction = StringEnum(['asc', 'desc'] as const);

export const ListDiscussionsQuery = Type.Object({
  direction: Type.Optional(Direction),
  pinned: Type.Optional(Type.String()),
  ...PageProps,
});
export type ListDiscussionsQuery = Static<typeof ListDiscussionsQuery>;

export const ListCommentsQuery = Type.Object({ direction: Type.Optional(Direction), ...PageProps });
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

// Bodies

export const CreateDiscussionBody = Type.Object({
  title: Type.String(),
  body: Type.String(),
  private: Type.Optional(Type.Boolean()),
});
export type CreateDiscussionBody = Static<typeof CreateDiscussionBody>;

export const UpdateDiscussionBody = Type.Object({
  title: Type.Optional(Type.String()),
  body: Type.Optional(Type.String()),
});
export type UpdateDiscussionBody = Static<typeof UpdateDiscussionBody>;

export const CommentBody = Type.Object({ body: Type.String() });
export type CommentBody = Static<typeof CommentBody>;

// Responses

export const TeamDiscussion = Type.Object({
  author: Nullable(SimpleUser),
  body: Type.String(),
  body_html: Type.String(),
  body_version: Type.String(),
  comments_count: Type.Integer(),
  comments_url: Type.String(),
  created_at: Type.String(),
  last_edited_at: Nullable(Type.String()),
  html_url: Type.String(),
  node_id: Type.String(),
  number: Type.Integer(),
  pinned: Type.Boolean(),
  private: Type.Boolean(),
  team_url: Type.String(),
  title: Type.String(),
  updated_at: Type.String(),
  url: Type.String(),
  reactions: ReactionRollup,
});

export const TeamDiscussionComment = Type.Object({
  author: Nullable(SimpleUser),
  body: Type.String(),
  body_html: Type.String(),
  body_version: Type.String(),
  created_at: Type.String(),
  last_edited_at: Nullable(Type.String()),
  discussion_url: Type.String(),
  html_url: Type.String(),
  node_id: Type.String(),
  number: Type.Integer(),
  updated_at: Type.String(),
  url: Type.String(),
  reactions: ReactionRollup,
});
