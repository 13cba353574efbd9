// Request and response schemas of the compare and contributors routes.
import { Type } from '@sinclair/typebox';
import { PagedArray } from '../../http/schema-types.ts';
import { Commit, DiffEntry } from '../git-data/commits.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

export const Comparison = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  permalink_url: Type.String(),
  diff_url: Type.String(),
  patch_url: Type.String(),
  base_commit: Commit,
  merge_base_commit: Commit,
  status: Type.String(),
  ahead_by: Type.Integer(),
  behind_by: Type.Integer(),
  total_commits: Type.Integer(),
  commits: Type.Array(Commit),
  files: Type.Array(DiffEntry),
});

export const ComparePageQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const ListContributorsQuery = Type.Object({
  // Upstream takes "1" or "true"; any other value is false.
  anon: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

const Anonymous = Type.Object({ type: Type.Literal('Anonymous'), email: Type.String(), name: Type.String(), contributions: Type.Integer() });
export const ContributorList = PagedArray(Type.Union([Type.Composite([SimpleUser, Type.Object({ contributions: Type.Integer() })]), Anonymous]));
