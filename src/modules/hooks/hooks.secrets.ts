// Hook secrets at rest: sealed with the server's key (ctx.secrets) when written, opened
// only to sign a delivery. Rows written before sealing (plaintext, no sealed prefix)
// are still read as they are, and sealed at the next start (sealUnsealedSecrets, run
// by the delivery worker's first pass).
import type { AppContext } from '../../context.ts';
import { isSealed, SEALED_PREFIX } from '../../domain/secret-box.ts';
import * as store from './hooks.store.ts';

/** Authenticated with the value: a sealed hook secret opens only as one. */
const PURPOSE = 'hooks.config_secret';

export function sealSecret(ctx: AppContext, secret: string | null): string | null {
  return secret === null ? null : ctx.secrets.seal(secret, PURPOSE);
}

/** The secret to sign with; throws SecretKeyError when the stored value does not open. */
export function openSecret(ctx: AppContext, stored: string): string {
  return isSealed(stored) ? ctx.secrets.open(stored, PURPOSE) : stored;
}

/** Seals the secrets stored before sealing; returns how many. */
export async function sealUnsealedSecrets(ctx: AppContext): Promise<number> {
  const rows = await store.unsealedSecrets(ctx.db, SEALED_PREFIX);
  for (const r of rows) await store.replaceSecret(ctx.db, r.id, r.secret, ctx.secrets.seal(r.secret, PURPOSE));
  return rows.length;
}
