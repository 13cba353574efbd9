// Addresses, query strings and form bodies of the site-admin pages (/stafftools). Form
// fields are optional strings, as web.schemas.ts has them: a missing one is answered
// with the form again and its error inline.
import { Type, type Static } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 4096 }));

export const StaffLoginParams = Type.Object({ login: Type.String({ maxLength: 256 }) });
export const StaffListQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 12 })),
  q: Type.Optional(Type.String({ maxLength: 256 })),
});
export type StaffListQuery = Static<typeof StaffListQuery>;

export const StaffTokenForm = Type.Object({ authenticity_token: Field });
export const CreateUserForm = Type.Object({ authenticity_token: Field, login: Field, email: Field });
export const CreateOrgForm = Type.Object({ authenticity_token: Field, login: Field, admin: Field, profile_name: Field });
export const RenameForm = Type.Object({ authenticity_token: Field, login: Field });
export const SuspendForm = Type.Object({ authenticity_token: Field, reason: Field });
export const DeleteForm = Type.Object({ authenticity_token: Field, confirm: Field });
export const PasswordForm = Type.Object({ authenticity_token: Field, password: Field });
