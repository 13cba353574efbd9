// Request and response schemas of the runner, runner group and runner protocol routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedObject, StringEnum } from '../../http/schema-types.ts';
import { Repository } from '../repos/repos.schemas.ts';
import { GROUP_VISIBILITIES, RUNNER_OS } from './runners.model.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

/** A stored id: larger numbers cannot name a row. */
const Id = () => Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const Ids = () => Type.Array(Id(), { maxItems: 1000 });

export const OrgParams = Type.Object({ org: Type.String() });
export const OrgRunnerParams = Type.Object({ org: Type.String(), runner_id: Id() });
export const RepoRunnerParams = Type.Object({ owner: Type.String(), repo: Type.String(), runner_id: Id() });
export const OrgLabelParams = Type.Object({ org: Type.String(), runner_id: Id(), name: Type.String() });
export const RepoLabelParams = Type.Object({ owner: Type.String(), repo: Type.String(), runner_id: Id(), name: Type.String() });
export const GroupParams = Type.Object({ org: Type.String(), runner_group_id: Id() });
export const GroupRepositoryParams = Type.Object({ org: Type.String(), runner_group_id: Id(), repository_id: Id() });
export const GroupRunnerParams = Type.Object({ org: Type.String(), runner_group_id: Id(), runner_id: Id() });

export const PageQuery = Type.Object({ per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) });
export const ListRunnersQuery = Type.Object({
  name: Type.Optional(Type.String()), per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()),
});
export const ListGroupsQuery = Type.Object({
  visible_to_repository: Type.Optional(Type.String()), per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()),
});

const LabelName = Type.String({ maxLength: 256 });
export const LabelsBody = Type.Object({ labels: Type.Array(LabelName, { minItems: 1, maxItems: 100 }) });
export const SetLabelsBody = Type.Object({ labels: Type.Array(LabelName, { maxItems: 100 }) });

export const CreateGroupBody = Type.Object({
  name: Type.String({ maxLength: 1024 }),
  visibility: Type.Optional(StringEnum(GROUP_VISIBILITIES)),
  selected_repository_ids: Type.Optional(Ids()),
  runners: Type.Optional(Ids()),
  allows_public_repositories: Type.Optional(Type.Boolean()),
  restricted_to_workflows: Type.Optional(Type.Boolean()),
  selected_workflows: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
  network_configuration_id: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const UpdateGroupBody = Type.Object({
  name: Type.String({ maxLength: 1024 }),
  visibility: Type.Optional(StringEnum(GROUP_VISIBILITIES)),
  allows_public_repositories: Type.Optional(Type.Boolean()),
  restricted_to_workflows: Type.Optional(Type.Boolean()),
  selected_workflows: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
  network_configuration_id: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
});
export type UpdateGroupBody = Static<typeof UpdateGroupBody>;

export const SetGroupRepositoriesBody = Type.Object({ selected_repository_ids: Ids() });
export const SetGroupRunnersBody = Type.Object({ runners: Ids() });

// ---------------------------------------------------------------- responses

export const RunnerLabel = Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String() });
export const LabelList = Type.Object({ total_count: Type.Integer(), labels: Type.Array(RunnerLabel) });

export const Runner = Type.Object({
  id: Type.Integer(),
  /** Organization runners only: a repository's runner is in no group. */
  runner_group_id: Type.Optional(Type.Integer()),
  name: Type.String(),
  os: Type.String(),
  status: Type.String(),
  busy: Type.Boolean(),
  ephemeral: Type.Boolean(),
  /** The runner software's version as it registered; null if it did not say. */
  version: Nullable(Type.String()),
  labels: Type.Array(RunnerLabel),
});
export type RunnerView = Static<typeof Runner>;
export const RunnerList = PagedObject(Type.Object({ total_count: Type.Integer(), runners: Type.Array(Runner) }));

/**
 * A registration or remove token (upstream's authentication-token). Which repositories
 * its runner serves: a repository's token names its one repository; an organization's
 * serves all of the organization's (as its groups allow), and like upstream's tokens
 * for all repositories it lists none.
 */
export const RunnerToken = Type.Union([
  Type.Object({ token: Type.String(), expires_at: Type.String(), repository_selection: Type.Literal('all') }),
  Type.Object({ token: Type.String(), expires_at: Type.String(), repository_selection: Type.Literal('selected'), repositories: Type.Array(Repository) }),
]);

export const RunnerGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  visibility: Type.String(),
  default: Type.Boolean(),
  selected_repositories_url: Type.Optional(Type.String()),
  runners_url: Type.String(),
  hosted_runners_url: Type.String(),
  network_configuration_id: Nullable(Type.String()),
  inherited: Type.Boolean(),
  inherited_allows_public_repositories: Type.Boolean(),
  allows_public_repositories: Type.Boolean(),
  restricted_to_workflows: Type.Boolean(),
  selected_workflows: Type.Array(Type.String()),
  workflow_restrictions_read_only: Type.Boolean(),
});
export type RunnerGroupView = Static<typeof RunnerGroup>;
export const RunnerGroupList = PagedObject(Type.Object({ total_count: Type.Integer(), runner_groups: Type.Array(RunnerGroup) }));
/** The repositories are whole records, as upstream's (its schema's minimal-repository, filled). */
export const GroupRepositoryList = PagedObject(Type.Object({ total_count: Type.Integer(), repositories: Type.Array(Repository) }));

// ---------------------------------------------------------------- runner protocol

export const RegisterBody = Type.Object({
  token: Type.String({ maxLength: 256 }),
  name: Type.String({ maxLength: 1024 }),
  os: StringEnum(RUNNER_OS),
  architecture: Type.Optional(Type.String({ maxLength: 256 })),
  labels: Type.Optional(Type.Array(LabelName, { maxItems: 100 })),
  runner_group: Type.Optional(Type.String({ maxLength: 1024 })),
  version: Type.Optional(Type.String({ maxLength: 256 })),
  ephemeral: Type.Optional(Type.Boolean()),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const RegisteredRunner = Type.Object({ runner: Runner, credential: Type.String() });

export const HeartbeatBody = Type.Object({ busy: Type.Optional(Type.Boolean()) });
export const RemoveBody = Type.Object({ token: Type.String({ maxLength: 256 }) });

export const ReportJobBody = Type.Object({
  repository: Type.String({ maxLength: 1024 }),
  workflow_path: Type.String({ maxLength: 4096 }),
  ref: Type.Optional(Type.String({ maxLength: 1024 })),
  runner_os: Type.Optional(StringEnum(RUNNER_OS)),
  started_at: Type.String({ maxLength: 64 }),
  completed_at: Type.String({ maxLength: 64 }),
  rerun: Type.Optional(Type.Boolean()),
});
export type ReportJobBody = Static<typeof ReportJobBody>;

export const Job = Type.Object({
  id: Type.Integer(),
  repository_id: Nullable(Type.Integer()),
  runner_id: Nullable(Type.Integer()),
  hosted: Type.Boolean(),
  runner_os: Type.String(),
  workflow_path: Type.String(),
  rerun: Type.Boolean(),
  started_at: Type.String(),
  completed_at: Type.String(),
  /** The job's duration rounded up to whole minutes, before the OS multiplier. */
  minutes: Type.Integer(),
});
export type JobView = Static<typeof Job>;
