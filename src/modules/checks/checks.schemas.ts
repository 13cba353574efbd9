// Request and response schemas of the check run and check suite routes.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable, PagedArray, PagedObject, StringEnum } from '../../http/schema-types.ts';
import { AppRecord } from '../apps/apps.schemas.ts';
import { ANNOTATION_LEVELS, CHECK_CONCLUSIONS, WRITABLE_STATUSES } from './checks.model.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const RefParams = Type.Object({ owner: Type.String(), repo: Type.String(), ref: Type.String() });
const Id = Type.String({ pattern: '^[0-9]{1,15}$' });
export const RunParams = Type.Object({ owner: Type.String(), repo: Type.String(), check_run_id: Id });
export const SuiteParams = Type.Object({ owner: Type.String(), repo: Type.String(), check_suite_id: Id });

const page = { per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) };
export const PageQuery = Type.Object(page);
export const ListRunsQuery = Type.Object({
  ...page,
  check_name: Type.Optional(Type.String()),
  status: Type.Optional(StringEnum(WRITABLE_STATUSES)),
  filter: Type.Optional(StringEnum(['latest', 'all'] as const)),
  app_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
});
export const ListSuitesQuery = Type.Object({
  ...page,
  check_name: Type.Optional(Type.String()),
  app_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
});

const Annotation = Type.Object({
  path: Type.String(),
  start_line: Type.Integer({ minimum: 1 }),
  end_line: Type.Integer({ minimum: 1 }),
  start_column: Type.Optional(Type.Integer({ minimum: 1 })),
  end_column: Type.Optional(Type.Integer({ minimum: 1 })),
  annotation_level: StringEnum(ANNOTATION_LEVELS),
  message: Type.String(),
  title: Type.Optional(Type.String()),
  raw_details: Type.Optional(Type.String()),
});
const Image = Type.Object({ alt: Type.String(), image_url: Type.String(), caption: Type.Optional(Type.String()) });
const Action = Type.Object({ label: Type.String(), description: Type.String(), identifier: Type.String() });

const outputProps = {
  text: Type.Optional(Type.String()),
  annotations: Type.Optional(Type.Array(Annotation)),
  images: Type.Optional(Type.Array(Image)),
};

const runProps = {
  details_url: Type.Optional(Type.String()),
  external_id: Type.Optional(Type.String()),
  status: Type.Optional(StringEnum(WRITABLE_STATUSES)),
  started_at: Type.Optional(IsoTimestamp),
  conclusion: Type.Optional(StringEnum(CHECK_CONCLUSIONS)),
  completed_at: Type.Optional(IsoTimestamp),
  actions: Type.Optional(Type.Array(Action)),
};

export const CreateRunBody = Type.Object({
  name: Type.String(),
  head_sha: Type.String(),
  ...runProps,
  output: Type.Optional(Type.Object({ title: Type.String(), summary: Type.String(), ...outputProps })),
});
export type CreateRunInput = Static<typeof CreateRunBody>;

export const UpdateRunBody = Type.Object({
  name: Type.Optional(Type.String()),
  ...runProps,
  output: Type.Optional(Type.Object({ title: Type.Optional(Type.String()), summary: Type.String(), ...outputProps })),
});
export type UpdateRunInput = Static<typeof UpdateRunBody>;

export const CreateSuiteBody = Type.Object({ head_sha: Type.String() });

export const PreferencesBody = Type.Object({
  auto_trigger_checks: Type.Optional(Type.Array(Type.Object({ app_id: Type.Integer({ minimum: 1 }), setting: Type.Boolean() }))),
});

// ---------------------------------------------------------------- responses

const PullRef = Type.Object({ ref: Type.String(), sha: Type.String(), repo: Type.Object({ id: Type.Integer(), url: Type.String(), name: Type.String() }) });
export const PullMinimal = Type.Object({ id: Type.Integer(), number: Type.Integer(), url: Type.String(), head: PullRef, base: PullRef });

export const CheckRun = Type.Object({
  id: Type.Integer(),
  head_sha: Type.String(),
  node_id: Type.String(),
  external_id: Nullable(Type.String()),
  url: Type.String(),
  html_url: Nullable(Type.String()),
  details_url: Nullable(Type.String()),
  status: Type.String(),
  conclusion: Nullable(Type.String()),
  started_at: Nullable(Type.String()),
  completed_at: Nullable(Type.String()),
  output: Type.Object({
    title: Nullable(Type.String()), summary: Nullable(Type.String()), text: Nullable(Type.String()),
    annotations_count: Type.Integer(), annotations_url: Type.String(),
  }),
  name: Type.String(),
  check_suite: Nullable(Type.Object({ id: Type.Integer() })),
  app: Nullable(AppRecord),
  pull_requests: Type.Array(PullMinimal),
});
export type CheckRunView = Static<typeof CheckRun>;

export const CheckRunList = PagedObject(Type.Object({ total_count: Type.Integer(), check_runs: Type.Array(CheckRun) }));

export const Annotations = PagedArray(Type.Object({
  path: Type.String(),
  start_line: Type.Integer(),
  end_line: Type.Integer(),
  start_column: Nullable(Type.Integer()),
  end_column: Nullable(Type.Integer()),
  annotation_level: Nullable(Type.String()),
  title: Nullable(Type.String()),
  message: Nullable(Type.String()),
  raw_details: Nullable(Type.String()),
  blob_href: Type.String(),
}));

const Person = Type.Object({ name: Type.String(), email: Type.String() });
export const SimpleCommit = Nullable(Type.Object({
  id: Type.String(), tree_id: Type.String(), message: Type.String(), timestamp: Type.String(), author: Nullable(Person), committer: Nullable(Person),
}));

export const CheckSuite = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  head_branch: Nullable(Type.String()),
  head_sha: Type.String(),
  status: Nullable(Type.String()),
  conclusion: Nullable(Type.String()),
  url: Nullable(Type.String()),
  before: Nullable(Type.String()),
  after: Nullable(Type.String()),
  pull_requests: Nullable(Type.Array(PullMinimal)),
  app: Nullable(AppRecord),
  // The repository summary comes from the repositories' own view.
  repository: Type.Unknown(),
  created_at: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
  head_commit: SimpleCommit,
  latest_check_runs_count: Type.Integer(),
  check_runs_url: Type.String(),
  rerequestable: Type.Boolean(),
  runs_rerequestable: Type.Boolean(),
});
export type CheckSuiteView = Static<typeof CheckSuite>;

export const CheckSuiteList = PagedObject(Type.Object({ total_count: Type.Integer(), check_suites: Type.Array(CheckSuite) }));

export const SuitePreferences = Type.Object({
  preferences: Type.Object({ auto_trigger_checks: Type.Array(Type.Object({ app_id: Type.Integer(), setting: Type.Boolean() })) }),
  repository: Type.Unknown(),
});

export const Empty = Type.Object({});
