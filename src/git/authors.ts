// Who wrote a history: commits counted by author address (the contributors list).
import { ObjectMemo } from './object-memo.ts';
import { gitText } from './run.ts';

export interface AuthorCount {
  /** As written in the commits (the first spelling met, newest first). */
  email: string;
  name: string;
  commits: number;
}

const counts = new ObjectMemo<AuthorCount[]>(256);

/** Commits reachable from `from` counted by author address (case-insensitive), most first. */
export function authorCounts(dir: string, from: string): Promise<AuthorCount[]> {
  return counts.get(dir, [from], async () => {
    // The mailmap is not applied: addresses are matched to users as they were written.
    const out = await gitText(dir, ['log', '--no-mailmap', '--format=%ae%x00%an', '--end-of-options', from, '--']);
    const byEmail = new Map<string, AuthorCount>();
    for (const line of out.split('\n')) {
      if (!line) continue;
      const [email = '', name = ''] = line.split('\0');
      const key = email.toLowerCase();
      const known = byEmail.get(key);
      if (known) known.commits += 1;
      else byEmail.set(key, { email, name, commits: 1 });
    }
    return [...byEmail.values()].sort((a, b) => b.commits - a.commits);
  });
}
