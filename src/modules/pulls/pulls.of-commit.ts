// GET …/commits/{commit_sha}/pulls: the pull requests of a repository that hold a commit,
// as upstream: open ones whose head contains it, merged ones that brought it in (their
// head or merge commit). Whether a pull request holds the commit is asked of git: the
// commit is reachable from the head and not from the base the pull request was
// compared with (or merged into).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import { peel } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import * as issues from '../issues/issues.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import * as store from './pulls.store.ts';

/** Upstream looks through a repository's recent pull requests; so does Wharf, with a bound. */
const CANDIDATES = 500;

export async function listPullsOfCommit(
  ctx: AppContext, actor: Actor, owner: string, name: string, shaParam: string, slice: Slice,
): Promise<{ repo: Repo; items: { pull: PullRequestRecord; issue: IssueRecord }[]; total: number }> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  const dir = repos.gitDir(ctx, repo);
  const sha = /^[0-9a-f]{4,40}$/i.test(shaParam) ? await peel(dir, shaParam.toLowerCase(), 'commit') : null;
  if (!sha) {
    const message = `No commit found for SHA: ${shaParam}`;
    throw new ValidationError([{ resource: 'Commit', field: 'commit_sha', code: 'invalid', message }], message);
  }
  const holding: PullRequestRecord[] = [];
  for (const p of await store.openOrMerged(ctx.db, repo.id, CANDIDATES)) {
    if (p.headSha === sha || p.mergeCommitSha === sha || (await git.isAncestor(dir, sha, p.headSha) && !(await git.isAncestor(dir, sha, p.baseSha)))) {
      holding.push(p);
    }
  }
  const page = holding.slice(slice.offset, slice.offset + slice.perPage);
  const issueById = new Map((await issues.findIssuesByIds(ctx, page.map((p) => p.issueId))).map((i) => [i.id, i]));
  const items = page.flatMap((pull) => { const issue = issueById.get(pull.issueId); return issue ? [{ pull, issue }] : []; });
  return { repo, items, total: holding.length };
}
