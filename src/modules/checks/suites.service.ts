// Check suites: made with an app's first run on a commit, or asked for (POST, or a push
// for installed apps the repository has not turned off), got and listed by whoever may
// read the repository, rerequested, and the repository's preferences of which apps'
// suites pushes make.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import * as apps from '../apps/apps.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { forReading, forRerequest, forWriting } from './checks.access.ts';
import { recordSuiteEvent } from './checks.events.ts';
import type { CheckSuite } from './checks.model.ts';
import { commitOfRef, requireHeadSha } from './checks.service.ts';
import * as store from './checks.store.ts';
import { isStoredId } from '../../domain/ids.ts';

export interface SuiteRecord {
  repo: Repo;
  suite: CheckSuite;
  created: boolean;
}

/** 201 with a new suite, 200 with the writer's existing one for the commit (upstream). */
export async function createSuite(ctx: AppContext, actor: Actor, owner: string, name: string, headSha: string): Promise<SuiteRecord> {
  const w = await forWriting(ctx, actor, owner, name);
  const sha = await requireHeadSha(ctx, w.repo, headSha, 'CheckSuite');
  return inTransaction(ctx, async (tx) => {
    const found = await store.findSuite(tx.db, w.repo.id, w.appId, sha);
    if (found) return { repo: w.repo, suite: found, created: false };
    const suite = await store.insertSuite(tx.db, { repositoryId: w.repo.id, appId: w.appId, headSha: sha, headBranch: null, before: null, after: sha }, nowIso(tx.clock));
    return { repo: w.repo, suite, created: true };
  });
}

async function suiteOf(ctx: AppContext, repo: Repo, id: string): Promise<CheckSuite> {
  const suite = isStoredId(Number(id)) ? await store.findSuiteById(ctx.db, Number(id)) : undefined;
  if (!suite || suite.repositoryId !== repo.id) throw new NotFoundError();
  return suite;
}

export async function getSuite(ctx: AppContext, actor: Actor, owner: string, name: string, id: string): Promise<{ repo: Repo; suite: CheckSuite }> {
  const repo = await forReading(ctx, actor, owner, name);
  return { repo, suite: await suiteOf(ctx, repo, id) };
}

export async function listSuitesForRef(
  ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, q: store.SuiteFilter, slice: Slice,
): Promise<{ repo: Repo; items: CheckSuite[]; total: number }> {
  const repo = await forReading(ctx, actor, owner, name);
  const sha = await commitOfRef(ctx, repo, ref);
  const [items, total] = await Promise.all([store.listSuites(ctx.db, repo.id, sha, q, slice), store.countSuites(ctx.db, repo.id, sha, q)]);
  return { repo, items, total };
}

/** The suite back to queued and its app told (check_suite rerequested). */
export async function rerequestSuite(ctx: AppContext, actor: Actor, owner: string, name: string, id: string): Promise<void> {
  const w = await forRerequest(ctx, actor, owner, name);
  const suite = await suiteOf(ctx, w.repo, id);
  if (w.appId !== null && suite.appId !== w.appId) throw new ForbiddenError('Resource not accessible by integration');
  await inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    await store.setSuiteState(tx.db, suite.id, 'queued', null, now);
    await recordSuiteEvent(tx, w.repo, w.senderId, 'rerequested', { ...suite, status: 'queued', conclusion: null, updatedAt: now });
  });
}

// ---------------------------------------------------------------- preferences

export interface Preferences {
  repo: Repo;
  autoTrigger: { appId: number; setting: boolean }[];
}

/** Administrators choose which apps' suites pushes make (every installed app's, unless turned off). */
export async function setPreferences(
  ctx: AppContext, actor: Actor, owner: string, name: string, list: { app_id: number; setting: boolean }[],
): Promise<Preferences> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  const known = await apps.appsByIds(ctx, list.map((p) => p.app_id));
  const unknown = list.find((p) => !known.has(p.app_id));
  if (unknown) {
    throw new ValidationError([{ resource: 'CheckSuitePreference', field: 'app_id', code: 'invalid', message: `No app with id ${unknown.app_id}` }]);
  }
  await inTransaction(ctx, async (tx) => {
    for (const p of list) await store.setPreference(tx.db, repo.id, p.app_id, p.setting);
  });
  const prefs = await store.preferencesOf(ctx.db, repo.id);
  return { repo, autoTrigger: prefs.map((p) => ({ appId: p.appId, setting: p.autoTrigger })) };
}

// ---------------------------------------------------------------- pushes

/**
 * On a push of a branch, each installed app that may receive check_suite gets a suite
 * for the new head and a check_suite requested event, unless the repository turned
 * its automatic suites off. Runs in the push's transaction (a bus subscriber).
 */
export async function onPush(ctx: AppContext, e: DomainEvent): Promise<void> {
  const p = e.payload as { ref?: unknown; before?: unknown; after?: unknown; deleted?: unknown };
  if (!e.repositoryId || typeof p.ref !== 'string' || !p.ref.startsWith('refs/heads/') || p.deleted === true) return;
  if (typeof p.after !== 'string' || /^0+$/.test(p.after)) return;
  const provider = ctx.bus.provider('appInstallationsOf');
  if (!provider) return;
  const reaches = (await provider(ctx, [e.repositoryId])).filter((r) => r.events.includes('check_suite'));
  if (reaches.length === 0) return;
  const [repo] = await repos.reposByIds(ctx, [e.repositoryId]);
  if (!repo) return;
  const off = new Set((await store.preferencesOf(ctx.db, repo.id)).filter((x) => !x.autoTrigger).map((x) => x.appId));
  for (const reach of reaches) {
    if (off.has(reach.appId) || await store.findSuite(ctx.db, repo.id, reach.appId, p.after)) continue;
    const suite = await store.insertSuite(ctx.db, {
      repositoryId: repo.id, appId: reach.appId, headSha: p.after, headBranch: p.ref.slice('refs/heads/'.length),
      before: typeof p.before === 'string' ? p.before : null, after: p.after,
    }, nowIso(ctx.clock));
    await recordSuiteEvent(ctx, repo, e.actorId ?? repo.ownerId, 'requested', suite);
  }
}
