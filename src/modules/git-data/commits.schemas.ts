// Request and response schemas of the commit and branch routes.
import { Type } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';
import { BranchProtection } from '../branch-protection/protection.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { GitPerson, Verification } from './git-data.schemas.ts';

export const ListCommitsQuery = Type.Object({
  sha: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
  committer: Type.Optional(Type.String()),
  // Not IsoTimestamp: a bad value is list-commits' 400 (commits.service.ts), not the schema's 422.
  since: Type.Optional(Type.String()),
  until: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const PageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const ListBranchesQuery = Type.Object({
  protected: Type.Optional(Type.Boolean()),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

const ShaUrl = Type.Object({ sha: Type.String(), url: Type.String() });

const CommitProps = {
  url: Type.String(),
  sha: Type.String(),
  node_id: Type.String(),
  html_url: Type.String(),
  comments_url: Type.String(),
  commit: Type.Object({
    url: Type.String(),
    author: GitPerson,
    committer: GitPerson,
    message: Type.String(),
    tree: ShaUrl,
    comment_count: Type.Integer(),
    verification: Verification,
  }),
  author: Nullable(SimpleUser),
  committer: Nullable(SimpleUser),
  parents: Type.Array(Type.Object({ sha: Type.String(), url: Type.String(), html_url: Type.String() })),
};

export const Commit = Type.Object(CommitProps);

export const DiffEntry = Type.Object({
  sha: Type.String(),
  filename: Type.String(),
  status: Type.String(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  changes: Type.Integer(),
  blob_url: Type.String(),
  raw_url: Type.String(),
  contents_url: Type.String(),
  patch: Type.Optional(Type.String()),
  previous_filename: Type.Optional(Type.String()),
});

export const FullCommit = Type.Object({
  ...CommitProps,
  stats: Type.Object({ additions: Type.Integer(), deletions: Type.Integer(), total: Type.Integer() }),
  files: Type.Array(DiffEntry),
});

export const ShortBranch = Type.Object({
  name: Type.String(), commit: ShaUrl, protected: Type.Boolean(), protection: BranchProtection, protection_url: Type.String(),
});

export const BranchWithProtection = Type.Object({
  name: Type.String(),
  commit: Commit,
  _links: Type.Object({ self: Type.String(), html: Type.String() }),
  protected: Type.Boolean(),
  protection: BranchProtection,
  protection_url: Type.String(),
});

export const CommitList = PagedArray(Commit);
export const ShortBranchList = PagedArray(ShortBranch);
