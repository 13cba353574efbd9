// Building a tree from upstream's create-tree entries: nested paths make or change
// subtrees, `sha: null` deletes, `content` writes a blob; with a base tree only the
// directories touched are rewritten. Everything is checked before anything is written.
import { ValidationError, type FieldError } from '../../domain/errors.ts';
import { isSha } from '../../git/object-format.ts';
import { listTree, objectInfo, writeTree, type NewTreeEntry } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';

export interface TreeEntryInput {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string | null;
  content?: string;
}

type EntryType = 'blob' | 'tree' | 'commit';

const TYPE_OF_MODE: Record<string, EntryType> = {
  '100644': 'blob', '100755': 'blob', '120000': 'blob', '040000': 'tree', '160000': 'commit',
};

interface Leaf {
  kind: 'leaf';
  mode: string;
  type: EntryType;
  /** Null until the blob of `content` is written. */
  sha: string | null;
  content?: string;
}

interface Dir {
  kind: 'dir';
  /** The tree this directory started from; null for a new one. */
  base: string | null;
  entries: Map<string, Leaf | Dir> | null;
}

const RESOURCE = 'Tree';

function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field, code: 'invalid', message }], message);
}

/** The longest path taken (PATH_MAX of common systems: no checkout could hold a longer one). */
export const MAX_PATH_BYTES = 4096;

/**
 * Path components git and every checkout can hold: no empty, "." or ".." component,
 * no ".git", no NUL. Shared with the contents API.
 */
export function pathProblem(path: string): string | null {
  if (path === '' || path.startsWith('/') || path.endsWith('/')) return 'must be a relative path without a leading or trailing slash';
  if (path.includes('\0')) return 'may not contain NUL';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  for (const c of path.split('/')) {
    if (c === '' || c === '.' || c === '..') return 'contains a malformed path component';
    if (c.toLowerCase() === '.git') return 'may not contain a .git component';
  }
  return null;
}

interface Checked {
  parts: string[];
  leaf: Leaf | null;
}

/** Checks each entry on its own and the objects they name, in one batch. */
async function checkEntries(dir: string, tree: TreeEntryInput[]): Promise<Checked[]> {
  const errors: FieldError[] = [];
  const named: { index: number; sha: string; type: EntryType }[] = [];
  const checked = tree.map((e, i): Checked => {
    const at = `tree[${i}]`;
    const fail = (field: string, message: string, code: FieldError['code'] = 'invalid') => {
      errors.push({ resource: RESOURCE, field: `${at}.${field}`, code, message: `${at}.${field} ${message}` });
      return { parts: [], leaf: null };
    };
    if (typeof e.path !== 'string') return fail('path', 'is missing', 'missing_field');
    const problem = pathProblem(e.path);
    // A path too long to take is not echoed back.
    if (problem) return fail('path', e.path.length > 1024 ? problem : `${problem}: ${JSON.stringify(e.path)}`);
    if (e.sha === null) return { parts: e.path.split('/'), leaf: null };
    if (e.mode === undefined) return fail('mode', 'is missing', 'missing_field');
    const type = TYPE_OF_MODE[e.mode];
    if (!type) return fail('mode', `${JSON.stringify(e.mode)} is not one of 100644, 100755, 040000, 160000, 120000`);
    if (e.type !== undefined && e.type !== type) return fail('type', `${e.type} does not go with mode ${e.mode}`);
    if (e.sha !== undefined && e.content !== undefined) return fail('sha', 'and content may not both be given: use either tree.sha or tree.content');
    if (e.sha === undefined && e.content === undefined) return fail('sha', 'is missing: give either tree.sha or tree.content', 'missing_field');
    if (e.content !== undefined) {
      if (type !== 'blob') return fail('content', `can only make a blob, not a ${type}`);
      return { parts: e.path.split('/'), leaf: { kind: 'leaf', mode: e.mode, type, sha: null, content: e.content } };
    }
    const sha = e.sha!.toLowerCase();
    if (!isSha(sha)) return fail('sha', `is not a valid SHA-1: ${JSON.stringify(e.sha)}`);
    // A submodule entry names a commit of another repository: there is nothing here to check.
    if (type !== 'commit') named.push({ index: i, sha, type });
    return { parts: e.path.split('/'), leaf: { kind: 'leaf', mode: e.mode, type, sha } };
  });
  if (named.length) {
    const info = await objectInfo(dir, named.map((n) => n.sha));
    for (const n of named) {
      const found = info.get(n.sha);
      if (!found) errors.push({ resource: RESOURCE, field: `tree[${n.index}].sha`, code: 'invalid', message: `tree.sha ${n.sha} is not a valid ${n.type}` });
      else if (found.type !== n.type) errors.push({ resource: RESOURCE, field: `tree[${n.index}].sha`, code: 'invalid', message: `tree.sha ${n.sha} is a ${found.type}, not a ${n.type}` });
    }
  }
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  return checked;
}

/** Writes the tree the entries describe (on `baseTree` when given); returns its sha. */
export async function buildTree(dir: string, tree: TreeEntryInput[], baseTree?: string): Promise<string> {
  let base: string | null = null;
  if (baseTree !== undefined) {
    const info = isSha(baseTree.toLowerCase()) ? (await objectInfo(dir, [baseTree.toLowerCase()])).get(baseTree.toLowerCase()) : null;
    if (!info || info.type !== 'tree') throw invalid('base_tree', `base_tree ${baseTree} is not a valid tree`);
    base = info.sha;
  }
  const checked = await checkEntries(dir, tree);
  const root: Dir = { kind: 'dir', base, entries: null };

  const load = async (d: Dir): Promise<Map<string, Leaf | Dir>> => {
    if (!d.entries) {
      const listed = d.base ? await listTree(dir, d.base) : [];
      d.entries = new Map(listed.map((e) => [e.path, { kind: 'leaf', mode: e.mode, type: e.type, sha: e.sha } satisfies Leaf]));
    }
    return d.entries;
  };

  for (const [i, c] of checked.entries()) {
    const path = c.parts.join('/');
    let node = root;
    for (const part of c.parts.slice(0, -1)) {
      const entries = await load(node);
      const cur = entries.get(part);
      let next: Dir;
      if (cur?.kind === 'dir') next = cur;
      else if (cur?.type === 'tree') next = { kind: 'dir', base: cur.sha, entries: null };
      else if (!cur && c.leaf) next = { kind: 'dir', base: null, entries: new Map() };
      else if (!cur) throw invalid(`tree[${i}].path`, `tree.path ${path} does not exist and cannot be deleted`);
      else throw invalid(`tree[${i}].path`, `tree.path ${path} runs through the file ${part}`);
      entries.set(part, next);
      node = next;
    }
    const entries = await load(node);
    const name = c.parts[c.parts.length - 1]!;
    if (c.leaf) entries.set(name, { ...c.leaf });
    else if (!entries.delete(name)) throw invalid(`tree[${i}].path`, `tree.path ${path} does not exist and cannot be deleted`);
  }

  const write = async (d: Dir, isRoot: boolean): Promise<string | null> => {
    // Nothing asked and no base: the empty tree (git mktree makes it, as upstream does for `"tree": []`).
    if (!d.entries) return d.base ?? (isRoot ? writeTree(dir, []) : null);
    const out: NewTreeEntry[] = [];
    for (const [name, item] of d.entries) {
      if (item.kind === 'dir') {
        const sha = await write(item, false);
        // A directory left without entries disappears, as it does in git.
        if (sha) out.push({ mode: '040000', type: 'tree', sha, name });
      } else {
        const sha = item.sha ?? await git.hashObject(dir, 'blob', Buffer.from(item.content ?? '', 'utf8'));
        out.push({ mode: item.mode, type: item.type, sha, name });
      }
    }
    if (out.length === 0 && !isRoot) return null;
    return writeTree(dir, out);
  };
  return (await write(root, true))!;
}
