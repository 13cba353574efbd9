// Command definitions and argument parsing (node:util parseArgs), shared by every group.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Output } from './output.ts';
import type { CliContext } from './context.ts';

/** Bad command line: usage goes to stderr and the exit code is 2. */
export class UsageError extends Error {}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Invocation {
  positionals: string[];
  values: Values;
}

export interface Command {
  /** Words that select the command, e.g. ['users', 'create']. */
  path: string[];
  /** Argument synopsis shown in the usage text. */
  synopsis: string;
  summary: string;
  /** Names of the required positional arguments, in order. */
  positionals: string[];
  options?: OptionSpec;
  /**
   * 'migrate' only applies migrations; 'none' opens nothing (the command reads ctx.config
   * alone); every other command also does first-start work.
   */
  setup?: 'migrate' | 'full' | 'none';
  run(ctx: CliContext, args: Invocation, out: Output): Promise<void>;
}

export function parseInvocation(command: Command, argv: string[]): Invocation {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const expected = command.positionals.length;
  if (parsed.positionals.length < expected) {
    throw new UsageError(`missing ${command.positionals.slice(parsed.positionals.length).map((p) => `<${p}>`).join(' ')}`);
  }
  if (parsed.positionals.length > expected) {
    throw new UsageError(`unexpected argument "${parsed.positionals[expected]}"`);
  }
  return { positionals: parsed.positionals, values: parsed.values };
}

export function stringOption(args: Invocation, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function requiredOption(args: Invocation, name: string): string {
  const v = stringOption(args, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function flag(args: Invocation, name: string): boolean {
  return args.values[name] === true;
}
