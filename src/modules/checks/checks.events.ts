// check_run and check_suite webhook events, recorded in the transaction of the change.
// created and completed go to every hook that subscribes (repository, organization, and
// the apps installed on the repository that may receive them); rerequested, requested
// and requested_action go to the app they ask, alone, as upstream. A users' suite (no
// app) has no app to ask: its rerequests go to the repository's hooks instead, which is
// how a CI system without an app hears of them (a Wharf extension).
import type { AppContext } from '../../context.ts';
import { recordEvent } from '../../events/outbox.ts';
import { appHook, installationNodeId } from '../hooks/hooks.apps.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { CheckRun, CheckSuite } from './checks.model.ts';
import { presentRun, suiteDetails } from './checks.present.ts';
import * as store from './checks.store.ts';
import { checkSuite } from './checks.views.ts';

type Addressing = { hookId: number; installationId: number } | null;

/** The app's hook and its installation on the repository, when the app should hear of `event`. */
async function addressOf(ctx: AppContext, repo: Repo, appId: number, event: string): Promise<Addressing | 'none'> {
  const provider = ctx.bus.provider('appInstallationsOf');
  const reach = provider ? (await provider(ctx, [repo.id])).find((r) => r.appId === appId) : undefined;
  const hook = reach && reach.events.includes(event) ? await appHook(ctx, appId) : null;
  return hook && reach ? { hookId: hook.id, installationId: reach.installationId } : 'none';
}

async function record(ctx: AppContext, repo: Repo, senderId: number, event: string, action: string, payload: Record<string, unknown>, to: Addressing): Promise<void> {
  const addressed = to ? { hook_id: to.hookId, installation: { id: to.installationId, node_id: installationNodeId(to.installationId) } } : {};
  await recordEvent(ctx, {
    event, action, repositoryId: repo.id, actorId: senderId,
    organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null,
    payload: { ...payload, ...addressed },
  });
}

/** Where an event meant for the app of `appId` goes: its hook alone, nowhere, or (no app) broadcast. */
async function appOnly(ctx: AppContext, repo: Repo, appId: number | null, event: string): Promise<Addressing | 'none'> {
  return appId === null ? null : addressOf(ctx, repo, appId, event);
}

export async function recordRunEvent(
  ctx: AppContext, repo: Repo, senderId: number, action: 'created' | 'completed' | 'rerequested' | 'requested_action',
  run: CheckRun, appId: number | null, requestedAction?: string,
): Promise<void> {
  const to = action === 'created' || action === 'completed' ? null : await appOnly(ctx, repo, appId, 'check_run');
  if (to === 'none') return;
  const [suite] = await suiteDetails(ctx, repo, await store.suitesByIds(ctx.db, [run.suiteId]));
  const view = await presentRun(ctx, repo, run);
  const payload: Record<string, unknown> = { check_run: { ...view, check_suite: suite ? suiteOfRun(ctx, repo, suite) : view.check_suite } };
  if (requestedAction !== undefined) payload.requested_action = { identifier: requestedAction };
  await record(ctx, repo, senderId, 'check_run', action, payload, to);
}

export async function recordSuiteEvent(
  ctx: AppContext, repo: Repo, senderId: number, action: 'completed' | 'requested' | 'rerequested', suite: CheckSuite,
): Promise<void> {
  const to = action === 'completed' ? null : await appOnly(ctx, repo, suite.appId, 'check_suite');
  if (to === 'none') return;
  const [detail] = await suiteDetails(ctx, repo, [suite]);
  await record(ctx, repo, senderId, 'check_suite', action, { check_suite: suiteOfRun(ctx, repo, detail!) }, to);
}

/** A suite inside a payload: the record without its repository (the payload's own says it). */
function suiteOfRun(ctx: AppContext, repo: Repo, detail: Awaited<ReturnType<typeof suiteDetails>>[number]) {
  const { repository: _omitted, ...rest } = checkSuite(ctx.urls, repo, null, detail);
  return rest;
}
