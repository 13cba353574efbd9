// Request and response schemas of the source import routes (upstream's migrations/*-import operations).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import { IMPORT_VCS } from './imports.model.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const AuthorParams = Type.Object({ owner: Type.String(), repo: Type.String(), author_id: Type.Integer() });

const Credential = Type.String({ maxLength: 1024 });

export const StartImportBody = Type.Object({
  vcs_url: Type.String({ minLength: 1, maxLength: 2048 }),
  vcs: Type.Optional(StringEnum(IMPORT_VCS)),
  vcs_username: Type.Optional(Credential),
  vcs_password: Type.Optional(Credential),
  tfvc_project: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type StartImportBody = Static<typeof StartImportBody>;

export const UpdateImportBody = Type.Object({
  vcs_username: Type.Optional(Credential),
  vcs_password: Type.Optional(Credential),
  vcs: Type.Optional(StringEnum(IMPORT_VCS)),
  // A project choice is sent back as the record shows it (tfvc_project null for Subversion).
  tfvc_project: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  human_name: Type.Optional(Type.String({ maxLength: 1024 })),
});

export const AuthorsQuery = Type.Object({ since: Type.Optional(Type.Integer({ minimum: 0 })) });

export const MapAuthorBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
});

export const LfsBody = Type.Object({ use_lfs: StringEnum(['opt_in', 'opt_out'] as const) });

const ProjectChoice = Type.Object({ vcs: Type.String(), tfvc_project: Nullable(Type.String()), human_name: Type.String() });

export const ImportRecord = Type.Object({
  vcs: Nullable(Type.String()),
  use_lfs: Type.String(),
  vcs_url: Type.String(),
  tfvc_project: Nullable(Type.String()),
  status: Type.String(),
  status_text: Nullable(Type.String()),
  failed_step: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  message: Type.String(),
  percent: Nullable(Type.Integer()),
  import_percent: Nullable(Type.Integer()),
  commit_count: Nullable(Type.Integer()),
  push_percent: Nullable(Type.Integer()),
  has_large_files: Type.Boolean(),
  large_files_size: Type.Integer(),
  large_files_count: Type.Integer(),
  authors_count: Nullable(Type.Integer()),
  project_choices: Nullable(Type.Array(ProjectChoice)),
  url: Type.String(),
  html_url: Type.String(),
  authors_url: Type.String(),
  repository_url: Type.String(),
});

export const Author = Type.Object({
  id: Type.Integer(), remote_id: Type.String(), remote_name: Type.String(), email: Type.String(), name: Type.String(),
  url: Type.String(), import_url: Type.String(),
});
export const AuthorList = Type.Array(Author);

export const LargeFile = Type.Object({ ref_name: Type.String(), path: Type.String(), oid: Type.String(), size: Type.Integer() });
export const LargeFileList = Type.Array(LargeFile);
