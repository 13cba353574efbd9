// Pushes move pull requests along: a push to the head branch of an open pull request
// (in its repository or in a fork) copies the new head into the base repository,
// updates head_sha and records `pull_request` `synchronize` (and, under the base branch's
// dismiss_stale_reviews, dismisses approvals of earlier commits). A push to a base branch
// needs nothing here: mergeability is cached per (head, base) pair of commits, so the
// next read compares against the new base.
import type { AppContext } from '../../context.ts';
import { anonymousActor, userActor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import { ZERO_SHA } from '../../git/repository.ts';
import * as issues from '../issues/issues.service.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { branchRules } from '../branch-protection/ref-rules.service.ts';
import { recordPullEvent } from './pulls.events.ts';
import { bringCommit, pinHead } from './pulls.git.ts';
import * as store from './pulls.store.ts';
import { dismissStaleApprovals } from './reviews.service.ts';

interface PushPayload {
  ref?: string;
  before?: string;
  after?: string;
  deleted?: boolean;
}

async function onPush(ctx: AppContext, e: DomainEvent): Promise<void> {
  const p = e.payload as PushPayload;
  if (!e.repositoryId || !p.ref?.startsWith('refs/heads/') || p.deleted || !p.after || p.after === ZERO_SHA) return;
  const branch = p.ref.slice('refs/heads/'.length);
  const pulls = (await store.findByHead(ctx.db, e.repositoryId, branch)).filter((pull) => pull.headSha !== p.after && !pull.mergedAt);
  if (!pulls.length) return;
  const records = await issues.findIssuesByIds(ctx, pulls.map((pull) => pull.issueId));
  const open = new Map(records.filter((i) => i.state === 'open').map((i) => [i.id, i]));
  const moving = pulls.filter((pull) => open.has(pull.issueId));
  if (!moving.length) return;
  const repoList = await repos.reposByIds(ctx, [e.repositoryId, ...moving.map((pull) => pull.repositoryId)]);
  const byId = new Map(repoList.map((r) => [r.id, r]));
  const head = byId.get(e.repositoryId);
  const pusher = e.actorId ? (await users.accountsByIds(ctx, [e.actorId])).get(e.actorId) : undefined;
  const actor = pusher ? userActor({ id: pusher.id, login: pusher.login, siteAdmin: pusher.siteAdmin }, 'token', 0, [], '') : anonymousActor('');
  for (const pull of moving) {
    const base = byId.get(pull.repositoryId);
    if (!base || !head) continue;
    await bringCommit(ctx, base, head, p.after);
    await pinHead(ctx, base, pull.number, p.after);
    const moved = await store.update(ctx.db, pull.id, { headSha: p.after, lastPusherId: e.actorId ?? null }, nowIso(ctx.clock));
    await issues.touchIssue(ctx, pull.issueId);
    const [issue] = await issues.findIssuesByIds(ctx, [pull.issueId]);
    await recordPullEvent(ctx, actor, base, moved, issue!, 'synchronize', { before: pull.headSha, after: p.after });
    const rules = await branchRules(ctx, base, moved.baseRef);
    if (rules?.requiredPullRequestReviews?.dismissStaleReviews) {
      await dismissStaleApprovals(ctx, actor, { repo: base, role: null, pull: moved, issue: issue! });
    }
  }
}

export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  if (e.event === 'push') await onPush(ctx, e);
}
