// SQL for the users table. Only the users module calls this.
import type { Executor } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';
import type { Selectable, Updateable } from 'kysely';
import type { Account, AccountType } from './users.model.ts';

const COLUMNS = [
  'id', 'login', 'type', 'name', 'company', 'blog', 'location', 'email', 'email_private', 'bio',
  'twitter_username', 'hireable', 'site_admin', 'suspended_at', 'created_at', 'updated_at',
] as const;

type Row = Pick<Selectable<UsersTable>, (typeof COLUMNS)[number]>;

function toAccount(r: Row): Account {
  return {
    id: r.id,
    login: r.login,
    type: r.type,
    name: r.name,
    company: r.company,
    blog: r.blog,
    location: r.location,
    email: r.email,
    emailPrivate: r.email_private === 1,
    bio: r.bio,
    twitterUsername: r.twitter_username,
    hireable: r.hireable === null ? null : r.hireable === 1,
    siteAdmin: r.site_admin === 1,
    suspendedAt: r.suspended_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function findById(db: Executor, id: number): Promise<Account | null> {
  const row = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<Account[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').select(COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toAccount);
}

export async function findByLogin(db: Executor, login: string): Promise<Account | null> {
  const row = await db.selectFrom('users').select(COLUMNS)
    .where('login_lower', '=', login.toLowerCase()).executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function list(db: Executor, since: number, limit: number, type?: AccountType): Promise<Account[]> {
  let q = db.selectFrom('users').select(COLUMNS).where('id', '>', since);
  if (type) q = q.where('type', '=', type);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map(toAccount);
}

export async function count(db: Executor): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewAccount {
  login: string;
  type: AccountType;
  name?: string | null;
  email?: string | null;
  siteAdmin?: boolean;
  suspended?: boolean;
  now: string;
}

export async function insert(db: Executor, a: NewAccount): Promise<Account> {
  const row = await db.insertInto('users').values({
    login: a.login,
    login_lower: a.login.toLowerCase(),
    type: a.type,
    name: a.name ?? null,
    company: null,
    blog: null,
    location: null,
    email: a.email ?? null,
    email_private: 0,
    bio: null,
    twitter_username: null,
    hireable: null,
    site_admin: a.siteAdmin ? 1 : 0,
    suspended_at: a.suspended ? a.now : null,
    created_at: a.now,
    updated_at: a.now,
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  return toAccount(row);
}

export interface AccountChanges {
  login?: string;
  name?: string | null;
  company?: string | null;
  blog?: string | null;
  location?: string | null;
  email?: string | null;
  emailPrivate?: boolean;
  bio?: string | null;
  twitterUsername?: string | null;
  hireable?: boolean | null;
  siteAdmin?: boolean;
  suspendedAt?: string | null;
}

export async function update(db: Executor, id: number, c: AccountChanges, now: string): Promise<Account> {
  const set: Updateable<UsersTable> = { updated_at: now };
  if (c.login !== undefined) { set.login = c.login; set.login_lower = c.login.toLowerCase(); }
  if (c.name !== undefined) set.name = c.name;
  if (c.company !== undefined) set.company = c.company;
  if (c.blog !== undefined) set.blog = c.blog;
  if (c.location !== undefined) set.location = c.location;
  if (c.email !== undefined) set.email = c.email;
  if (c.emailPrivate !== undefined) set.email_private = c.emailPrivate ? 1 : 0;
  if (c.bio !== undefined) set.bio = c.bio;
  if (c.twitterUsername !== undefined) set.twitter_username = c.twitterUsername;
  if (c.hireable !== undefined) set.hireable = c.hireable === null ? null : c.hireable ? 1 : 0;
  if (c.siteAdmin !== undefined) set.site_admin = c.siteAdmin ? 1 : 0;
  if (c.suspendedAt !== undefined) set.suspended_at = c.suspendedAt;
  const row = await db.updateTable('users').set(set).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
  return toAccount(row);
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
