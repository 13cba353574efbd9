// SQL of apps, their keys and the manifest codes. Column lists once: the client secret
// hash and the sealed webhook secret are selected only by the functions that need them.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AppKeysTable, AppsTable } from '../../db/schema.ts';

export type AppRow = Omit<Selectable<AppsTable>, 'client_secret_hash' | 'webhook_secret' | 'name_lower'>;
export type KeyRow = Selectable<AppKeysTable>;

const APP_COLUMNS = [
  'id', 'owner_id', 'bot_user_id', 'slug', 'name', 'description', 'external_url', 'callback_url', 'setup_url', 'client_id',
  'webhook_url', 'webhook_content_type', 'webhook_insecure_ssl', 'webhook_active', 'public', 'permissions', 'events',
  'created_at', 'updated_at', 'user_tokens_expire',
] as const;

export async function insertApp(db: Executor, row: Insertable<AppsTable>): Promise<AppRow> {
  return db.insertInto('apps').values(row).returning(APP_COLUMNS).executeTakeFirstOrThrow();
}

export async function findAppById(db: Executor, id: number): Promise<AppRow | undefined> {
  return db.selectFrom('apps').select(APP_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findAppBySlug(db: Executor, slug: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').select(APP_COLUMNS).where('slug', '=', slug.toLowerCase()).executeTakeFirst();
}

export async function findAppByClientId(db: Executor, clientId: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').select(APP_COLUMNS).where('client_id', '=', clientId).executeTakeFirst();
}

export async function appsByIds(db: Executor, ids: readonly number[]): Promise<AppRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('apps').select(APP_COLUMNS).where('id', 'in', [...ids]).execute();
}

export async function slugOrNameTaken(db: Executor, slug: string, nameLower: string): Promise<boolean> {
  const row = await db.selectFrom('apps').select('id').where((eb) => eb.or([eb('slug', '=', slug), eb('name_lower', '=', nameLower)])).executeTakeFirst();
  return row !== undefined;
}

export async function listAppsOfOwners(db: Executor, ownerIds: readonly number[]): Promise<AppRow[]> {
  if (ownerIds.length === 0) return [];
  return db.selectFrom('apps').select(APP_COLUMNS).where('owner_id', 'in', [...ownerIds]).orderBy('id').execute();
}

export async function updateApp(db: Executor, id: number, changes: Partial<Insertable<AppsTable>>): Promise<AppRow | undefined> {
  return db.updateTable('apps').set(changes).where('id', '=', id).returning(APP_COLUMNS).executeTakeFirst();
}

export async function deleteApp(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('apps').where('id', '=', id).execute();
}

export async function clientSecretHashOf(db: Executor, id: number): Promise<string | undefined> {
  return (await db.selectFrom('apps').select('client_secret_hash').where('id', '=', id).executeTakeFirst())?.client_secret_hash;
}

export async function webhookSecretOf(db: Executor, id: number): Promise<string | null> {
  return (await db.selectFrom('apps').select('webhook_secret').where('id', '=', id).executeTakeFirst())?.webhook_secret ?? null;
}

export async function insertKey(db: Executor, row: Insertable<AppKeysTable>): Promise<KeyRow> {
  return db.insertInto('app_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listKeys(db: Executor, appId: number): Promise<KeyRow[]> {
  return db.selectFrom('app_keys').selectAll().where('app_id', '=', appId).orderBy('id').execute();
}

export async function deleteKey(db: Executor, appId: number, keyId: number): Promise<boolean> {
  const res = await db.deleteFrom('app_keys').where('app_id', '=', appId).where('id', '=', keyId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function insertManifestCode(db: Executor, codeHash: string, appId: number, expiresAt: string): Promise<void> {
  await db.insertInto('app_manifest_codes').values({ code_hash: codeHash, app_id: appId, expires_at: expiresAt }).execute();
}

/** Takes the code away and returns it: a code converts once, even with parallel tries. */
export async function takeManifestCode(db: Executor, codeHash: string): Promise<{ app_id: number; expires_at: string } | undefined> {
  return db.deleteFrom('app_manifest_codes').where('code_hash', '=', codeHash).returning(['app_id', 'expires_at']).executeTakeFirst();
}

export async function countInstallations(db: Executor, appIds: readonly number[]): Promise<Map<number, number>> {
  if (appIds.length === 0) return new Map();
  const rows = await db.selectFrom('app_installations').select((eb) => ['app_id', eb.fn.countAll<number>().as('n')])
    .where('app_id', 'in', [...appIds]).groupBy('app_id').execute();
  return new Map(rows.map((r) => [r.app_id, Number(r.n)]));
}
