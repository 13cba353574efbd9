// Request and response schemas of the e-mail address and GPG key routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';

export const Email = Type.Object({
  email: Type.String(),
  primary: Type.Boolean(),
  verified: Type.Boolean(),
  visibility: Nullable(Type.String()),
});

/**
 * {emails: [...]}. Upstream also accepts the array itself: the routes allow an array
 * body and wrap it (emailsArrayBody) before this schema checks it, so that a bad body
 * gets one clear error rather than one per alternative.
 */
export const EmailsBody = Type.Object({ emails: Type.Array(Type.String(), { minItems: 1 }) });
export type EmailsBody = Static<typeof EmailsBody>;

/** preValidation hook of the routes taking EmailsBody: a bare array is the `emails` list. */
export async function emailsArrayBody(request: { body: unknown }): Promise<void> {
  if (Array.isArray(request.body)) request.body = { emails: request.body };
}

export const EmailVisibilityBody = Type.Object({
  visibility: StringEnum(['public', 'private'] as const),
});
export type EmailVisibilityBody = Static<typeof EmailVisibilityBody>;

/** Wharf extension: PATCH /admin/users/{username}/emails. */
export const SetEmailVerifiedBody = Type.Object({
  email: Type.String(),
  verified: Type.Boolean(),
});
export type SetEmailVerifiedBody = Static<typeof SetEmailVerifiedBody>;

const GpgKeyEmail = Type.Object({ email: Type.String(), verified: Type.Boolean() });

const GpgKeyProps = {
  id: Type.Integer(),
  primary_key_id: Nullable(Type.Integer()),
  key_id: Type.String(),
  public_key: Type.String(),
  emails: Type.Array(GpgKeyEmail),
  can_sign: Type.Boolean(),
  can_encrypt_comms: Type.Boolean(),
  can_encrypt_storage: Type.Boolean(),
  can_certify: Type.Boolean(),
  created_at: Type.String(),
  expires_at: Nullable(Type.String()),
  raw_key: Nullable(Type.String()),
  revoked: Type.Boolean(),
};

const GpgSubkey = Type.Object({ ...GpgKeyProps, subkeys: Type.Array(Type.Unknown()) });

export const GpgKey = Type.Object({
  ...GpgKeyProps,
  name: Nullable(Type.String()),
  subkeys: Type.Array(GpgSubkey),
});

export const CreateGpgKeyBody = Type.Object({
  armored_public_key: Type.String({ maxLength: 1024 * 1024 }),
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});
export type CreateGpgKeyBody = Static<typeof CreateGpgKeyBody>;

export const GpgKeyParams = Type.Object({ gpg_key_id: Type.Integer() });

export const ListKeysQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const EmailList = PagedArray(Email);
export const GpgKeyList = PagedArray(GpgKey);
