// Blame: which commit last changed each line of a file, from `git blame --porcelain`,
// grouped into hunks of consecutive lines from one commit. The answer for a commit id
// never changes, so it is remembered (a file's blame read again starts no git).
import { ObjectMemo } from './object-memo.ts';
import { runGit } from './run.ts';

export interface BlameCommit {
  sha: string;
  authorName: string;
  authorEmail: string;
  /** Seconds since the epoch. */
  authorTime: number;
  summary: string;
  /** The commit and path before this one changed the lines (none at the root or a boundary). */
  previous: { sha: string; path: string } | null;
}

export interface BlameHunk {
  sha: string;
  /** The first line's number in the file as blamed (1-based). */
  start: number;
  lines: string[];
}

export interface Blame {
  commits: Map<string, BlameCommit>;
  hunks: BlameHunk[];
}

/** Blames are larger than most remembered answers: fewer of them are kept, 32 MB of them at most. */
const blames = new ObjectMemo<Blame>(64, { sizeOf: blameBytes, maxBytes: 32 * 1024 * 1024 });

/** A blame's size, roughly: its lines' text (two bytes a character), a fixed cost per line and commit. */
function blameBytes(blame: Blame): number {
  let bytes = blame.commits.size * 512;
  for (const hunk of blame.hunks) {
    bytes += 64;
    for (const line of hunk.lines) bytes += 32 + line.length * 2;
  }
  return bytes;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: \d+)?$/;

/** Parses porcelain output: a header per line, a commit's fields the first time it appears, then the line after a tab. */
export function parseBlame(out: string): Blame {
  const commits = new Map<string, BlameCommit>();
  const hunks: BlameHunk[] = [];
  const rows = out.split('\n');
  let current: BlameCommit | null = null;
  let finalLine = 0;
  for (const row of rows) {
    if (row.startsWith('\t')) {
      if (!current) continue;
      const last = hunks[hunks.length - 1];
      if (last && last.sha === current.sha && last.start + last.lines.length === finalLine) last.lines.push(row.slice(1));
      else hunks.push({ sha: current.sha, start: finalLine, lines: [row.slice(1)] });
      current = null;
      continue;
    }
    const header = HEADER.exec(row);
    if (header && !current) {
      const sha = header[1]!;
      finalLine = Number(header[3]);
      current = commits.get(sha) ?? { sha, authorName: '', authorEmail: '', authorTime: 0, summary: '', previous: null };
      commits.set(sha, current);
      continue;
    }
    if (!current) continue;
    const space = row.indexOf(' ');
    const key = space === -1 ? row : row.slice(0, space);
    const value = space === -1 ? '' : row.slice(space + 1);
    if (key === 'author') current.authorName = value;
    else if (key === 'author-mail') current.authorEmail = value.replace(/^<|>$/g, '');
    else if (key === 'author-time') current.authorTime = Number(value);
    else if (key === 'summary') current.summary = value;
    else if (key === 'previous') {
      const at = value.indexOf(' ');
      const path = value.slice(at + 1);
      // git quotes a path with unusual bytes ("a\tb"): such a path is not linked back to.
      current.previous = path.startsWith('"') ? null : { sha: value.slice(0, at), path };
    }
  }
  return { commits, hunks };
}

/**
 * How long one blame may take (WHARF_BLAME_TIMEOUT_MS, set when the server starts): its
 * work grows with a file's lines times its history, and past this git is stopped and
 * the blame fails with GitTimedOut (answered 503), rather than holding a process and
 * the request for as long as it takes.
 */
let timeoutMs = 10_000;

export function setBlameTimeout(ms: number): void {
  timeoutMs = ms;
}

/** The blame of `path` at `commit` (an object id); GitTimedOut past the time allowed. */
export function blameFile(dir: string, commit: string, path: string): Promise<Blame> {
  return blames.get(dir, [commit], async () => {
    const { stdout } = await runGit(dir, ['blame', '--porcelain', commit, '--', path], { timeoutMs });
    return parseBlame(stdout.toString('utf8'));
  }, path);
}
