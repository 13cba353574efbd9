// What wakes auto-merge, inside the transaction that records each change: a status or a
// check run on a pull request's head, a review submitted or dismissed, a thread resolved,
// a push to its base branch (strict checks, code owners), a draft made ready — each marks
// the pull request's auto-merge request for the worker, which merges after the commit.
// A push to the head by someone without write access turns auto-merge off, as upstream.
import type { AppContext } from '../../context.ts';
import { userActor } from '../../domain/actor.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import { wakeWorkers } from '../../events/wake.ts';
import { roleAtLeast } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import * as issues from '../issues/issues.service.ts';
import { DISABLED_REASONS } from './auto-merge.model.ts';
import { disableInTransaction } from './auto-merge.service.ts';
import * as store from './auto-merge.store.ts';
import * as pullStore from './pulls.store.ts';

interface Payload {
  sha?: string;
  ref?: string;
  deleted?: boolean;
  check_run?: { head_sha?: string };
  check_suite?: { head_sha?: string };
  pull_request?: { id?: number };
}

const PULL_ACTIONS: Record<string, readonly string[]> = {
  pull_request_review: ['submitted', 'dismissed'],
  pull_request_review_thread: ['resolved', 'unresolved'],
  pull_request: ['ready_for_review', 'edited'],
};

/** A push to the head: upstream turns auto-merge off when the pusher may not write to the base repository. */
async function onSynchronize(ctx: AppContext, e: DomainEvent, pullId: number): Promise<void> {
  const [request] = (await store.findMany(ctx.db, [pullId])).values();
  const pull = request ? await pullStore.findById(ctx.db, pullId) : null;
  const pusher = e.actorId ? (await users.accountsByIds(ctx, [e.actorId])).get(e.actorId) : undefined;
  if (!request || !pull || !pusher) return;
  const [repo] = await repos.reposByIds(ctx, [pull.repositoryId]);
  const [issue] = await issues.findIssuesByIds(ctx, [pull.issueId]);
  if (!repo || !issue) return;
  const actor = userActor({ id: pusher.id, login: pusher.login, siteAdmin: pusher.siteAdmin }, 'token', 0, ['repo'], '');
  if (roleAtLeast((await repos.accessTo(ctx, actor, repo)).role, 'push')) {
    await store.markPending(ctx.db, [pullId]);
    return;
  }
  await disableInTransaction(ctx, actor, { repo, role: null, pull, issue }, DISABLED_REASONS.pushed);
}

export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  if (await markFor(ctx, e)) wakeWorkers(ctx, 'auto-merge');
}

/** Marks the requests `e` may have changed the judgement of; whether it could have marked any. */
async function markFor(ctx: AppContext, e: DomainEvent): Promise<boolean> {
  const p = e.payload as Payload;
  if (!e.repositoryId) return false;
  if (e.event === 'status' && p.sha) await store.markPendingByHead(ctx.db, e.repositoryId, [p.sha]);
  else if (e.event === 'check_run' && p.check_run?.head_sha) await store.markPendingByHead(ctx.db, e.repositoryId, [p.check_run.head_sha]);
  else if (e.event === 'check_suite' && p.check_suite?.head_sha) await store.markPendingByHead(ctx.db, e.repositoryId, [p.check_suite.head_sha]);
  else if (e.event === 'push' && p.ref?.startsWith('refs/heads/') && !p.deleted) {
    await store.markPendingByBase(ctx.db, e.repositoryId, p.ref.slice('refs/heads/'.length));
  } else if (e.event === 'pull_request' && e.action === 'synchronize' && p.pull_request?.id) await onSynchronize(ctx, e, p.pull_request.id);
  else if (p.pull_request?.id && e.action && PULL_ACTIONS[e.event]?.includes(e.action)) await store.markPending(ctx.db, [p.pull_request.id]);
  else return false;
  return true;
}
