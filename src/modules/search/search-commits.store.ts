// SQL of the commit index (search_commits): rows written and removed as the default
// branch moves, and commit search's query. Only the search module calls this.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { Bounds } from '../../domain/bounds.ts';
import { all, any, bounded, chunks, col, holds, inRepositories, occurrences } from './search-index.sql.ts';

export interface CommitRow {
  repositoryId: number;
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

export async function insertCommits(db: Executor, rows: readonly CommitRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db.insertInto('search_commits').values(part.map((c) => ({
      repository_id: c.repositoryId, sha: c.sha, tree_sha: c.tree, parents: c.parents.join(' '), parent_count: c.parents.length,
      author_name: c.authorName, author_email: c.authorEmail, author_date: c.authorDate,
      committer_name: c.committerName, committer_email: c.committerEmail, committer_date: c.committerDate, message: c.message,
    }))).onConflict((oc) => oc.columns(['repository_id', 'sha']).doNothing()).execute();
  }
}

export async function deleteCommits(db: Executor, repositoryId: number, shas: readonly string[]): Promise<void> {
  for (const part of chunks(shas)) {
    await db.deleteFrom('search_commits').where('repository_id', '=', repositoryId).where('sha', 'in', part).execute();
  }
}

export async function clearCommits(db: Executor, repositoryId: number): Promise<void> {
  await db.deleteFrom('search_commits').where('repository_id', '=', repositoryId).execute();
}

export interface CommitFilter {
  repositoryIds: readonly number[];
  clauses: string[][];
  excluded: string[];
  authorEmails?: string[];
  committerEmails?: string[];
  authorName?: string;
  committerName?: string;
  authorEmail?: string;
  committerEmail?: string;
  authorDate?: Bounds<string>;
  committerDate?: Bounds<string>;
  merge?: boolean;
  hash?: string;
  parent?: string;
  tree?: string;
  sort?: 'author-date' | 'committer-date';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

function commitConditions(dialect: Dialect, f: CommitFilter): RawBuilder<SqlBool>[] {
  const lowerIn = (column: string, values: string[]) =>
    sql<SqlBool>`lower(${col(column)}) IN (${sql.join(values.map((v) => v.toLowerCase()))})`;
  // A sha qualifier names a commit by its full sha or a prefix of it.
  const prefix = (column: string, value: string) => sql<SqlBool>`${col(column)} LIKE ${`${value.toLowerCase()}%`}`;
  const out: RawBuilder<SqlBool>[] = [
    inRepositories(f.repositoryIds),
    ...f.clauses.map((words) => any(words.map((w) => holds(dialect, col('message'), w)))),
    ...f.excluded.map((w) => sql<SqlBool>`NOT ${holds(dialect, col('message'), w)}`),
    ...bounded(col('author_date'), f.authorDate),
    ...bounded(col('committer_date'), f.committerDate),
  ];
  if (f.authorEmails) out.push(f.authorEmails.length ? lowerIn('author_email', f.authorEmails) : sql<SqlBool>`1 = 0`);
  if (f.committerEmails) out.push(f.committerEmails.length ? lowerIn('committer_email', f.committerEmails) : sql<SqlBool>`1 = 0`);
  if (f.authorName !== undefined) out.push(lowerIn('author_name', [f.authorName]));
  if (f.committerName !== undefined) out.push(lowerIn('committer_name', [f.committerName]));
  if (f.authorEmail !== undefined) out.push(lowerIn('author_email', [f.authorEmail]));
  if (f.committerEmail !== undefined) out.push(lowerIn('committer_email', [f.committerEmail]));
  if (f.merge !== undefined) out.push(f.merge ? sql<SqlBool>`${col('parent_count')} > 1` : sql<SqlBool>`${col('parent_count')} <= 1`);
  if (f.hash !== undefined) out.push(prefix('sha', f.hash));
  if (f.tree !== undefined) out.push(prefix('tree_sha', f.tree));
  if (f.parent !== undefined) {
    const p = f.parent.toLowerCase();
    out.push(any([sql<SqlBool>`${col('parents')} LIKE ${`${p}%`}`, sql<SqlBool>`${col('parents')} LIKE ${`% ${p}%`}`]));
  }
  return out;
}

export interface CommitHit extends CommitRow {
  score: number;
}

/** A page of the commits matching `f`, best first (keyword hits) unless sorted by a date, and how many match. */
export async function searchCommits(db: Executor, dialect: Dialect, f: CommitFilter): Promise<{ items: CommitHit[]; total: number }> {
  if (!f.repositoryIds.length) return { items: [], total: 0 };
  const where = all(commitConditions(dialect, f));
  const words = f.clauses.flat();
  const score = words.length ? sql<number>`(${sql.join(words.map((w) => occurrences(col('message'), w)), sql` + `)})` : sql<number>`1`;
  const dir = sql.raw(f.order === 'asc' ? 'ASC' : 'DESC');
  const orderBy = f.sort
    ? sql`${col(f.sort === 'author-date' ? 'author_date' : 'committer_date')} ${dir}, ${col('repository_id')}, ${col('sha')}`
    : sql`score DESC, ${col('committer_date')} DESC, ${col('repository_id')}, ${col('sha')}`;
  const rows = await sql<{
    repository_id: number; sha: string; tree_sha: string; parents: string; author_name: string; author_email: string; author_date: string;
    committer_name: string; committer_email: string; committer_date: string; message: string; score: number;
  }>`SELECT c.repository_id, c.sha, c.tree_sha, c.parents, c.author_name, c.author_email, c.author_date, c.committer_name,
      c.committer_email, c.committer_date, c.message, ${score} AS score
    FROM search_commits c WHERE ${where} ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM search_commits c WHERE ${where}`.execute(db);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    items: rows.rows.map((r) => ({
      repositoryId: Number(r.repository_id), sha: r.sha, tree: r.tree_sha, parents: r.parents ? r.parents.split(' ') : [],
      authorName: r.author_name, authorEmail: r.author_email, authorDate: r.author_date, committerName: r.committer_name,
      committerEmail: r.committer_email, committerDate: r.committer_date, message: r.message, score: Number(r.score),
    })),
  };
}

