// Request and response schemas of the contents routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';
import { GitCommit, PersonBody } from './git-data.schemas.ts';

export const RefQuery = Type.Object({ ref: Type.Optional(Type.String()) });

export const PutFileBody = Type.Object({
  message: Type.String(),
  content: Type.String(),
  sha: Type.Optional(Type.String()),
  branch: Type.Optional(Type.String()),
  committer: Type.Optional(PersonBody),
  author: Type.Optional(PersonBody),
});
export type PutFileBody = Static<typeof PutFileBody>;

export const DeleteFileBody = Type.Object({
  message: Type.String(),
  sha: Type.String(),
  branch: Type.Optional(Type.String()),
  committer: Type.Optional(PersonBody),
  author: Type.Optional(PersonBody),
});
export type DeleteFileBody = Static<typeof DeleteFileBody>;

const Links = Type.Object({ self: Type.String(), git: Nullable(Type.String()), html: Nullable(Type.String()) });

export const FileSummary = Type.Object({
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  size: Type.Integer(),
  url: Type.String(),
  html_url: Nullable(Type.String()),
  git_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  type: Type.String(),
  _links: Links,
});

export const FileCommit = Type.Object({ content: Nullable(FileSummary), commit: GitCommit });
