// Request and response schemas of the commit status routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { COMMIT_STATES } from './statuses.model.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

export const StatusShaParams = Type.Object({ owner: Type.String(), repo: Type.String(), sha: Type.String() });
export const RefParams = Type.Object({ owner: Type.String(), repo: Type.String(), ref: Type.String() });

export const PageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const CreateStatusBody = Type.Object({
  state: StringEnum(COMMIT_STATES),
  target_url: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  context: Type.Optional(Type.String()),
});
export type CreateStatusBody = Static<typeof CreateStatusBody>;

const SimpleStatusProps = {
  url: Type.String(),
  avatar_url: Nullable(Type.String()),
  id: Type.Integer(),
  node_id: Type.String(),
  state: Type.String(),
  description: Nullable(Type.String()),
  target_url: Nullable(Type.String()),
  context: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const SimpleStatus = Type.Object(SimpleStatusProps);
export const Status = Type.Object({ ...SimpleStatusProps, creator: Nullable(SimpleUser) });
export const StatusList = PagedArray(Status);
export type SimpleStatusView = Static<typeof SimpleStatus>;
export type StatusView = Static<typeof Status>;

export const CombinedStatus = Type.Object({
  state: Type.String(),
  // required: whether the branch the status was read for requires the context; null when read for no branch.
  statuses: Type.Array(Type.Object({ ...SimpleStatusProps, required: Nullable(Type.Boolean()) })),
  sha: Type.String(),
  total_count: Type.Integer(),
  // The repository summary comes from the repositories' own view.
  repository: Type.Unknown(),
  commit_url: Type.String(),
  url: Type.String(),
});
export type CombinedStatusView = Static<typeof CombinedStatus>;
