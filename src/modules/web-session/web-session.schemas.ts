// Form bodies and query strings of the sign-in pages. Fields are optional strings:
// the handlers answer a missing one with the form again, not with a JSON error.
import { Type, type Static } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 4096 }));

export const LoginQuery = Type.Object({ return_to: Field, login: Field });
export const LoginBody = Type.Object({ login: Field, password: Field, authenticity_token: Field, return_to: Field });
export type LoginBody = Static<typeof LoginBody>;

export const CsrfBody = Type.Object({ authenticity_token: Field });

export const PasswordBody = Type.Object({ authenticity_token: Field, current_password: Field, new_password: Field });

export const SetPasswordBody = Type.Object({ password: Type.String() });
