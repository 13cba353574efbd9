// Response schemas of GET /healthz and GET /readyz (GET /metrics answers text).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';

/** GET /healthz: the process answers. */
export const Liveness = Type.Object({ status: StringEnum(['ok'] as const) });
export type Liveness = Static<typeof Liveness>;

/** One readiness check; `message` says what failed, in words that name no path, host or error text. */
export const ReadinessCheck = Type.Object({
  status: StringEnum(['ok', 'failed'] as const),
  message: Nullable(Type.String()),
});
export type ReadinessCheck = Static<typeof ReadinessCheck>;

/** GET /readyz, 200 and 503 alike: every check and its outcome. */
export const Readiness = Type.Object({
  status: StringEnum(['ok', 'unavailable'] as const),
  checks: Type.Object({ database: ReadinessCheck, storage: ReadinessCheck, git: ReadinessCheck }),
});
export type Readiness = Static<typeof Readiness>;
