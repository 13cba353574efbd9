// Request and response schemas of the site-admin migration import routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';

export const ImportParams = Type.Object({ import_id: Type.Integer() });

/** The archive is the body (application/gzip); or, with an empty body, archive_path names a file on the server. */
export const StartQuery = Type.Object({
  archive_path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  org: Type.Optional(Type.String({ minLength: 1, maxLength: 39 })),
  on_conflict: Type.Optional(StringEnum(['skip', 'rename'] as const)),
});
export type StartQuery = Static<typeof StartQuery>;

const Conflict = Type.Object({
  kind: Type.String(),
  source: Type.String(),
  resolution: Type.String(),
  target: Nullable(Type.String()),
  message: Type.String(),
});

export const MigrationImport = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  state: StringEnum(['pending', 'importing', 'imported', 'failed'] as const),
  org: Nullable(Type.String()),
  on_conflict: Type.String(),
  progress: Nullable(Type.Object({ step: Type.String(), done: Type.Integer(), total: Type.Integer() })),
  failure: Nullable(Type.String()),
  owner: Nullable(Type.Object({ login: Type.String(), type: Type.String(), created: Type.Boolean() })),
  users: Type.Object({ created: Type.Array(Type.String()), mapped: Type.Array(Type.String()) }),
  repositories: Type.Array(Type.Object({ source: Type.String(), target: Type.String() })),
  conflicts: Type.Array(Conflict),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type MigrationImport = Static<typeof MigrationImport>;
