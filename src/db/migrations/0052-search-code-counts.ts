// Code search's score counts each keyword's occurrences in every matching file's text:
// on SQLite that read most of the text indexed for a common keyword (function: 9.2 of
// 10.8 MB on the bench), most of a query's time (issue #16). The count index keeps,
// for each file, how often each run of ASCII letters, digits and underscores occurs in
// it (lowered): a keyword of those characters then scores from counts, not from text
// (src/modules/search/search-index.tokens.ts says why the counts are exact).
//   search_code_tokens      the runs seen, once each (an id per run), with a trigram
//                           index (search_code_tokens_fts) to find the runs holding a keyword;
//   search_code_counts      token, file, occurrences;
//   search_code_uncounted   files whose counts are not written yet: those indexed
//                           before this migration, listed here and counted by the index
//                           worker in the background (search uses the counts only once
//                           none is left; until then it reads the text as before).
// A file's counts go with its row, as its text does. PostgreSQL is unchanged: it
// counts in the text at query time as before.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`CREATE TABLE search_code_tokens (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE)`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_code_tokens_fts USING fts5(token, tokenize = 'trigram', content = 'search_code_tokens', content_rowid = 'id')`.execute(db);
  await sql`CREATE TABLE search_code_counts (
    token_id INTEGER NOT NULL, file_id INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (token_id, file_id)
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX search_code_counts_file ON search_code_counts (file_id)`.execute(db);
  await sql`CREATE TABLE search_code_uncounted (rowid INTEGER PRIMARY KEY)`.execute(db);
  await sql`INSERT INTO search_code_uncounted (rowid) SELECT id FROM search_code`.execute(db);
  await sql`CREATE TRIGGER search_code_counts_delete AFTER DELETE ON search_code BEGIN
    DELETE FROM search_code_counts WHERE file_id = old.id;
    DELETE FROM search_code_uncounted WHERE rowid = old.id;
  END`.execute(db);
}
