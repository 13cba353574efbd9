// The scim module's SQL: provisioned identities of organizations and their emails.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { OrgScimUsersTable } from '../../db/schema.ts';
import type { ScimFilter, ScimUser, ScimUserData } from './scim.model.ts';

const COLUMNS = [
  'id', 'org_id', 'scim_id', 'user_name', 'external_id', 'display_name', 'given_name', 'family_name', 'formatted_name',
  'emails', 'groups', 'active', 'user_id', 'created_at', 'updated_at',
] as const;
type Row = Pick<Selectable<OrgScimUsersTable>, (typeof COLUMNS)[number]>;

function toUser(r: Row): ScimUser {
  return {
    rowId: r.id, orgId: r.org_id, id: r.scim_id, userName: r.user_name, externalId: r.external_id, displayName: r.display_name,
    givenName: r.given_name, familyName: r.family_name, formatted: r.formatted_name,
    emails: JSON.parse(r.emails) as ScimUser['emails'], groups: JSON.parse(r.groups) as ScimUser['groups'],
    active: r.active === 1, userId: r.user_id, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function columnsOf(d: ScimUserData) {
  return {
    user_name: d.userName, user_name_key: d.userName.toLowerCase(),
    external_id: d.externalId, external_id_key: d.externalId === null ? null : d.externalId.toLowerCase(),
    display_name: d.displayName, given_name: d.givenName, family_name: d.familyName, formatted_name: d.formatted,
    emails: JSON.stringify(d.emails), groups: JSON.stringify(d.groups), active: d.active ? 1 : 0,
  };
}

function filtered(db: Executor, orgId: number, f: ScimFilter | null) {
  let q = db.selectFrom('org_scim_users').where('org_id', '=', orgId);
  if (!f) return q;
  const key = f.value.toLowerCase();
  if (f.attribute === 'id') q = q.where('scim_id', '=', f.value);
  else if (f.attribute === 'userName') q = q.where('user_name_key', '=', key);
  else if (f.attribute === 'externalId') q = q.where('external_id_key', '=', key);
  else q = q.where('id', 'in', db.selectFrom('org_scim_emails').select('scim_user_id').where('value_key', '=', key));
  return q;
}

export async function list(db: Executor, orgId: number, f: ScimFilter | null, limit: number, offset: number): Promise<ScimUser[]> {
  if (limit === 0) return [];
  const rows = await filtered(db, orgId, f).select(COLUMNS).orderBy('id').limit(limit).offset(offset).execute();
  return rows.map(toUser);
}

export async function count(db: Executor, orgId: number, f: ScimFilter | null): Promise<number> {
  const row = await filtered(db, orgId, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findByScimId(db: Executor, orgId: number, scimId: string): Promise<ScimUser | null> {
  const row = await db.selectFrom('org_scim_users').select(COLUMNS).where('org_id', '=', orgId).where('scim_id', '=', scimId).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findByUserName(db: Executor, orgId: number, userName: string): Promise<ScimUser | null> {
  const row = await db.selectFrom('org_scim_users').select(COLUMNS).where('org_id', '=', orgId).where('user_name_key', '=', userName.toLowerCase()).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Another identity of the organization holding the userName or externalId (409). */
export async function findClash(db: Executor, orgId: number, d: ScimUserData, exceptRowId: number | null): Promise<'userName' | 'externalId' | null> {
  const c = columnsOf(d);
  let q = db.selectFrom('org_scim_users').select(['user_name_key', 'external_id_key']).where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('user_name_key', '=', c.user_name_key), ...(c.external_id_key === null ? [] : [eb('external_id_key', '=', c.external_id_key)])]));
  if (exceptRowId !== null) q = q.where('id', '!=', exceptRowId);
  const row = await q.executeTakeFirst();
  if (!row) return null;
  return row.user_name_key === c.user_name_key ? 'userName' : 'externalId';
}

async function putEmails(db: Executor, rowId: number, d: ScimUserData): Promise<void> {
  await db.deleteFrom('org_scim_emails').where('scim_user_id', '=', rowId).execute();
  const keys = [...new Set(d.emails.map((e) => e.value.toLowerCase()))];
  if (keys.length) await db.insertInto('org_scim_emails').values(keys.map((value_key) => ({ scim_user_id: rowId, value_key }))).execute();
}

export async function insert(db: Executor, orgId: number, scimId: string, d: ScimUserData, userId: number | null, now: string): Promise<ScimUser> {
  const row = await db.insertInto('org_scim_users')
    .values({ org_id: orgId, scim_id: scimId, ...columnsOf(d), user_id: userId, created_at: now, updated_at: now })
    .returning(COLUMNS).executeTakeFirstOrThrow();
  await putEmails(db, row.id, d);
  return toUser(row);
}

export async function update(db: Executor, rowId: number, d: ScimUserData, now: string): Promise<ScimUser> {
  const row = await db.updateTable('org_scim_users').set({ ...columnsOf(d), updated_at: now }).where('id', '=', rowId)
    .returning(COLUMNS).executeTakeFirstOrThrow();
  await putEmails(db, rowId, d);
  return toUser(row);
}

export async function linkUser(db: Executor, rowId: number, userId: number, now: string): Promise<void> {
  await db.updateTable('org_scim_users').set({ user_id: userId, updated_at: now }).where('id', '=', rowId).execute();
}

export async function remove(db: Executor, rowId: number): Promise<void> {
  await db.deleteFrom('org_scim_emails').where('scim_user_id', '=', rowId).execute();
  await db.deleteFrom('org_scim_users').where('id', '=', rowId).execute();
}
