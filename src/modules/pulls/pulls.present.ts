// Loads what the pull request views need, in bulk for a page: the issue views (through
// the issues service), the base and head repositories, requested reviewers and teams,
// the base branches' tips; and for one pull request its git figures and mergeability.
// Then builds the views: presentPulls (list records), presentPull (the full record).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import * as issues from '../issues/issues.service.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { PullRequestInfoProvider } from '../issues/issues.present.ts';
import type { BodyFormat } from '../../http/media-type.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { branchTip, branchTips, checkMergeability, figuresOf, rangeOf } from './pulls.git.ts';
import type { PullRequestRecord, ReviewRecord } from './pulls.model.ts';
import * as store from './pulls.store.ts';
import type { AutoMergeRecord } from './auto-merge.model.ts';
import * as autoMergeStore from './auto-merge.store.ts';
import type { Account } from '../users/users.model.ts';
import { protectionGate } from './pulls.protection.ts';
import * as reviewStore from './reviews.store.ts';
import {
  pullRequest, pullRequestSimple, type PullDetail, type PullFigures, type PullRequestSimpleView, type PullRequestView,
} from './pulls.views.ts';

export interface PresentPullOptions {
  bodyFormat?: BodyFormat;
  previews?: ReadonlySet<string>;
  /** Webhook payloads: repositories without the caller's permissions, lock reasons shown. */
  forPayload?: boolean;
  /** Issue records already loaded. */
  issues?: readonly IssueRecord[];
}

/** The details of pull requests of one repository, in the order given. */
export async function pullDetails(
  ctx: AppContext, actor: Actor, repo: Repo, pulls: readonly PullRequestRecord[], opts: PresentPullOptions = {},
): Promise<PullDetail[]> {
  if (!pulls.length) return [];
  const known = new Map((opts.issues ?? []).map((i) => [i.id, i]));
  const missing = pulls.map((p) => p.issueId).filter((id) => !known.has(id));
  for (const i of await issues.findIssuesByIds(ctx, missing)) known.set(i.id, i);
  const records = pulls.flatMap((p) => { const i = known.get(p.issueId); return i ? [i] : []; });
  const previews = opts.forPayload ? new Set(['sailor-v', ...(opts.previews ?? [])]) : opts.previews ?? new Set<string>();
  const headIds = [...new Set(pulls.flatMap((p) => (p.headRepositoryId !== null && p.headRepositoryId !== repo.id ? [p.headRepositoryId] : [])))];
  const openBases = pulls.flatMap((p) => (known.get(p.issueId)?.state === 'open' ? [p.baseRef] : []));
  const [views, headRepos, requests, tips, autoMerges] = await Promise.all([
    issues.presentIssues(ctx, actor, records, {
      bodyFormat: opts.bodyFormat ?? 'raw', previews, repos: [repo],
      pullRequests: new Map(pulls.map((p) => [p.issueId, { mergedAt: p.mergedAt, draft: p.draft }])),
    }),
    repos.reposByIds(ctx, headIds),
    store.listRequests(ctx.db, pulls.map((p) => p.id)),
    branchTips(repos.gitDir(ctx, repo), openBases),
    autoMergeStore.findMany(ctx.db, pulls.map((p) => p.id)),
  ]);
  const presentable = await repos.presentable(ctx, actor, [repo, ...headRepos]);
  const repoById = new Map(presentable.map((p) => [p.repo.id, opts.forPayload ? { ...p, role: null } : p]));
  const userIds = [
    ...requests.flatMap((r) => (r.userId === null ? [] : [r.userId])), ...pulls.flatMap((p) => (p.mergedById === null ? [] : [p.mergedById])),
    ...[...autoMerges.values()].map((a) => a.enabledById),
  ];
  const [accounts, teams] = await Promise.all([
    users.accountsByIds(ctx, userIds),
    orgs.teamsWithOrgLogins(ctx, requests.flatMap((r) => (r.teamId === null ? [] : [r.teamId]))),
  ]);
  const teamById = new Map(teams.map((t) => [t.team.id, t]));
  const viewById = new Map(records.map((r, i) => [r.id, views[i]]));
  return pulls.flatMap((p) => {
    const issue = known.get(p.issueId);
    const view = viewById.get(p.issueId);
    if (!issue || !view) return [];
    const mine = requests.filter((r) => r.pullRequestId === p.id);
    const open = issue.state === 'open';
    return [{
      pull: p,
      issue: view,
      repo: repoById.get(repo.id)!,
      head: { ref: p.headRef, sha: p.headSha, repo: p.headRepositoryId === null ? null : repoById.get(p.headRepositoryId) ?? null },
      base: { ref: p.baseRef, sha: open ? tips.get(p.baseRef) ?? p.baseSha : p.baseSha, repo: repoById.get(repo.id)! },
      requestedReviewers: mine.flatMap((r) => { const a = r.userId === null ? undefined : accounts.get(r.userId); return a ? [a] : []; }),
      requestedTeams: mine.flatMap((r) => { const t = r.teamId === null ? undefined : teamById.get(r.teamId); return t ? [t] : []; }),
      mergedBy: p.mergedById === null ? null : accounts.get(p.mergedById) ?? null,
      autoMerge: autoMergeOf(autoMerges.get(p.id), accounts),
    }];
  });
}

/** A pull request's auto-merge request as its view shows it; null without one (or once its user is gone). */
function autoMergeOf(request: AutoMergeRecord | undefined, accounts: Map<number, Account>): PullDetail['autoMerge'] {
  const enabledBy = request ? accounts.get(request.enabledById) : undefined;
  return request && enabledBy ? { request, enabledBy } : null;
}

/** mergeable_state as upstream words it; a clean merge is then judged by the base branch's protection. */
async function mergeableState(
  ctx: AppContext, repo: Repo, pull: PullRequestRecord, open: boolean, mergeable: boolean | null, baseTip: string | null, reviews?: readonly ReviewRecord[],
): Promise<string> {
  if (!open || mergeable === null || baseTip === null) return 'unknown';
  if (!mergeable) return 'dirty';
  if (pull.draft) return 'draft';
  return (await protectionGate(ctx, repo, pull, baseTip, undefined, reviews)).state;
}

export interface FullPull {
  /** The record with the mergeability just learnt (merge_commit_sha of the test merge). */
  pull: PullRequestRecord;
  figures: PullFigures;
}

/**
 * The git figures of one pull request, and whether it merges: computed from git for
 * the current (head, base) pair and cached on the record until either moves.
 * `reviews`: the pull request's submitted reviews, when the caller read a page's at
 * once (else read here).
 */
export async function pullFigures(ctx: AppContext, repo: Repo, pull: PullRequestRecord, issue: IssueRecord, reviews?: readonly ReviewRecord[]): Promise<FullPull> {
  const dir = repos.gitDir(ctx, repo);
  const open = issue.state === 'open';
  const baseTip = open ? await branchTip(dir, pull.baseRef) : null;
  const [range, reviewComments] = await Promise.all([
    rangeOf(dir, pull, baseTip, open),
    reviewStore.countSubmittedComments(ctx.db, [pull.id]),
  ]);
  const figures = await figuresOf(dir, range);
  let current = pull;
  if (open && baseTip !== null && (pull.checkedHeadSha !== pull.headSha || pull.checkedBaseSha !== baseTip)) {
    const m = await checkMergeability(ctx, repo, pull, baseTip);
    await store.saveMergeability(ctx.db, pull.id, m);
    current = {
      ...pull, mergeable: m.mergeable, rebaseable: m.rebaseable, checkedHeadSha: m.headSha, checkedBaseSha: m.baseSha,
      mergeBaseSha: m.mergeBaseSha, mergeCommitSha: m.mergeCommitSha,
    };
  }
  const mergeable = open && baseTip !== null ? current.mergeable : null;
  return {
    pull: current,
    figures: {
      ...figures,
      reviewComments: reviewComments.get(pull.id) ?? 0,
      mergeable,
      rebaseable: open && baseTip !== null ? current.rebaseable : null,
      mergeableState: await mergeableState(ctx, repo, current, open, mergeable, baseTip, reviews),
    },
  };
}

/** A pull request and its issue row (the records the pulls service returns). */
export interface PullRecords {
  pull: PullRequestRecord;
  issue: IssueRecord;
}

/** What the views take. Webhook payloads: no previews on the repositories (pullDetails gives the issue fields theirs). */
function pullViewOptions(ctx: AppContext, o: PresentPullOptions) {
  return { urls: ctx.urls, previews: o.forPayload ? new Set<string>() : o.previews ?? new Set<string>() };
}

/** The list records (pull-request-simple) of pull requests of one repository, in the order given. */
export async function presentPulls(
  ctx: AppContext, actor: Actor, repo: Repo, records: readonly PullRecords[], o: PresentPullOptions = {},
): Promise<PullRequestSimpleView[]> {
  const details = await pullDetails(ctx, actor, repo, records.map((r) => r.pull), { ...o, issues: records.map((r) => r.issue) });
  const options = { ...pullViewOptions(ctx, o), repoViews: new Map() };
  return details.map((d) => pullRequestSimple(d, options));
}

/** The full record of one pull request, with its git figures (computed, and cached on the record). */
export async function presentPull(ctx: AppContext, actor: Actor, repo: Repo, r: PullRecords, o: PresentPullOptions = {}): Promise<PullRequestView> {
  const full = await pullFigures(ctx, repo, r.pull, r.issue);
  const [detail] = await pullDetails(ctx, actor, repo, [full.pull], { ...o, issues: [r.issue] });
  if (!detail) throw new NotFoundError();
  return pullRequest(detail, full.figures, pullViewOptions(ctx, o));
}

/** pull_request summaries the issues module shows on pull requests' issue records. */
export const pullRequestInfo: PullRequestInfoProvider = async (ctx, issueIds) => {
  const rows = await store.findByIssueIds(ctx.db, issueIds);
  return new Map(rows.map((p) => [p.issueId, { mergedAt: p.mergedAt, draft: p.draft }]));
};
