// The server's secret key (src/domain/secret-box.ts), loaded once at start:
// WHARF_SECRET_KEY when set (every process sharing one PostgreSQL must get the same),
// otherwise $WHARF_DATA_DIR/secret.key, created on first start (mode 0600).
//
// The database keeps a check value of the key that sealed its secrets; a start with
// another key is refused (loudly, before anything is served) instead of failing every
// webhook signature later.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Executor } from './db/database.ts';
import { newSecretKey, parseSecretKey, SecretBox, SecretKeyError } from './domain/secret-box.ts';

export const SECRET_KEY_FILE = 'secret.key';

export function loadSecretBox(config: Config): SecretBox {
  if (config.secretKey !== null) return new SecretBox(parseSecretKey(config.secretKey, 'WHARF_SECRET_KEY'));
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    // Written whole under another name, then linked into place: a second process starting
    // at the same moment keeps the first one's key, and never reads a half-written file.
    const draft = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(draft, `${newSecretKey().toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return new SecretBox(parseSecretKey(fs.readFileSync(file, 'utf8'), file));
}

/** Records the key's check value on first start; refuses a key other than the recorded one. */
export async function verifySecretKey(db: Executor, box: SecretBox, now: string): Promise<void> {
  await db.insertInto('secret_key_check').values({ id: 1, key_check: box.keyCheck(), created_at: now })
    .onConflict((oc) => oc.column('id').doNothing()).execute();
  const row = await db.selectFrom('secret_key_check').select('key_check').where('id', '=', 1).executeTakeFirstOrThrow();
  if (!box.matches(row.key_check)) {
    throw new SecretKeyError('the secret key (WHARF_SECRET_KEY, or secret.key in the data directory) is not the one that sealed '
      + 'the secrets stored in this database; start with the original key');
  }
}
