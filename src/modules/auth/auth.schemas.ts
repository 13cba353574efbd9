// Form bodies of the token settings pages. Fields are optional strings: a missing one
// gets the form back with its message, not a JSON error.
import { Type, type Static } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 4096 }));

/** note, lifetime and one `scope.<name>` checkbox field per scope chosen. */
export const NewTokenForm = Type.Object(
  { authenticity_token: Field, note: Field, lifetime: Field },
  { additionalProperties: Type.String({ maxLength: 16 }) },
);
export type NewTokenForm = Static<typeof NewTokenForm> & Record<string, string | undefined>;

export const CsrfForm = Type.Object({ authenticity_token: Field });

export const TokenIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
