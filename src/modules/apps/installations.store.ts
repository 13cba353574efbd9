// SQL of installations, their selected repositories and their access tokens (hashes only).
import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AppInstallationsTable, AppInstallationTokensTable, Database } from '../../db/schema.ts';

export type InstallationRow = Selectable<AppInstallationsTable>;
export type TokenRow = Selectable<AppInstallationTokensTable>;

export async function insertInstallation(db: Executor, row: Insertable<AppInstallationsTable>): Promise<InstallationRow> {
  return db.insertInto('app_installations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findInstallation(db: Executor, id: number): Promise<InstallationRow | undefined> {
  return db.selectFrom('app_installations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findByAppAndAccount(db: Executor, appId: number, accountId: number): Promise<InstallationRow | undefined> {
  return db.selectFrom('app_installations').selectAll().where('app_id', '=', appId).where('account_id', '=', accountId).executeTakeFirst();
}

export interface InstallationFilter {
  appId?: number;
  accountIds?: readonly number[];
  /** updated_at at or after this stored timestamp. */
  since?: string;
  /** true: only installations whose accepted permissions or events differ from the app's present ones; false: only the others. */
  outdated?: boolean;
}

export async function listInstallations(db: Executor, f: InstallationFilter, limit: number, offset: number): Promise<{ rows: InstallationRow[]; total: number }> {
  if (f.accountIds && f.accountIds.length === 0) return { rows: [], total: 0 };
  let q = db.selectFrom('app_installations');
  if (f.appId !== undefined) q = q.where('app_id', '=', f.appId);
  if (f.accountIds) q = q.where('account_id', 'in', [...f.accountIds]);
  if (f.since !== undefined) q = q.where('updated_at', '>=', f.since);
  if (f.outdated !== undefined) {
    // Installing stores the app's permissions and events as the app stores them, so equal
    // text is an accepted set that is up to date.
    const lagging = (eb: ExpressionBuilder<Database, 'app_installations'>) => eb.exists(eb.selectFrom('apps').select('apps.id')
      .whereRef('apps.id', '=', 'app_installations.app_id')
      .where((e) => e.or([e('apps.permissions', '!=', e.ref('app_installations.permissions')), e('apps.events', '!=', e.ref('app_installations.events'))])));
    q = q.where((eb) => (f.outdated ? lagging(eb) : eb.not(lagging(eb))));
  }
  const [rows, count] = await Promise.all([
    q.selectAll('app_installations').orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function updateInstallation(db: Executor, id: number, changes: Partial<Insertable<AppInstallationsTable>>): Promise<InstallationRow | undefined> {
  return db.updateTable('app_installations').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteInstallation(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('app_installations').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function selectedRepositoryIds(db: Executor, installationId: number): Promise<number[]> {
  const rows = await db.selectFrom('app_installation_repositories').select('repository_id')
    .where('installation_id', '=', installationId).orderBy('repository_id').execute();
  return rows.map((r) => r.repository_id);
}

export async function replaceSelectedRepositories(db: Executor, installationId: number, repositoryIds: readonly number[]): Promise<void> {
  await db.deleteFrom('app_installation_repositories').where('installation_id', '=', installationId).execute();
  if (repositoryIds.length) {
    await db.insertInto('app_installation_repositories').values(repositoryIds.map((id) => ({ installation_id: installationId, repository_id: id }))).execute();
  }
}

/** Adds one repository; false when it was already selected. */
export async function addSelectedRepository(db: Executor, installationId: number, repositoryId: number): Promise<boolean> {
  const row = await db.insertInto('app_installation_repositories').values({ installation_id: installationId, repository_id: repositoryId })
    .onConflict((oc) => oc.columns(['installation_id', 'repository_id']).doNothing()).returning('repository_id').executeTakeFirst();
  return row !== undefined;
}

export async function removeSelectedRepository(db: Executor, installationId: number, repositoryId: number): Promise<boolean> {
  const res = await db.deleteFrom('app_installation_repositories').where('installation_id', '=', installationId)
    .where('repository_id', '=', repositoryId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function insertToken(db: Executor, row: Insertable<AppInstallationTokensTable>): Promise<TokenRow> {
  return db.insertInto('app_installation_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findTokenByHash(db: Executor, hash: string): Promise<TokenRow | undefined> {
  return db.selectFrom('app_installation_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function deleteToken(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('app_installation_tokens').where('id', '=', id).execute();
}

export async function deleteExpiredTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('app_installation_tokens').where('expires_at', '<=', now).execute();
}

export async function findTokenById(db: Executor, id: number): Promise<TokenRow | undefined> {
  return db.selectFrom('app_installation_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Installations on these accounts that are not suspended (webhook fan-out). */
export async function liveInstallationsOnAccounts(db: Executor, accountIds: readonly number[]): Promise<InstallationRow[]> {
  if (accountIds.length === 0) return [];
  return db.selectFrom('app_installations').selectAll().where('account_id', 'in', [...accountIds]).where('suspended_at', 'is', null).orderBy('id').execute();
}

/** Which of these repositories each of these installations selected. */
export async function selectionsAmong(db: Executor, installationIds: readonly number[], repositoryIds: readonly number[]): Promise<{ installation_id: number; repository_id: number }[]> {
  if (installationIds.length === 0 || repositoryIds.length === 0) return [];
  return db.selectFrom('app_installation_repositories').select(['installation_id', 'repository_id'])
    .where('installation_id', 'in', [...installationIds]).where('repository_id', 'in', [...repositoryIds]).execute();
}

/** Every installation of an app that is not suspended (what its user tokens reach through). */
export async function liveInstallationsOfApp(db: Executor, appId: number): Promise<InstallationRow[]> {
  return db.selectFrom('app_installations').selectAll().where('app_id', '=', appId).where('suspended_at', 'is', null).orderBy('id').execute();
}

/** The selected repositories of several installations at once. */
export async function selectionsOf(db: Executor, installationIds: readonly number[]): Promise<{ installation_id: number; repository_id: number }[]> {
  if (installationIds.length === 0) return [];
  return db.selectFrom('app_installation_repositories').select(['installation_id', 'repository_id'])
    .where('installation_id', 'in', [...installationIds]).execute();
}
