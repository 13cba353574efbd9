// Request and response schemas of the organization and user migration routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray, StringEnum } from '../../http/schema-types.ts';
import { Repository } from '../repos/repos.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

export const MIGRATIONS_PREVIEW = 'wyandotte';
export const EXCLUDABLE = ['repositories'] as const;

export const OrgParams = Type.Object({ org: Type.String() });
export const OrgMigrationParams = Type.Object({ org: Type.String(), migration_id: Type.Integer() });
export const OrgLockParams = Type.Object({ org: Type.String(), migration_id: Type.Integer(), repo_name: Type.String() });
export const UserMigrationParams = Type.Object({ migration_id: Type.Integer() });
export const UserLockParams = Type.Object({ migration_id: Type.Integer(), repo_name: Type.String() });
export const ArchiveParams = Type.Object({ guid: Type.String() });
export const ArchiveQuery = Type.Object({ token: Type.String() });

export const PageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const ListQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  /** exclude=repositories, or exclude[]=repositories (repeated). */
  exclude: Type.Optional(Type.Union([StringEnum(EXCLUDABLE), Type.Array(StringEnum(EXCLUDABLE))])),
});
export type ListQuery = Static<typeof ListQuery>;

export const StartBody = Type.Object({
  repositories: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 1000 }),
  lock_repositories: Type.Optional(Type.Boolean()),
  exclude_metadata: Type.Optional(Type.Boolean()),
  exclude_git_data: Type.Optional(Type.Boolean()),
  exclude_attachments: Type.Optional(Type.Boolean()),
  exclude_releases: Type.Optional(Type.Boolean()),
  exclude_owner_projects: Type.Optional(Type.Boolean()),
  org_metadata_only: Type.Optional(Type.Boolean()),
  exclude: Type.Optional(Type.Array(StringEnum(EXCLUDABLE))),
});
export type StartBody = Static<typeof StartBody>;

export const Migration = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  owner: Nullable(SimpleUser),
  guid: Type.String(),
  state: Type.String(),
  lock_repositories: Type.Boolean(),
  exclude_metadata: Type.Boolean(),
  exclude_git_data: Type.Boolean(),
  exclude_attachments: Type.Boolean(),
  exclude_releases: Type.Boolean(),
  exclude_owner_projects: Type.Boolean(),
  org_metadata_only: Type.Boolean(),
  repositories: Type.Array(Repository),
  url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  archive_url: Type.Optional(Type.String()),
  exclude: Type.Array(Type.String()),
  /** Wharf's addition: where a running export is ({ step, done, total }). */
  progress: Nullable(Type.Object({ step: Type.String(), done: Type.Integer(), total: Type.Integer() })),
  /** Wharf's addition: why a failed export failed. */
  failure: Nullable(Type.String()),
});
export const MigrationList = PagedArray(Migration);
export const RepositoryList = PagedArray(Repository);
