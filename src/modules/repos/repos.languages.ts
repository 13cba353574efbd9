// The languages of a repository: bytes per language over the blobs of its default
// branch (repos.language-table.ts names them), as REST's /languages and GraphQL's
// `languages` and `primaryLanguage` show them. A commit's answer never changes, so it
// is remembered per commit id.
import { listTree } from '../../git/objects.ts';
import { ObjectMemo } from '../../git/object-memo.ts';
import * as git from '../../git/repository.ts';
import { languageOfPath } from './repos.language-table.ts';

/** Language → bytes, largest first (ties by name). */
export type LanguageBytes = [language: string, bytes: number][];

const memo = new ObjectMemo<LanguageBytes>(1024);

async function languagesOfCommit(dir: string, commit: string): Promise<LanguageBytes> {
  const totals = new Map<string, number>();
  for (const e of await listTree(dir, commit, { recursive: true })) {
    if (e.type !== 'blob' || e.mode === '120000') continue;
    const language = languageOfPath(e.path);
    if (language) totals.set(language, (totals.get(language) ?? 0) + (e.size ?? 0));
  }
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The languages at the tip of `branch` (none when it does not exist). */
export async function languagesAt(dir: string, branch: string): Promise<LanguageBytes> {
  return languagesOfTip(dir, await git.resolve(dir, `refs/heads/${branch}`));
}

/** As languagesAt, at a commit already known (a push's new tip; none without one). */
export function languagesOfTip(dir: string, commit: string | null): Promise<LanguageBytes> {
  return commit ? memo.get(dir, [commit], () => languagesOfCommit(dir, commit), 'languages') : Promise.resolve([]);
}

/** The language with the most bytes, or null: the repository record's `language`. */
export function primaryLanguage(languages: LanguageBytes): string | null {
  return languages[0]?.[0] ?? null;
}
