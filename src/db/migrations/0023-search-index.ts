// The search index: commits reachable from each repository's default branch, and the
// text files of that branch, kept current by the search indexer (a queue row per
// repository, set by events, drained by a background worker).
//
// File text is matched by substring, case-insensitively, through a trigram index: on
// SQLite an FTS5 table with the trigram tokenizer (its LIKE uses the index), on
// PostgreSQL a table with a pg_trgm GIN index (its ILIKE uses the index). The text
// lives apart from the file rows so that the rows stay small to scan and sort.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId, dialect }: MigrationContext): Promise<void> {
  await db.schema.createTable('search_index_state')
    .addColumn('repository_id', 'integer', (c) => c.primaryKey().references('repositories.id').onDelete('cascade'))
    // The default branch and the commit the index holds; null until first indexed.
    .addColumn('indexed_branch', 'text')
    .addColumn('indexed_commit', 'text')
    // 1 while the repository waits for the indexer (an event touched it since the last run).
    .addColumn('pending', 'integer', (c) => c.notNull())
    // A worker holds the repository until then (epoch ms); another takes it after.
    .addColumn('claimed_until', 'bigint')
    .addColumn('indexed_at', 'text')
    .execute();
  // Repositories that exist already wait for their first index.
  await sql`INSERT INTO search_index_state (repository_id, pending) SELECT id, 1 FROM repositories`.execute(db);
  await db.schema.createIndex('search_index_state_pending').on('search_index_state').columns(['pending', 'repository_id']).execute();

  await db.schema.createTable('search_commits')
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('tree_sha', 'text', (c) => c.notNull())
    // Parent shas, space separated, in order.
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('parent_count', 'integer', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_email', 'text', (c) => c.notNull())
    // UTC, ISO 8601 to the second: compared and sorted as text.
    .addColumn('author_date', 'text', (c) => c.notNull())
    .addColumn('committer_name', 'text', (c) => c.notNull())
    .addColumn('committer_email', 'text', (c) => c.notNull())
    .addColumn('committer_date', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_commits_pk', ['repository_id', 'sha'])
    .execute();
  await db.schema.createIndex('search_commits_sha').on('search_commits').column('sha').execute();
  await db.schema.createIndex('search_commits_committer_date').on('search_commits').columns(['repository_id', 'committer_date']).execute();

  await db.schema.createTable('search_code')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    // The last path segment, and its extension (lower case, no dot; '' when none).
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('extension', 'text', (c) => c.notNull())
    .addColumn('blob_sha', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('indexed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_code_repository_path').unique().on('search_code').columns(['repository_id', 'path']).execute();

  if (dialect === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE search_code_text USING fts5(content, tokenize = 'trigram')`.execute(db);
    // The text row goes with its file row, however that row goes (repository deleted: cascade).
    await sql`CREATE TRIGGER search_code_text_delete AFTER DELETE ON search_code BEGIN
      DELETE FROM search_code_text WHERE rowid = old.id;
    END`.execute(db);
  } else {
    // pg_trgm lives in a schema every Wharf schema can reach (public unless it is
    // installed elsewhere already); the advisory lock keeps two servers migrating at
    // once from both creating it.
    await sql`SELECT pg_advisory_xact_lock(hashtext('wharf:pg_trgm'))`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    const { rows } = await sql<{ schema: string }>`SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
    const opclass = sql.raw(`${rows[0]!.schema}.gin_trgm_ops`);
    await db.schema.createTable('search_code_text')
      .addColumn('rowid', 'integer', (c) => c.primaryKey().references('search_code.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    await sql`CREATE INDEX search_code_text_trgm ON search_code_text USING gin (content ${opclass})`.execute(db);
    await sql`CREATE INDEX search_commits_message_trgm ON search_commits USING gin (message ${opclass})`.execute(db);
  }
}
