// The blame page's data: the file at a ref as the file view reads it (the contents
// service decides who may see it and which file the address names), then git's blame of
// it at the ref's commit, with the Wharf users behind the authors' addresses. A file
// too large or binary is not blamed: the page says so, as upstream does.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { blameFile, type Blame } from '../../git/blame.ts';
import { peel } from '../../git/objects.ts';
import { accountsOfAddresses } from '../git-data/commits.service.ts';
import type { Account } from '../users/users.model.ts';
import * as repos from '../repos/repos.service.ts';
import { blobAt, type BlobView } from './code.service.ts';

/** Files with more lines than this are not blamed: the work grows with lines times history. */
export const MAX_BLAME_LINES = 10_000;

export interface BlameView extends BlobView {
  /** The commit the ref names, whose file is blamed. */
  commit: string;
  /** Why the file is not blamed, or null when it is. */
  refused: string | null;
  blame: Blame | null;
  /** The Wharf user behind each blamed commit's author address. */
  authors: Map<string, Account | null>;
  lines: number;
}

function linesOf(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export async function blameAt(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string): Promise<BlameView> {
  const v = await blobAt(ctx, actor, owner, name, refAndPath);
  const dir = repos.gitDir(ctx, v.repo);
  const commit = await peel(dir, v.ref, 'commit');
  if (!commit) throw new NotFoundError();
  const bytes = v.file.content;
  const none = { ...v, commit, blame: null, authors: new Map<string, Account | null>() };
  if (!bytes) return { ...none, refused: 'This file is too large to blame.', lines: 0 };
  if (bytes.subarray(0, 8000).includes(0)) return { ...none, refused: 'Binary files cannot be blamed.', lines: 0 };
  const lines = linesOf(bytes.toString('utf8'));
  if (lines > MAX_BLAME_LINES) return { ...none, refused: `This file has ${lines} lines: files over ${MAX_BLAME_LINES} lines are too large to blame.`, lines };
  // A symbolic link's file view shows the file it links to: that file is blamed.
  const blame = await blameFile(dir, commit, v.file.path);
  const find = await accountsOfAddresses(ctx, [...blame.commits.values()].map((c) => c.authorEmail));
  const authors = new Map([...blame.commits.values()].map((c) => [c.sha, find(c.authorEmail)] as const));
  return { ...v, commit, refused: null, blame, authors, lines };
}
