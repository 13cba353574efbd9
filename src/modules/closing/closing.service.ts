// Closing issues by keyword: the issues a text's closing keywords name, and closing them
// through the issues module's one close path (state, closed_at, closed_by, the `closed`
// timeline event and the `issues` webhook), so a keyword close is a manual close.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import * as git from '../../git/repository.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { PullRequestRecord } from '../pulls/pulls.model.ts';
import * as pulls from '../pulls/pulls.service.ts';
import * as issues from '../issues/issues.service.ts';
import { accessToMany } from '../repos/repos.access.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { closingReferences, type ClosingReference } from './closing.keywords.ts';

export interface ReferencedIssue {
  repo: Repo;
  issue: IssueRecord;
}

/**
 * The issues (not pull requests) that `texts` reference with closing keywords, in the
 * order they appear, each once. `repo` is where bare #N points. Repositories that do not
 * exist are skipped; who may see or close them is the caller's rule.
 */
export async function referencedIssues(ctx: AppContext, repo: Repo, texts: readonly (string | null)[]): Promise<ReferencedIssue[]> {
  const refs: ClosingReference[] = texts.flatMap((t) => closingReferences(t, ctx.urls.html()));
  const repoByName = new Map<string, Repo | null>();
  const out: ReferencedIssue[] = [];
  const seen = new Set<number>();
  for (const ref of refs) {
    let target: Repo | null = repo;
    if (ref.owner !== null && ref.name !== null) {
      const key = `${ref.owner}/${ref.name}`.toLowerCase();
      if (!repoByName.has(key)) repoByName.set(key, await repos.findForGit(ctx, ref.owner, ref.name));
      target = repoByName.get(key)!;
    }
    if (!target) continue;
    const issue = await issues.findIssueByNumber(ctx, target.id, ref.number);
    if (!issue || issue.isPullRequest || seen.has(issue.id)) continue;
    seen.add(issue.id);
    out.push({ repo: target, issue });
  }
  return out;
}

/**
 * Closes, inside the caller's transaction, the open issues `texts` reference that the
 * actor may close (write access to the issue's repository, not archived). `commitId` is
 * the commit that carried the keyword (or the merge commit of the pull request).
 */
export async function closeReferencedIssues(
  tx: AppContext, actor: Actor, repo: Repo, texts: readonly (string | null)[], commitId: string | null,
): Promise<number> {
  let closed = 0;
  for (const { repo: target, issue } of await referencedIssues(tx, repo, texts)) {
    if (issue.state !== 'open' || target.archived) continue;
    // The user's role, not the token's: the push or merge that carried the keyword was
    // already authorized, and a subscriber has no token of its own.
    const { role } = await repos.accessTo(tx, actor, target);
    if (!roleAtLeast(role, 'push')) continue;
    // Re-read: an earlier commit of the same push may have closed it already.
    const current = await issues.findIssueByNumber(tx, target.id, issue.number);
    if (!current || current.state !== 'open') continue;
    await issues.updateIssueRecord(tx, target, actor, current, {
      state: 'closed', stateReason: 'completed', ...(commitId ? { closingCommitId: commitId } : {}),
    });
    closed += 1;
  }
  return closed;
}

/**
 * The issues a pull request would close on merge (GraphQL `closingIssuesReferences`):
 * those its body and its commits name, when it targets the default branch (keywords
 * elsewhere close nothing), in repositories the caller may read.
 */
export async function closingIssuesOfPull(
  ctx: AppContext, actor: Actor, repo: Repo, pull: PullRequestRecord, issue: IssueRecord,
): Promise<ReferencedIssue[]> {
  if (pull.baseRef !== repo.defaultBranch) return [];
  const dir = repos.gitDir(ctx, repo);
  // Merged: what the base lacked at the merge; open: what its branch lacks now.
  const exclude = pull.mergedAt ? pull.baseSha : `refs/heads/${pull.baseRef}`;
  const commits = await git.commitsBetween(dir, pull.headSha, [exclude]).catch(() => []);
  const found = await referencedIssues(ctx, repo, [issue.body, ...commits.map((c) => c.message)]);
  const access = await accessToMany(ctx, actor, [...new Map(found.map((f) => [f.repo.id, f.repo])).values()]);
  return found.filter((f) => access.get(f.repo.id)?.effective != null && f.repo.hasIssues);
}

/** How many of a repository's pull requests (the most recent) an issue's reverse lookup reads. */
export const CLOSING_PULLS_SCANNED = 100;

/**
 * The pull requests of the issue's repository that would close it on merge (GraphQL
 * `Issue.closedByPullRequestsReferences`): open ones (and with `includeClosed` closed and
 * merged ones too) targeting the default branch whose body or commits name it. Keywords
 * are not indexed: the most recent CLOSING_PULLS_SCANNED pull requests are read.
 */
export async function closingPullsOfIssue(
  ctx: AppContext, actor: Actor, repo: Repo, issue: IssueRecord, includeClosed: boolean,
): Promise<pulls.PullPair[]> {
  if (issue.isPullRequest) return [];
  const page = await pulls.listPullRecords(ctx, [repo], {
    states: includeClosed ? ['open', 'closed', 'merged'] : ['open'], baseRef: repo.defaultBranch,
    sort: 'created', direction: 'desc', offset: 0, limit: CLOSING_PULLS_SCANNED,
  });
  const out: pulls.PullPair[] = [];
  for (const p of page.items) {
    const found = await closingIssuesOfPull(ctx, actor, p.repo, p.pull, p.issue);
    if (found.some((f) => f.issue.id === issue.id)) out.push(p);
  }
  return out.reverse();
}
