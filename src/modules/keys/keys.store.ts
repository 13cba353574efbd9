// SQL for ssh_keys. Only the keys module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { SshKeysTable } from '../../db/schema.ts';
import type { SshKey } from './keys.model.ts';

const COLUMNS = ['id', 'user_id', 'repository_id', 'title', 'key', 'fingerprint', 'read_only', 'added_by_id', 'created_at', 'last_used'] as const;

type Row = Pick<Selectable<SshKeysTable>, (typeof COLUMNS)[number]>;

function toKey(r: Row): SshKey {
  return {
    id: r.id, userId: r.user_id, repositoryId: r.repository_id, title: r.title, key: r.key, fingerprint: r.fingerprint,
    readOnly: r.read_only === 1, addedById: r.added_by_id, createdAt: r.created_at, lastUsed: r.last_used,
  };
}

export type Holder = { userId: number } | { repositoryId: number };

/** The holder's keys, oldest first. */
export async function list(db: Executor, h: Holder, limit: number, offset: number): Promise<SshKey[]> {
  let q = db.selectFrom('ssh_keys').select(COLUMNS);
  q = 'userId' in h ? q.where('user_id', '=', h.userId) : q.where('repository_id', '=', h.repositoryId);
  return (await q.orderBy('id').limit(limit).offset(offset).execute()).map(toKey);
}

export async function count(db: Executor, h: Holder): Promise<number> {
  let q = db.selectFrom('ssh_keys').select((eb) => eb.fn.countAll<number>().as('n'));
  q = 'userId' in h ? q.where('user_id', '=', h.userId) : q.where('repository_id', '=', h.repositoryId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function find(db: Executor, h: Holder, id: number): Promise<SshKey | null> {
  let q = db.selectFrom('ssh_keys').select(COLUMNS).where('id', '=', id);
  q = 'userId' in h ? q.where('user_id', '=', h.userId) : q.where('repository_id', '=', h.repositoryId);
  const row = await q.executeTakeFirst();
  return row ? toKey(row) : null;
}

export async function findByFingerprint(db: Executor, fingerprint: string): Promise<SshKey | null> {
  const row = await db.selectFrom('ssh_keys').select(COLUMNS).where('fingerprint', '=', fingerprint).executeTakeFirst();
  return row ? toKey(row) : null;
}

export interface NewKey {
  holder: Holder;
  title: string;
  key: string;
  fingerprint: string;
  readOnly: boolean;
  addedById: number | null;
  createdAt: string;
}

/** A second registration of a fingerprint that raced past the check. */
export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export async function insert(db: Executor, k: NewKey): Promise<SshKey> {
  const row = await db.insertInto('ssh_keys').values({
    user_id: 'userId' in k.holder ? k.holder.userId : null,
    repository_id: 'repositoryId' in k.holder ? k.holder.repositoryId : null,
    title: k.title, key: k.key, fingerprint: k.fingerprint, read_only: k.readOnly ? 1 : 0,
    added_by_id: k.addedById, created_at: k.createdAt, last_used: null,
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  return toKey(row);
}

export async function remove(db: Executor, h: Holder, id: number): Promise<boolean> {
  let q = db.deleteFrom('ssh_keys').where('id', '=', id);
  q = 'userId' in h ? q.where('user_id', '=', h.userId) : q.where('repository_id', '=', h.repositoryId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function touch(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('ssh_keys').set({ last_used: at }).where('id', '=', id).execute();
}
