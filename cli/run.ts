// The admin command line's commands and dispatch, apart from the process around them
// (cli/main.ts): argv in, output through an Output, exit code out.
import { loadConfig } from '../src/config.ts';
import { parseInvocation, UsageError, type Command, type Invocation } from './args.ts';
import { backupCommands } from './backup.ts';
import { configOnlyContext, openCliContext, type CliContext } from './context.ts';
import { oauthAppsCommands } from './oauth-apps.ts';
import { orgsCommands } from './orgs.ts';
import { migrateCommands } from './migrate.ts';
import { describeError, type Output } from './output.ts';
import { searchCommands } from './search.ts';
import { tokensCommands } from './tokens.ts';
import { usersCommands } from './users.ts';

const COMMANDS: Command[] = [
  ...usersCommands,
  ...orgsCommands,
  ...tokensCommands,
  ...oauthAppsCommands,
  ...searchCommands,
  ...backupCommands,
  // Before plain `migrate`: a command is the first whose words the arguments start with.
  ...migrateCommands,
  {
    path: ['migrate'],
    synopsis: '',
    summary: 'apply pending database migrations and exit',
    positionals: [],
    setup: 'migrate',
    async run(_ctx, _args, out) {
      out.note('database is up to date');
    },
  },
];

function synopsis(c: Command): string {
  return `${c.path.join(' ')} ${c.synopsis}`.trim();
}

function usage(): string {
  return [
    'usage: npm run cli -- <command> [arguments]',
    '',
    'commands:',
    ...COMMANDS.flatMap((c) => [`  ${synopsis(c)}`, `      ${c.summary}`]),
    '  help',
    '      show this text',
    '',
    'The data dir and database come from the environment, as for the server:',
    'WHARF_DATA_DIR, DATABASE_URL, WHARF_DATABASE_SCHEMA.',
  ].join('\n');
}

function commandUsage(c: Command): string {
  return `usage: npm run cli -- ${synopsis(c)}\n  ${c.summary}`;
}

function findCommand(argv: string[]): { command: Command; rest: string[] } {
  const command = COMMANDS.find((c) => c.path.every((word, i) => argv[i] === word));
  if (command) return { command, rest: argv.slice(command.path.length) };
  const group = COMMANDS.some((c) => c.path.length > 1 && c.path[0] === argv[0]);
  throw new UsageError(group && argv[1] === undefined
    ? `"${argv[0]}" needs a subcommand`
    : `unknown command "${argv.slice(0, group ? 2 : 1).join(' ')}"`);
}

/**
 * One invocation: `argv` without node and script, results and notes through `out`,
 * configuration from `env`. Returns the exit code. Tests call it in-process (no node
 * start and bundle load per command); cli/main.ts runs it for a real process.
 */
export async function runCli(argv: string[], out: Output, env: Record<string, string | undefined> = process.env): Promise<number> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0]!)) {
    out.line(usage());
    return 0;
  }
  let command: Command;
  let rest: string[];
  try {
    ({ command, rest } = findCommand(argv));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    out.note(`error: ${err.message}\n\n${usage()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.line(commandUsage(command));
    return 0;
  }
  let args: Invocation;
  try {
    args = parseInvocation(command, rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    out.note(`error: ${err.message}\n\n${commandUsage(command)}`);
    return 2;
  }
  let ctx: CliContext;
  try {
    const config = loadConfig(env);
    ctx = command.setup === 'none' ? configOnlyContext(config) : await openCliContext(config, { firstStart: command.setup !== 'migrate' });
  } catch (err) {
    out.note(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    await command.run(ctx, args, out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      out.note(`error: ${err.message}\n\n${commandUsage(command)}`);
      return 2;
    }
    const message = describeError(err);
    out.note(message ?? (err instanceof Error ? err.stack ?? err.message : String(err)));
    return 1;
  } finally {
    await ctx.close();
  }
}

