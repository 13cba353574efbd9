// Where the CLI writes: results on stdout (what a script captures), everything else on stderr.
import { DomainError, ValidationError, type FieldError } from '../src/domain/errors.ts';

export interface Output {
  /** One line of result on stdout. */
  line(text: string): void;
  /** A result as pretty JSON on stdout. */
  json(value: unknown): void;
  /** A note for the operator on stderr. */
  note(text: string): void;
}

export const processOutput: Output = {
  line: (text) => { process.stdout.write(`${text}\n`); },
  json: (value) => { process.stdout.write(`${JSON.stringify(value, null, 2)}\n`); },
  note: (text) => { process.stderr.write(`${text}\n`); },
};

/** A failure the operator caused (no such user …): message on stderr, exit code 1. */
export class CliError extends Error {}

function describeField(e: FieldError): string {
  const where = `${e.resource}.${e.field}`;
  const value = e.value === undefined ? '' : ` ${JSON.stringify(e.value)}`;
  if (e.message) return `${where}: ${e.message}`;
  switch (e.code) {
    case 'already_exists': return `${where}:${value} already exists`;
    case 'missing_field': return `${where}: is required`;
    case 'missing': return `${where}:${value} does not exist`;
    case 'invalid': return `${where}:${value} is invalid`;
    default: return `${where}:${value} ${e.code}`;
  }
}

/** The text printed for an error a command raised, or null when it is a bug (print the stack). */
export function describeError(err: unknown): string | null {
  if (err instanceof ValidationError) {
    return [`error: ${err.message}`, ...err.errors.map((e) => `  - ${describeField(e)}`)].join('\n');
  }
  if (err instanceof DomainError || err instanceof CliError) return `error: ${err.message}`;
  return null;
}
