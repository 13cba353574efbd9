// Request and response schemas of the deployment routes. Types are checked here; the
// rules on values (blank names, description length) are the service's.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';
import { AppRecord } from '../apps/apps.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { DEPLOYMENT_STATES } from './deployments.model.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

/** A stored id: larger numbers cannot name a row (and would overflow an integer column). */
const Id = () => Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const DeploymentParams = Type.Object({ owner: Type.String(), repo: Type.String(), deployment_id: Id() });
export const StatusParams = Type.Object({ owner: Type.String(), repo: Type.String(), deployment_id: Id(), status_id: Id() });

export const PageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const ListDeploymentsQuery = Type.Object({
  sha: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String()),
  task: Type.Optional(Type.String()),
  environment: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const CreateDeploymentBody = Type.Object({
  ref: Type.String(),
  task: Type.Optional(Type.String()),
  auto_merge: Type.Optional(Type.Boolean()),
  required_contexts: Type.Optional(Type.Array(Type.String())),
  payload: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String()])),
  environment: Type.Optional(Type.String()),
  description: Type.Optional(Nullable(Type.String())),
  transient_environment: Type.Optional(Type.Boolean()),
  production_environment: Type.Optional(Type.Boolean()),
});
export type CreateDeploymentBody = Static<typeof CreateDeploymentBody>;

export const CreateStatusBody = Type.Object({
  state: StringEnum(DEPLOYMENT_STATES),
  target_url: Type.Optional(Type.String()),
  log_url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  environment: Type.Optional(Type.String()),
  environment_url: Type.Optional(Type.String()),
  auto_inactive: Type.Optional(Type.Boolean()),
});
export type CreateStatusBody = Static<typeof CreateStatusBody>;

export const Deployment = Type.Object({
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  sha: Type.String(),
  ref: Type.String(),
  task: Type.String(),
  // An object or a string: serialized as it is.
  payload: Type.Unknown(),
  original_environment: Type.String(),
  environment: Type.String(),
  description: Nullable(Type.String()),
  creator: Nullable(SimpleUser),
  created_at: Type.String(),
  updated_at: Type.String(),
  statuses_url: Type.String(),
  repository_url: Type.String(),
  transient_environment: Type.Boolean(),
  production_environment: Type.Boolean(),
  performed_via_github_app: Nullable(AppRecord),
});
export type DeploymentView = Static<typeof Deployment>;
export const DeploymentList = PagedArray(Deployment);

export const MergedResponse = Type.Object({ message: Type.String() });

export const DeploymentStatus = Type.Object({
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  state: Type.String(),
  creator: Nullable(SimpleUser),
  description: Type.String(),
  environment: Type.String(),
  target_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  deployment_url: Type.String(),
  repository_url: Type.String(),
  environment_url: Type.String(),
  log_url: Type.String(),
  performed_via_github_app: Nullable(AppRecord),
});
export type DeploymentStatusView = Static<typeof DeploymentStatus>;
export const DeploymentStatusList = PagedArray(DeploymentStatus);
