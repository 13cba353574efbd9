// Code search's score counts each keyword's occurrences in a file's text, any case: on
// SQLite it lowered every matching file's text at query time, most of a query's time
// (issue #16). SQLite keeps each file's text lowered (by SQLite's own lower(), so the
// counts are exactly those of before) in search_code_lowered, beside the FTS5 table
// that still holds the text as it is (text matches quote it). Files indexed already
// are filled here. PostgreSQL is unchanged: it lowers at query time as before.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`CREATE TABLE search_code_lowered (rowid INTEGER PRIMARY KEY, content TEXT NOT NULL)`.execute(db);
  await sql`INSERT INTO search_code_lowered (rowid, content) SELECT rowid, lower(content) FROM search_code_text`.execute(db);
  // It goes with its file row, however that row goes, as the FTS5 row does.
  await sql`CREATE TRIGGER search_code_lowered_delete AFTER DELETE ON search_code BEGIN
    DELETE FROM search_code_lowered WHERE rowid = old.id;
  END`.execute(db);
}
