// Request and response schemas of the Git LFS API (git-lfs's docs/api: batch.md,
// basic-transfers.md). Object ids are plain strings here: a malformed one is the
// per-object 422 the batch answers with, not a refusal of the whole request.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/schema-types.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const ObjectParams = Type.Object({ owner: Type.String(), repo: Type.String(), oid: Type.String() });

/** Objects may be larger than the 32-bit integers every other schema is bounded to. */
const Size = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Oid = Type.String({ maxLength: 128 });

const ObjectSpec = Type.Object({ oid: Oid, size: Size });

/** git-lfs sends batches of 100 by default (lfs.transfer.batchSize); far more is no client's. */
export const MAX_BATCH_OBJECTS = 1000;

export const BatchBody = Type.Object({
  operation: StringEnum(['download', 'upload'] as const),
  transfers: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
  ref: Type.Optional(Type.Union([Type.Object({ name: Type.String({ maxLength: 1024 }) }), Type.Null()])),
  objects: Type.Array(ObjectSpec, { maxItems: MAX_BATCH_OBJECTS }),
  hash_algo: Type.Optional(Type.String({ maxLength: 100 })),
});
export type BatchBody = Static<typeof BatchBody>;

const Action = Type.Object({
  href: Type.String(),
  header: Type.Optional(Type.Record(Type.String(), Type.String())),
  expires_in: Type.Integer(),
});
export type LfsAction = Static<typeof Action>;

const BatchObject = Type.Object({
  oid: Type.String(),
  size: Size,
  authenticated: Type.Optional(Type.Boolean()),
  actions: Type.Optional(Type.Object({
    download: Type.Optional(Action),
    upload: Type.Optional(Action),
    verify: Type.Optional(Action),
  })),
  error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String() })),
});
export type BatchObject = Static<typeof BatchObject>;

export const BatchResponse = Type.Object({
  transfer: Type.Literal('basic'),
  objects: Type.Array(BatchObject),
  hash_algo: Type.Literal('sha256'),
});
export type BatchResponse = Static<typeof BatchResponse>;

export const VerifyBody = ObjectSpec;
export type VerifyBody = Static<typeof VerifyBody>;
export const VerifiedObject = ObjectSpec;
export type VerifiedObject = Static<typeof VerifiedObject>;

/** LFS's error form (batch.md, "Response Errors"). */
export const LfsErrorBody = Type.Object({
  message: Type.String(),
  documentation_url: Type.Optional(Type.String()),
  request_id: Type.Optional(Type.String()),
});
export type LfsErrorBody = Static<typeof LfsErrorBody>;
