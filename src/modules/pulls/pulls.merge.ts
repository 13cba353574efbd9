// Merging a pull request for real (a merge commit, a squashed commit or the commits
// replayed onto the base), with the repository's allow_* settings, the head sha guard
// and delete_branch_on_merge; and update-branch, which merges the base into the head.
// Each moves a branch with its old value as a guard and records the move as a push.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { ConflictError, ForbiddenError, NotAllowedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { mergeBase } from '../../git/compare.ts';
import { isConflict, mergeCommits } from '../../git/merge.ts';
import type { Ident } from '../../git/object-format.ts';
import { copyCommit, rebaseCommits } from '../../git/pull-merge.ts';
import * as git from '../../git/repository.ts';
import { GitError } from '../../git/run.ts';
import { loadCommits } from '../git-data/git-data.repository.ts';
import { afterPush, withRefRecordingLock } from '../git-http/git-http.service.ts';
import * as issues from '../issues/issues.service.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { recordPullEvent } from './pulls.events.ts';
import { protectionGate } from './pulls.protection.ts';
import { branchTip, commitShas, rangeOf } from './pulls.git.ts';
import type { MergeMethod, PullRequestRecord } from './pulls.model.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';
import * as store from './pulls.store.ts';

export interface MergeInput {
  commitTitle?: string;
  commitMessage?: string;
  sha?: string;
  mergeMethod?: MergeMethod;
  /** The merge commit's author e-mail (GraphQL's authorEmail; auto-merge keeps the one asked for). */
  authorEmail?: string;
}

export const NOT_ALLOWED: Record<MergeMethod, string> = {
  merge: 'Merge commits are not allowed on this repository.',
  squash: 'Squash merges are not allowed on this repository.',
  rebase: 'Rebase merges are not allowed on this repository.',
};

export function allowed(repo: Repo, method: MergeMethod): boolean {
  return method === 'merge' ? repo.allowMergeCommit : method === 'squash' ? repo.allowSquashMerge : repo.allowRebaseMerge;
}

async function identOf(ctx: AppContext, userId: number): Promise<Ident> {
  const account = (await users.accountsByIds(ctx, [userId])).get(userId);
  if (!account) throw new NotFoundError();
  return {
    name: account.name ?? account.login,
    email: account.email ?? noreplyEmail(ctx, account),
    epoch: Math.floor(ctx.clock.now().getTime() / 1000),
    tz: '+0000',
  };
}

/** Title and body joined as a commit message. */
function message(title: string, body: string): string {
  return body === '' ? `${title}\n` : `${title}\n\n${body}\n`;
}

async function headLabelOf(ctx: AppContext, pull: PullRequestRecord): Promise<string> {
  const [head] = pull.headRepositoryId === null ? [] : await repos.reposByIds(ctx, [pull.headRepositoryId]);
  return head ? `${head.owner.login}/${pull.headRef}` : pull.headRef;
}

/** Moves a branch guarded by its old value; a branch that moved meanwhile is a 409. */
async function moveBranch(dir: string, branch: string, sha: string, old: string, who: 'Base' | 'Head'): Promise<void> {
  try {
    await git.updateRef(dir, `refs/heads/${branch}`, sha, old);
  } catch (err) {
    if (err instanceof GitError) throw new ConflictError(`${who} branch was modified. Review and try the merge again.`);
    throw err;
  }
}

export interface MergeOutcome {
  sha: string;
  /** The pull request as the merge left it (merged, closed). */
  merged: LocatedPull;
}

export async function mergePull(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: MergeInput): Promise<MergeOutcome> {
  const user = requireUser(actor);
  const located = await locatePull(ctx, actor, owner, name, number);
  const { repo, pull, issue } = located;
  await repos.requireRole(ctx, actor, repo, 'push');
  // The merge commit's message: bounded as any message given to git.
  requireMaxLength('PullRequest', 'commit_title', input.commitTitle, TEXT_LIMITS.gitMessage);
  requireMaxLength('PullRequest', 'commit_message', input.commitMessage, TEXT_LIMITS.gitMessage);
  requireWritable(repo);
  const method = input.mergeMethod ?? 'merge';
  if (!allowed(repo, method)) throw new NotAllowedError(NOT_ALLOWED[method]);
  if (pull.mergedAt || issue.state !== 'open') throw new NotAllowedError('Pull Request is not mergeable');
  if (input.sha !== undefined && input.sha !== pull.headSha) throw new ConflictError('Head branch was modified. Review and try the merge again.');
  if (pull.draft) throw new NotAllowedError('Pull Request is still a draft');
  const dir = repos.gitDir(ctx, repo);
  const baseTip = await branchTip(dir, pull.baseRef);
  if (!baseTip) throw new NotAllowedError('Pull Request is not mergeable');
  // The base branch's protection and rulesets: missing reviews or checks, or a head
  // behind under strict checks, refuse the merge (administrators bypass classic rules
  // unless enforce_admins; a ruleset's bypass actors bypass it).
  const gate = await protectionGate(ctx, repo, pull, baseTip, actor);
  if (gate.reason && !gate.bypassed) {
    throw new NotAllowedError(gate.reason);
  }

  const committer = await identOf(ctx, user.id);
  const withEmail = (ident: Ident): Ident => (input.authorEmail ? { ...ident, email: input.authorEmail } : ident);
  const label = await headLabelOf(ctx, pull);
  let sha: string;
  if (method === 'merge') {
    const result = await mergeCommits(dir, {
      ours: baseTip, theirs: pull.headSha, author: withEmail(committer), committer,
      message: message(input.commitTitle ?? `Merge pull request #${pull.number} from ${label}`, input.commitMessage ?? issue.title),
    });
    if (isConflict(result)) throw new NotAllowedError('Pull Request is not mergeable');
    sha = result.sha;
  } else {
    const range = await rangeOf(dir, pull, baseTip, true);
    const shas = await commitShas(dir, range);
    if (method === 'squash') {
      const commits = await loadCommits(ctx, dir, shas);
      const body = input.commitMessage ?? shas.map((s) => `* ${commits.get(s)?.parsed.message.trim() ?? ''}`).join('\n\n');
      const result = await mergeCommits(dir, {
        ours: baseTip, theirs: pull.headSha, parents: 'ours', author: withEmail(await identOf(ctx, issue.userId)), committer,
        message: message(input.commitTitle ?? `${issue.title} (#${pull.number})`, body),
      });
      if (isConflict(result)) throw new NotAllowedError('Pull Request is not mergeable');
      sha = result.sha;
    } else {
      const result = await rebaseCommits(dir, baseTip, shas, committer);
      if (isConflict(result)) throw new NotAllowedError('This branch can\'t be rebased');
      sha = result.sha;
    }
  }

  const found = await mergeBase(dir, baseTip, pull.headSha);
  const deleteHead = repo.deleteBranchOnMerge && pull.headRepositoryId === repo.id && pull.headRef !== repo.defaultBranch;
  // The branch moves and is recorded under the ref recording lock (as an API ref write):
  // a push settling meanwhile in any process neither records this change nor loses its own.
  const merged = await withRefRecordingLock(ctx, repo.id, async (locked) => {
    const before = await git.listRefs(dir);
    await moveBranch(dir, pull.baseRef, sha, baseTip, 'Base');
    // A head branch that moved meanwhile carries new work: it stays.
    if (deleteHead) await git.deleteRef(dir, `refs/heads/${pull.headRef}`, pull.headSha).catch(() => undefined);
    const after = await git.listRefs(dir);
    return inTransaction(locked, async (tx) => {
      const current = await reload(tx, located);
      if (current.pull.mergedAt) throw new NotAllowedError('Pull Request is not mergeable');
      const merged = await store.update(tx.db, pull.id, {
        mergedAt: nowIso(tx.clock), mergedById: user.id, mergeCommitSha: sha, baseSha: baseTip, mergeBaseSha: found,
      }, nowIso(tx.clock));
      const closed = await issues.updateIssueRecord(tx, repo, actor, current.issue, { state: 'closed' });
      await recordPullEvent(tx, actor, repo, merged, closed, 'closed');
      await afterPush(tx, actor, repo, before, after, { only: [`refs/heads/${pull.baseRef}`, ...(deleteHead ? [`refs/heads/${pull.headRef}`] : [])] });
      return { ...current, pull: merged, issue: closed };
    });
  });
  return { sha, merged };
}

/** GET …/merge: 204 when merged, 404 otherwise. */
export async function checkMerged(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<void> {
  const { pull } = await locatePull(ctx, actor, owner, name, number);
  if (!pull.mergedAt) throw new NotFoundError();
}

// ---------------------------------------------------------------- update-branch

export interface UpdateBranchOutcome {
  message: string;
  url: string;
}

/**
 * Merges the base branch into the head branch (in the head's repository). The head's
 * owner side may do it, and the base's maintainers when the author allows it.
 */
export async function updateBranch(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, expectedHeadSha: string | undefined,
): Promise<UpdateBranchOutcome> {
  const user = requireUser(actor);
  const { repo, role, pull, issue } = await locatePull(ctx, actor, owner, name, number);
  if (issue.state !== 'open') throw new ValidationError([{ resource: 'PullRequest', field: 'state', code: 'custom', message: 'Pull request is not open.' }], 'Pull request is not open.');
  const [head] = pull.headRepositoryId === null ? [] : await repos.reposByIds(ctx, [pull.headRepositoryId]);
  if (!head) throw new ValidationError([{ resource: 'PullRequest', field: 'head', code: 'invalid' }], 'The head repository no longer exists.');
  const headRole = head.id === repo.id ? role : (await repos.accessTo(ctx, actor, head)).effective;
  const maintainer = pull.maintainerCanModify && roleAtLeast(role, 'push');
  if (!roleAtLeast(headRole, 'push') && !maintainer) throw new ForbiddenError('Must have push access to the head repository to update this branch.');
  if (head.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  if (expectedHeadSha !== undefined && expectedHeadSha !== pull.headSha) {
    throw new ValidationError([], 'expected head sha didn\'t match current head ref.');
  }
  const dir = repos.gitDir(ctx, repo);
  const baseTip = await branchTip(dir, pull.baseRef);
  if (!baseTip) throw new ValidationError([{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
  if (await git.isAncestor(dir, baseTip, pull.headSha)) throw new ValidationError([], 'There are no new commits on the base branch.');
  const ident = await identOf(ctx, user.id);
  const result = await mergeCommits(dir, {
    ours: pull.headSha, theirs: baseTip, author: ident, committer: ident,
    message: `Merge branch '${pull.baseRef}' into ${pull.headRef}\n`,
  });
  if (isConflict(result)) throw new ValidationError([], 'merge conflict between base and head');

  const headDir = repos.gitDir(ctx, head);
  if (head.id !== repo.id) await copyCommit(headDir, dir, result.sha);
  // Recorded as a push to the head: the push subscriber moves the pull request along (synchronize).
  await withRefRecordingLock(ctx, head.id, async (locked) => {
    const before = await git.listRefs(headDir);
    await moveBranch(headDir, pull.headRef, result.sha, pull.headSha, 'Head');
    await afterPush(locked, actor, head, before, await git.listRefs(headDir), { only: [`refs/heads/${pull.headRef}`] });
  });
  return { message: 'Updating pull request branch.', url: ctx.urls.html(repo.owner.login, repo.name, 'pull', pull.number) };
}
