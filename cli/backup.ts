// backup DIR / restore DIR: a whole Wharf (database, repositories, keys, LFS objects …)
// copied while the server keeps serving, and put back into a new data dir. Neither opens
// the database as the other commands do: backup must not migrate a database a running
// server uses, and restore runs before there is one. The work is in src/modules/backup.
import { backup, restore } from '../src/modules/backup/backup.service.ts';
import { flag, type Command } from './args.ts';

export const backupCommands: Command[] = [
  {
    path: ['backup'],
    synopsis: '<dir>',
    summary: 'copy the database (SQLite: online backup; PostgreSQL: pg_dump when installed, else the command to run), '
      + 'every git repository and the rest of the data dir into <dir> (new or empty), while the server keeps serving; prints progress',
    positionals: ['dir'],
    setup: 'none',
    async run({ config }, args, out) {
      await backup(config, args.positionals[0]!, (line) => out.line(line));
    },
  },
  {
    path: ['restore'],
    synopsis: '<dir> [--force]',
    summary: 'restore a backup made by `backup` into the data dir (and database) configured, which must be new or empty; '
      + '--force replaces the database and files there. Stop the server first',
    positionals: ['dir'],
    options: { force: { type: 'boolean' } },
    setup: 'none',
    async run({ config }, args, out) {
      await restore(config, args.positionals[0]!, { force: flag(args, 'force') }, (line) => out.line(line));
    },
  },
];
