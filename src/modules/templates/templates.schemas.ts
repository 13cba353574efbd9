// Request and response schemas of /gitignore/templates and /licenses.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';

export const TemplateNameParams = Type.Object({ name: Type.String() });
export const LicenseParams = Type.Object({ license: Type.String() });

/** page and per_page as text: out-of-range values fall back to the defaults (pageOf), as upstream. */
export const ListLicensesQuery = Type.Object({
  featured: Type.Optional(Type.Boolean()),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});
export type ListLicensesQuery = Static<typeof ListLicensesQuery>;

/** "gitignore-template" upstream. */
export const GitignoreTemplate = Type.Object({
  name: Type.String(),
  source: Type.String(),
});
export type GitignoreTemplate = Static<typeof GitignoreTemplate>;

/** "license-simple" upstream: the list entry, and a repository's `license`. */
export const LicenseSimple = Type.Object({
  key: Type.String(),
  name: Type.String(),
  spdx_id: Nullable(Type.String()),
  url: Nullable(Type.String()),
  node_id: Type.String(),
});
export type LicenseSimple = Static<typeof LicenseSimple>;
export const LicenseSimpleList = PagedArray(LicenseSimple);

/** "license" upstream. */
export const License = Type.Object({
  key: Type.String(),
  name: Type.String(),
  spdx_id: Nullable(Type.String()),
  url: Nullable(Type.String()),
  node_id: Type.String(),
  html_url: Type.String(),
  description: Type.String(),
  implementation: Type.String(),
  permissions: Type.Array(Type.String()),
  conditions: Type.Array(Type.String()),
  limitations: Type.Array(Type.String()),
  body: Type.String(),
  featured: Type.Boolean(),
});
export type License = Static<typeof License>;
