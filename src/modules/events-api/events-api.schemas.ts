// Response and request schemas of the events API routes.
import { Type } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';

const ActorSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  display_login: Type.Optional(Type.String()),
  gravatar_id: Type.String(),
  url: Type.String(),
  avatar_url: Type.String(),
});

export const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  actor: Nullable(ActorSchema),
  repo: Type.Object({ id: Type.Integer(), name: Type.String(), url: Type.String() }),
  // Each type has its own payload (the webhook payload of the event, or the push summary).
  payload: Type.Object({}, { additionalProperties: true }),
  public: Type.Boolean(),
  created_at: Type.String(),
  org: Type.Optional(ActorSchema),
});
export const EventList = PagedArray(Event);

export const EventsQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});
export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const UsernameParams = Type.Object({ username: Type.String() });
export const OrgParams = Type.Object({ org: Type.String() });
