// History and diffs: pages of `git log` with upstream's filters, the files a commit
// changed (status, line counts, patch), and the diff and patch texts of a commit.
import { ObjectMemo } from './object-memo.ts';
import { gitText } from './run.ts';

/** Pages of history hold up to 100 shas each: fewer of them are kept than of single answers. */
const logPages = new ObjectMemo<readonly string[]>(256);
const logCounts = new ObjectMemo<number>();

export interface LogFilter {
  /** Only commits touching this path. */
  path?: string;
  /** Author e-mail addresses, any of which matches (case-insensitive). */
  authorEmails?: string[];
  committerEmails?: string[];
  /** Committer dates, ISO 8601. */
  since?: string;
  until?: string;
}

function filterArgs(f: LogFilter): string[] {
  const args: string[] = [];
  // Fixed strings: an address is matched as "<address>" inside "Name <address>", not as a pattern.
  if (f.authorEmails?.length || f.committerEmails?.length) args.push('--fixed-strings', '--regexp-ignore-case');
  for (const e of f.authorEmails ?? []) args.push(`--author=<${e}>`);
  for (const e of f.committerEmails ?? []) args.push(`--committer=<${e}>`);
  if (f.since) args.push(`--since=${f.since}`);
  if (f.until) args.push(`--until=${f.until}`);
  return args;
}

function pathArgs(f: LogFilter): string[] {
  return f.path ? ['--', `:(literal)${f.path}`] : ['--'];
}

/** Shas of the commits reachable from `from` that pass the filter, newest first, one page of them. */
export function logShas(dir: string, from: string, filter: LogFilter, skip: number, max: number): Promise<readonly string[]> {
  const args = [`--skip=${skip}`, `--max-count=${max}`, ...filterArgs(filter), '--end-of-options', from, ...pathArgs(filter)];
  return logPages.get(dir, [from], async () => {
    const out = await gitText(dir, ['log', '--format=%H', ...args]);
    return out.split('\n').filter(Boolean);
  }, args.join('\0'));
}

/** How many commits the same filter selects (for the last page link). */
export function countLog(dir: string, from: string, filter: LogFilter): Promise<number> {
  const args = [...filterArgs(filter), '--end-of-options', from, ...pathArgs(filter)];
  return logCounts.get(dir, [from], async () => Number((await gitText(dir, ['rev-list', '--count', ...args])).trim()), args.join('\0'));
}

export type ChangeStatus = 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';

export interface FileChange {
  status: ChangeStatus;
  path: string;
  /** For renames and copies: where the file came from. */
  previousPath: string | null;
  oldSha: string;
  newSha: string;
  oldMode: string;
  newMode: string;
  additions: number;
  deletions: number;
  /** The hunks (from the first "@@"); null for binary files and changes of mode only. */
  patch: string | null;
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' };

function rangeArgs(base: string | null, sha: string): string[] {
  return base ? ['--end-of-options', base, sha] : ['--root', '--end-of-options', sha];
}

/**
 * What `sha` changed against `base` (its first parent; null for a root commit), as
 * upstream lists a commit's files: renames detected, at most `limit` files.
 */
export async function diffFiles(dir: string, base: string | null, sha: string, limit = 3000): Promise<FileChange[]> {
  const common = ['diff-tree', '-r', '-M', '--no-commit-id'];
  const [raw, numstat, patch] = await Promise.all([
    gitText(dir, [...common, '-z', '--raw', ...rangeArgs(base, sha)]),
    gitText(dir, [...common, '-z', '--numstat', ...rangeArgs(base, sha)]),
    gitText(dir, [...common, '-p', '--no-color', '--no-ext-diff', ...rangeArgs(base, sha)]),
  ]);
  const files = parseRaw(raw);
  const counts = parseNumstat(numstat);
  const patches = splitPatch(patch);
  return files.slice(0, limit).map((f, i) => ({ ...f, additions: counts[i]?.[0] ?? 0, deletions: counts[i]?.[1] ?? 0, patch: patches[i] ?? null }));
}

type RawChange = Omit<FileChange, 'additions' | 'deletions' | 'patch'>;

function parseRaw(text: string): RawChange[] {
  const parts = text.split('\0');
  const out: RawChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const meta = parts[i]!;
    if (!meta.startsWith(':')) continue;
    const [oldMode, newMode, oldSha, newSha, code] = meta.slice(1).split(' ');
    const letter = (code ?? 'M')[0]!;
    if (letter === 'R' || letter === 'C') {
      out.push({ status: STATUS[letter]!, previousPath: parts[i + 1]!, path: parts[i + 2]!, oldSha: oldSha!, newSha: newSha!, oldMode: oldMode!, newMode: newMode! });
      i += 2;
    } else {
      out.push({ status: STATUS[letter] ?? 'modified', previousPath: null, path: parts[i + 1]!, oldSha: oldSha!, newSha: newSha!, oldMode: oldMode!, newMode: newMode! });
      i += 1;
    }
  }
  return out;
}

function parseNumstat(text: string): [number, number][] {
  const parts = text.split('\0');
  const out: [number, number][] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i]!);
    if (!m) continue;
    out.push([m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])]);
    // A rename's paths follow as two more fields when the third is empty.
    if (m[3] === '') i += 2;
  }
  return out;
}

/** One entry per file of a `diff-tree -p` output: its hunks, or null. */
function splitPatch(text: string): (string | null)[] {
  const sections = text.split(/^diff --git /m).slice(1);
  return sections.map((s) => {
    const at = s.search(/^@@ /m);
    if (at < 0) return null;
    return s.slice(at).replace(/\n$/, '');
  });
}

/** The commit's diff against `base` as `git diff` prints it (the diff media type). */
export async function diffText(dir: string, base: string | null, sha: string): Promise<string> {
  return gitText(dir, ['diff-tree', '-p', '-M', '--no-commit-id', '--no-color', '--no-ext-diff', ...rangeArgs(base, sha)]);
}

/** The commit as an e-mail patch, as `git format-patch` writes it (the patch media type). */
export async function patchText(dir: string, sha: string, isMerge: boolean): Promise<string> {
  // format-patch skips merge commits; their patch is the diff against the first parent.
  if (isMerge) {
    return gitText(dir, ['log', '-1', '--pretty=email', '--patch-with-stat', '--diff-merges=first-parent', '--no-color', '--end-of-options', sha, '--']);
  }
  return gitText(dir, ['format-patch', '-1', '--stdout', '--no-color', '--no-signature', '--end-of-options', sha, '--']);
}
