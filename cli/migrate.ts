// migrate import: loads a migration archive (an organization's or a user's, as Wharf
// or upstream exports them) into this data dir, with a progress bar on stderr and the
// import's report (conflicts included) as JSON on stdout. Runs the import itself,
// through the same job as the site-admin endpoint, so the job's record stays behind.
import path from 'node:path';
import type { ImportProgress } from '../src/modules/migration-import/import.model.ts';
import { runHeldImport, startImport } from '../src/modules/migration-import/import.service.ts';
import { importView } from '../src/modules/migration-import/import.views.ts';
import { flag, stringOption, type Command } from './args.ts';
import { CliError, type Output } from './output.ts';

const BAR_WIDTH = 30;

/** A bar redrawn in place on a terminal; one line per step otherwise (logs, tests). */
function progressBar(out: Output): (p: ImportProgress) => Promise<void> {
  const tty = process.stderr.isTTY === true;
  return async (p) => {
    const filled = p.total === 0 ? BAR_WIDTH : Math.round((p.done / p.total) * BAR_WIDTH);
    const text = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total} ${p.step}`;
    if (tty) process.stderr.write(`\r\x1b[K${text}${p.step === 'done' ? '\n' : ''}`);
    else out.note(text);
  };
}

export const migrateCommands: Command[] = [
  {
    path: ['migrate', 'import'],
    synopsis: '<archive.tar.gz> [--org <name>] [--rename]',
    summary: 'import a migration archive (repositories with their git data, issues, pull requests, comments, labels, milestones, reactions, teams, users); a repository whose name is taken is skipped, or renamed with --rename; prints the report as JSON',
    positionals: ['archive'],
    options: { org: { type: 'string' }, rename: { type: 'boolean' } },
    async run({ app }, args, out) {
      const file = path.resolve(args.positionals[0]!);
      const job = await startImport(app, null, {
        archive: { path: file }, org: stringOption(args, 'org') ?? null, onConflict: flag(args, 'rename') ? 'rename' : 'skip',
      });
      const done = await runHeldImport(app, job.id, progressBar(out));
      const view = importView(done, app.urls);
      for (const c of view.conflicts) out.note(`conflict: ${c.kind} ${c.source}: ${c.message}; ${c.resolution}${c.target ? ` as ${c.target}` : ''}`);
      out.json(view);
      if (done.state !== 'imported') throw new CliError(`import failed: ${done.failure ?? 'unknown reason'}`);
      out.note(`imported ${view.repositories.length} ${view.repositories.length === 1 ? 'repository' : 'repositories'} into ${view.owner?.login ?? '?'}`);
    },
  },
];
