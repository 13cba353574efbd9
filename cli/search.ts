// search reindex: re-reads the search index of a data directory (every repository, or
// one), printing a line per repository as it goes.
import * as repos from '../src/modules/repos/repos.service.ts';
import { reindex } from '../src/modules/search/search-indexer.ts';
import { flag, stringOption, UsageError, type Command } from './args.ts';
import { CliError } from './output.ts';

export const searchCommands: Command[] = [
  {
    path: ['search', 'reindex'],
    synopsis: '[--repo <owner/name>] [--changes-only]',
    summary: 're-read the search index (commits and files of each default branch) of every repository, or of one; prints progress',
    positionals: [],
    options: { repo: { type: 'string' }, 'changes-only': { type: 'boolean' } },
    async run({ app }, args, out) {
      const named = stringOption(args, 'repo');
      let ids: number[] | null = null;
      if (named !== undefined) {
        const [owner, name, extra] = named.split('/');
        if (!owner || !name || extra !== undefined) throw new UsageError('--repo takes owner/name');
        const repo = await repos.findForGit(app, owner, name);
        if (!repo) throw new CliError(`no repository ${named}`);
        ids = [repo.id];
      }
      const done = await reindex(app, ids, { changesOnly: flag(args, 'changes-only') }, (p) => {
        const o = p.outcome;
        out.line(`[${p.done}/${p.total}] ${p.fullName}: ${o.kind}, ${o.commits} commits, ${o.files} files`);
      });
      out.line(`indexed ${done} ${done === 1 ? 'repository' : 'repositories'}`);
    },
  },
];
