// Request and response schemas of the users routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';

const SimpleUserProps = {
  login: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  avatar_url: Type.String(),
  gravatar_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  followers_url: Type.String(),
  following_url: Type.String(),
  gists_url: Type.String(),
  starred_url: Type.String(),
  subscriptions_url: Type.String(),
  organizations_url: Type.String(),
  repos_url: Type.String(),
  events_url: Type.String(),
  received_events_url: Type.String(),
  type: Type.String(),
  site_admin: Type.Boolean(),
  /** Upstream's "public" or "private" profile view; Wharf's profiles are all public. */
  user_view_type: Type.String(),
};

export const SimpleUser = Type.Object(SimpleUserProps);

const PublicUserProps = {
  ...SimpleUserProps,
  name: Nullable(Type.String()),
  company: Nullable(Type.String()),
  blog: Nullable(Type.String()),
  location: Nullable(Type.String()),
  email: Nullable(Type.String()),
  hireable: Nullable(Type.Boolean()),
  bio: Nullable(Type.String()),
  twitter_username: Nullable(Type.String()),
  /** The address notifications would go to (the primary one): shown to the user alone, null to others. */
  notification_email: Nullable(Type.String()),
  public_repos: Type.Integer(),
  public_gists: Type.Integer(),
  followers: Type.Integer(),
  following: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const PublicUser = Type.Object(PublicUserProps);

/** GET /user: the private fields are present only when the caller may see them. */
export const AuthenticatedUser = Type.Object({
  ...PublicUserProps,
  private_gists: Type.Optional(Type.Integer()),
  total_private_repos: Type.Optional(Type.Integer()),
  owned_private_repos: Type.Optional(Type.Integer()),
  disk_usage: Type.Optional(Type.Integer()),
  collaborators: Type.Optional(Type.Integer()),
  two_factor_authentication: Type.Optional(Type.Boolean()),
  plan: Type.Optional(Type.Object({
    name: Type.String(),
    space: Type.Integer(),
    private_repos: Type.Integer(),
    collaborators: Type.Integer(),
  })),
});

export const UsernameParams = Type.Object({ username: Type.String() });

export const ListUsersQuery = Type.Object({
  since: Type.Optional(Type.Integer({ minimum: 0 })),
  per_page: Type.Optional(Type.String()),
});
export type ListUsersQuery = Static<typeof ListUsersQuery>;

export const UpdateUserBody = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  email: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  blog: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  twitter_username: Type.Optional(Nullable(Type.String({ maxLength: 15, pattern: '^[A-Za-z0-9_]*$' }))),
  company: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  location: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  hireable: Type.Optional(Nullable(Type.Boolean())),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 160 }))),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;
