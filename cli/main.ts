// Wharf's admin command line: `npm run cli -- <command>`. Works on the data dir and
// database the configuration names (WHARF_DATA_DIR, DATABASE_URL, WHARF_DATABASE_SCHEMA),
// migrating them first; it never starts the HTTP server.
// Exit codes: 0 done, 1 the command failed (validation, no such user …), 2 bad command line.
import { processOutput } from './output.ts';
import { runCli } from './run.ts';

process.exitCode = await runCli(process.argv.slice(2), processOutput);
