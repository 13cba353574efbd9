// Reading an import's raw history: which of its refs become which branches and tags
// (Subversion's trunk/branches/tags as git svn names them, Mercurial's branches and
// bookmarks as git-remote-hg names them), how many commits, which authors, and which
// files are over the large-file threshold.
import { runTool } from './import-process.ts';
import type { ImportVcs } from './import-sources.ts';

export interface RefMove {
  from: string;
  to: string;
}

export interface ToolBounds {
  signal: AbortSignal;
  timeoutMs: number;
}

async function git(gitDir: string, args: string[], b: ToolBounds, input?: string): Promise<string> {
  const r = await runTool('git', ['--git-dir', gitDir, ...args], { signal: b.signal, timeoutMs: b.timeoutMs, input });
  if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim().slice(0, 300)}`);
  return r.stdout;
}

export async function rawRefs(gitDir: string, b: ToolBounds): Promise<string[]> {
  return (await git(gitDir, ['for-each-ref', '--format=%(refname)'], b)).split('\n').filter(Boolean);
}

/** The branches and tags the imported repository gets, from the raw refs of `vcs`. */
export function convertRefs(vcs: ImportVcs, refs: readonly string[]): RefMove[] {
  const moves: RefMove[] = [];
  const add = (from: string, to: string) => {
    if (!moves.some((m) => m.to === to)) moves.push({ from, to });
  };
  for (const ref of refs) {
    if (vcs === 'git') {
      if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')) add(ref, ref);
    } else if (vcs === 'subversion') {
      const name = ref.startsWith('refs/remotes/origin/') ? ref.slice('refs/remotes/origin/'.length) : null;
      // name@rev: a branch's history before it was replaced; not a branch of its own.
      if (name === null || name.includes('@')) continue;
      if (name === 'trunk' || name === 'git-svn') add(ref, 'refs/heads/master');
      else if (name.startsWith('tags/')) add(ref, `refs/tags/${name.slice(5)}`);
      else add(ref, `refs/heads/${name}`);
    } else {
      // git-remote-hg: refs/heads/master (the default branch), refs/heads/branches/<name>
      // (named branches), other refs/heads/* (bookmarks), refs/tags/*; refs/notes/hg is its own.
      if (ref === 'refs/heads/branches/default') continue;
      if (ref.startsWith('refs/heads/branches/')) add(ref, `refs/heads/${ref.slice('refs/heads/branches/'.length)}`);
      else if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')) add(ref, ref);
    }
  }
  // Branches first so that a bookmark named like a converted branch does not shadow it.
  return moves;
}

export async function countCommits(gitDir: string, refs: readonly string[], b: ToolBounds): Promise<number> {
  if (refs.length === 0) return 0;
  return Number((await git(gitDir, ['rev-list', '--count', '--stdin'], b, `${refs.join('\n')}\n`)).trim()) || 0;
}

export interface Identity {
  name: string;
  email: string;
}

/** Every author and committer of the history, and every tagger, once each. */
export async function identities(gitDir: string, refs: readonly string[], b: ToolBounds): Promise<Identity[]> {
  if (refs.length === 0) return [];
  const out = await git(gitDir, ['log', '--format=%an%x00%ae%x00%cn%x00%ce', '--stdin'], b, `${refs.join('\n')}\n`);
  const tags = await git(gitDir, ['for-each-ref', '--format=%(taggername)%00%(taggeremail:trim)', ...refs.filter((r) => r.startsWith('refs/tags/'))], b);
  const seen = new Map<string, Identity>();
  const add = (name: string | undefined, email: string | undefined) => {
    if (name === undefined || email === undefined || (!name && !email)) return;
    seen.set(`${name}\0${email}`, { name, email });
  };
  for (const line of out.split('\n')) {
    const [an, ae, cn, ce] = line.split('\0');
    add(an, ae);
    add(cn, ce);
  }
  for (const line of tags.split('\n')) {
    const [tn, te] = line.split('\0');
    add(tn, te);
  }
  return [...seen.values()];
}

export interface LargeFile {
  refName: string;
  path: string;
  oid: string;
  size: number;
}

/** Blobs over `threshold` bytes reachable from `refs`, with a path and the first (converted) ref that reaches them. */
export async function largeFiles(gitDir: string, refs: readonly RefMove[], threshold: number, b: ToolBounds): Promise<LargeFile[]> {
  const sizes = await git(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objecttype) %(objectname) %(objectsize)'], b);
  const large = new Map<string, number>();
  for (const line of sizes.split('\n')) {
    const [type, oid, size] = line.split(' ');
    if (type === 'blob' && oid && Number(size) > threshold) large.set(oid, Number(size));
  }
  if (large.size === 0) return [];
  const found = new Map<string, LargeFile>();
  for (const ref of refs) {
    const objects = await git(gitDir, ['rev-list', '--objects', ref.from], b);
    for (const line of objects.split('\n')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const oid = line.slice(0, space);
      const size = large.get(oid);
      if (size !== undefined && !found.has(oid)) found.set(oid, { refName: ref.to, path: line.slice(space + 1), oid, size });
    }
    if (found.size === large.size) break;
  }
  return [...found.values()];
}
