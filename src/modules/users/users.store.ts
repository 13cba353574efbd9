// SQL for the users table. Only the users module calls this.
import type { Executor } from '../../db/database.ts';
import { comparisons, type Bounds } from '../../domain/bounds.ts';
import { precompile } from '../../db/precompiled.ts';
import type { UserEmailsTable, UsersTable } from '../../db/schema.ts';
import { sql, type Selectable, type Updateable } from 'kysely';
import type { Account, AccountType, UserEmail } from './users.model.ts';

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

// Looked up on most requests: compiled once (src/db/precompiled.ts).
const byId = precompile(1, (db: Executor, id: number) => db.selectFrom('users').select(COLUMNS).where('id', '=', id));
const byLogin = precompile(1, (db: Executor, loginLower: string) => db.selectFrom('users').select(COLUMNS).where('login_lower', '=', loginLower));

export async function findById(db: Executor, id: number): Promise<Account | null> {
  const [row] = await byId(db, id);
  return row ? toAccount(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<Account[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').select(COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toAccount);
}

/** How many public repositories each account owns (the `repos:` qualifier's count), in one query; absent: none. */
export async function publicRepositoryCounts(db: Executor, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('repositories').select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', 'in', [...new Set(ids)]).where('visibility', '=', 'public').groupBy('owner_id').execute();
  return new Map(rows.map((r) => [r.owner_id, Number(r.n)]));
}

export async function findByLogin(db: Executor, login: string): Promise<Account | null> {
  const [row] = await byLogin(db, login.toLowerCase());
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

// E-mail addresses (user_emails). users.email mirrors the primary address; the
// service keeps the two in step within one transaction.

const EMAIL_COLUMNS = ['id', 'user_id', 'email', 'verified', 'primary', 'visibility', 'created_at'] as const;

type EmailRow = Pick<Selectable<UserEmailsTable>, (typeof EMAIL_COLUMNS)[number]>;

function toUserEmail(r: EmailRow): UserEmail {
  return {
    id: r.id,
    userId: r.user_id,
    email: r.email,
    verified: r.verified === 1,
    primary: r.primary === 1,
    visibility: r.visibility,
    createdAt: r.created_at,
  };
}

/** A user's addresses, the primary first, then in the order they were added. */
export async function listEmails(db: Executor, userId: number): Promise<UserEmail[]> {
  const rows = await db.selectFrom('user_emails').select(EMAIL_COLUMNS).where('user_id', '=', userId)
    .orderBy('primary', 'desc').orderBy('id').execute();
  return rows.map(toUserEmail);
}

/** The rows holding these addresses (compared case-insensitively), whoever owns them. */
export async function findEmailsByAddress(db: Executor, addresses: readonly string[]): Promise<UserEmail[]> {
  if (addresses.length === 0) return [];
  const lowers = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const rows = await db.selectFrom('user_emails').select(EMAIL_COLUMNS).where('email_lower', 'in', lowers).execute();
  return rows.map(toUserEmail);
}

export interface NewUserEmail {
  email: string;
  verified: boolean;
  primary: boolean;
  visibility: 'public' | 'private' | null;
}

export async function insertEmails(db: Executor, userId: number, emails: readonly NewUserEmail[], now: string): Promise<UserEmail[]> {
  if (emails.length === 0) return [];
  const rows = await db.insertInto('user_emails').values(emails.map((e) => ({
    user_id: userId,
    email: e.email,
    email_lower: e.email.toLowerCase(),
    verified: e.verified ? 1 : 0,
    primary: e.primary ? 1 : 0,
    visibility: e.visibility,
    created_at: now,
  }))).returning(EMAIL_COLUMNS).execute();
  return rows.map(toUserEmail).sort((a, b) => a.id - b.id);
}

export async function deleteEmails(db: Executor, userId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('user_emails').where('user_id', '=', userId).where('id', 'in', [...ids]).execute();
}

/** No address of the user is primary any more. */
export async function clearPrimaryEmail(db: Executor, userId: number): Promise<void> {
  await db.updateTable('user_emails').set({ primary: 0, visibility: null })
    .where('user_id', '=', userId).where('primary', '=', 1).execute();
}

/**
 * Makes the address primary, spelled `email` (the same address, perhaps in another case);
 * the previous primary must have been cleared first (one primary per user).
 */
export async function markPrimaryEmail(db: Executor, emailId: number, visibility: 'public' | 'private', email: string): Promise<void> {
  await db.updateTable('user_emails').set({ primary: 1, visibility, email, email_lower: email.toLowerCase() })
    .where('id', '=', emailId).execute();
}

export async function setPrimaryEmailVisibility(db: Executor, userId: number, visibility: 'public' | 'private'): Promise<void> {
  await db.updateTable('user_emails').set({ visibility })
    .where('user_id', '=', userId).where('primary', '=', 1).execute();
}

export async function setEmailVerified(db: Executor, emailId: number, verified: boolean): Promise<UserEmail> {
  const row = await db.updateTable('user_emails').set({ verified: verified ? 1 : 0 })
    .where('id', '=', emailId).returning(EMAIL_COLUMNS).executeTakeFirstOrThrow();
  return toUserEmail(row);
}

/** User accounts whose e-mail address is one of `emails` (compared case-insensitively). */
export async function findByEmails(db: Executor, emails: readonly string[]): Promise<Account[]> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return [];
  // The primary address, or any verified address of the user (user_emails).
  const rows = await db.selectFrom('users').select(COLUMNS)
    .where('type', '=', 'User')
    .where((eb) => eb.or([
      eb(eb.fn<string>('lower', ['email']), 'in', wanted),
      eb('id', 'in', eb.selectFrom('user_emails').select('user_id').where('email_lower', 'in', wanted).where('verified', '=', 1)),
    ]))
    .execute();
  return rows.map(toAccount);
}

/** The registered spelling of those of `logins` that name an account (compared case-insensitively). */
export async function findLogins(db: Executor, logins: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(logins.map((l) => l.toLowerCase()))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom('users').select('login').where('login_lower', 'in', wanted).execute();
  return rows.map((r) => r.login);
}

export interface AccountSearch {
  /** Words each matching account must contain (case-insensitively) in one of `fields`. */
  words: readonly string[];
  fields: readonly ('login' | 'name' | 'email')[];
  type?: AccountType;
  /** Search: keyword clauses (any word of each) and words none of `fields` may hold. */
  clauses?: readonly (readonly string[])[];
  excluded?: readonly string[];
  /** Part of the location, without case. */
  location?: string;
  created?: Bounds<string>;
  /** Public repositories owned. */
  repos?: Bounds<number>;
  /** Default: by id. */
  sort?: 'joined' | 'repositories';
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** `%` and `_` in a word match themselves (LIKE … ESCAPE '\'). */
function likePattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Accounts matching a search (GraphQL search(type: USER)), in signup order, and how many match. */
export async function search(db: Executor, s: AccountSearch): Promise<{ rows: Account[]; total: number }> {
  let q = db.selectFrom('users');
  if (s.type) q = q.where('type', '=', s.type);
  const holds = (word: string) => {
    const pattern = likePattern(word);
    return s.fields.map((f) => (f === 'login'
      ? sql<boolean>`login_lower LIKE ${pattern} ESCAPE '\\'`
      : f === 'name'
        ? sql<boolean>`lower(coalesce(name, '')) LIKE ${pattern} ESCAPE '\\'`
        // Only a public address can be found.
        : sql<boolean>`(email_private = 0 AND lower(coalesce(email, '')) LIKE ${pattern} ESCAPE '\\')`));
  };
  for (const word of s.words) q = q.where((eb) => eb.or(holds(word)));
  for (const clause of s.clauses ?? []) q = q.where((eb) => eb.or(clause.flatMap(holds)));
  for (const word of s.excluded ?? []) q = q.where((eb) => eb.not(eb.or(holds(word))));
  if (s.location !== undefined) q = q.where(sql<boolean>`lower(coalesce(location, '')) LIKE ${likePattern(s.location)} ESCAPE '\\'`);
  for (const [op, v] of s.created ? comparisons(s.created) : []) q = q.where('created_at', op, v);
  const repoCount = sql<number>`(select count(*) from repositories where repositories.owner_id = users.id and repositories.visibility = 'public')`;
  for (const [op, v] of s.repos ? comparisons(s.repos) : []) q = q.where(repoCount, op, v);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const direction = s.direction ?? 'asc';
  let ordered = q.select(COLUMNS);
  if (s.sort === 'joined') ordered = ordered.orderBy('created_at', direction);
  else if (s.sort === 'repositories') ordered = ordered.orderBy(repoCount, direction);
  const rows = await ordered.orderBy('id', s.sort ? direction : 'asc').limit(s.limit).offset(s.offset).execute();
  return { rows: rows.map(toAccount), total: Number(total.n) };
}
