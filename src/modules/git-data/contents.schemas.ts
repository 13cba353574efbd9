// Request and response schemas of the contents routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import { LicenseSimple } from '../templates/templates.schemas.ts';
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

/** The addresses every entry of the contents API carries. */
const linkFields = {
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: Type.Object({ self: Type.String(), git: Nullable(Type.String()), html: Nullable(Type.String()) }),
};
const ContentLinks = Type.Object(linkFields);
export type ContentLinks = Static<typeof ContentLinks>;

const entryFields = { name: Type.String(), path: Type.String(), sha: Type.String(), size: Type.Integer(), ...linkFields };

export const FileSummary = Type.Object({ ...entryFields, type: Type.Literal('file') });
export type FileSummary = Static<typeof FileSummary>;

export const FileCommit = Type.Object({ content: Nullable(FileSummary), commit: GitCommit });
export type FileCommit = Static<typeof FileCommit>;

/** A file with its content (base64), or none ('' with encoding "none") when too large to read. */
export const FileContent = Type.Object({ ...entryFields, type: Type.Literal('file'), encoding: Type.String(), content: Type.String() });
export type FileContent = Static<typeof FileContent>;

/** An entry of a directory listing (a submodule is listed as a "file", as upstream does). */
export const DirEntry = Type.Object({ ...entryFields, type: StringEnum(['file', 'dir', 'symlink'] as const) });
export type DirEntry = Static<typeof DirEntry>;

/** A directory as one object (the object media type). */
export const DirContent = Type.Object({ ...entryFields, type: Type.Literal('dir'), entries: Type.Array(DirEntry) });
export const SymlinkContent = Type.Object({ ...entryFields, type: Type.Literal('symlink'), target: Type.String() });
export const SubmoduleContent = Type.Object({ ...entryFields, type: Type.Literal('submodule'), submodule_git_url: Type.String() });

/**
 * GET contents answers by what the path holds: a file, a directory (an array of entries,
 * or one object with the object media type), a symlink or a submodule. The literal
 * `type`s tell the variants apart when the answer is serialized.
 */
export const Content = Type.Union([FileContent, Type.Array(DirEntry), DirContent, SymlinkContent, SubmoduleContent]);
export type Content = Static<typeof Content>;

/** GET /license: the license file and the license it holds. */
export const LicenseContent = Type.Object({ ...FileContent.properties, license: Nullable(LicenseSimple) });
export type LicenseContent = Static<typeof LicenseContent>;
