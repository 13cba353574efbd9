// Code search on SQLite looks a keyword up with FTS5 MATCH, several times cheaper than
// the LIKE it used (issue #16): LIKE reads every candidate file's text to check it. A
// MATCH of an ASCII keyword finds exactly the files LIKE finds, except in a file
// holding a character the trigram tokenizer folds to ASCII though it is not ASCII (the
// KELVIN SIGN folds to k, LATIN SMALL LETTER LONG S to s; LIKE matches neither to k or
// s) or a NUL (LIKE stops at it, the index does not). Those files are listed here, and
// a match in them is checked against the text as before. Files indexed already are
// listed now; PostgreSQL has no FTS5 and nothing to list.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`CREATE TABLE search_code_recheck (rowid INTEGER PRIMARY KEY)`.execute(db);
  // instr, not GLOB or LIKE: it reads past a NUL. char(383) is ſ, char(8490) the Kelvin sign.
  await sql`INSERT INTO search_code_recheck (rowid) SELECT rowid FROM search_code_text
    WHERE instr(content, char(383)) > 0 OR instr(content, char(8490)) > 0 OR instr(content, char(0)) > 0`.execute(db);
  await sql`CREATE TRIGGER search_code_recheck_delete AFTER DELETE ON search_code BEGIN
    DELETE FROM search_code_recheck WHERE rowid = old.id;
  END`.execute(db);
}
