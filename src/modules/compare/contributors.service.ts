// A repository's contributors: commits of the default branch counted by author, the
// addresses of one user added up, other addresses listed as anonymous on request.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { authorCounts } from '../../git/authors.ts';
import { hasRefs, peel } from '../../git/objects.ts';
import { accountsOfAddresses } from '../git-data/commits.service.ts';
import { openRepo } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';

export type Contributor =
  | { kind: 'user'; account: Account; contributions: number }
  | { kind: 'anonymous'; email: string; name: string; contributions: number };

export interface ContributorPage {
  repo: Repo;
  /** Null for an empty repository (upstream answers 204). */
  items: Contributor[] | null;
  total: number;
}

export async function listContributors(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: { anon: boolean; offset: number; limit: number },
): Promise<ContributorPage> {
  const r = await openRepo(ctx, actor, owner, name);
  const tip = (await hasRefs(r.dir)) ? await peel(r.dir, r.repo.defaultBranch, 'commit') : null;
  if (!tip) return { repo: r.repo, items: null, total: 0 };
  const authors = await authorCounts(r.dir, tip);
  const find = await accountsOfAddresses(ctx, authors.map((a) => a.email));
  const users = new Map<number, Contributor & { kind: 'user' }>();
  const anonymous: Contributor[] = [];
  for (const a of authors) {
    const account = find(a.email);
    if (account) {
      const known = users.get(account.id);
      if (known) known.contributions += a.commits;
      else users.set(account.id, { kind: 'user', account, contributions: a.commits });
    } else if (q.anon) {
      anonymous.push({ kind: 'anonymous', email: a.email, name: a.name, contributions: a.commits });
    }
  }
  // Most contributions first; ties by login or address so that pages are stable.
  const key = (c: Contributor) => (c.kind === 'user' ? c.account.login.toLowerCase() : c.email.toLowerCase());
  const all = [...users.values(), ...anonymous].sort((a, b) => b.contributions - a.contributions || key(a).localeCompare(key(b)));
  return { repo: r.repo, items: all.slice(q.offset, q.offset + q.limit), total: all.length };
}
