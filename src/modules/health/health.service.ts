// Liveness, readiness and metrics: what a supervisor, a load balancer and a scraper ask
// of a running Wharf.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { countUndispatched } from '../../events/outbox.ts';
import { checkGitBinary, probeRepositoryStorage } from '../../git/health-probe.ts';
import { requireSiteAdmin } from '../admin/admin.service.ts';
import { deliveryCountsByState } from '../hooks/deliveries.service.ts';
import * as sourceImports from '../imports/imports.service.ts';
import * as archiveImports from '../migration-import/import.service.ts';
import * as migrationExports from '../org-migrations/migrations.service.ts';
import { countQueued as countQueuedForIndex } from '../search/search-indexer.ts';
import * as store from './health.store.ts';
import type { QueueDepths, WharfMetrics } from './metrics.ts';

export type CheckName = 'database' | 'storage' | 'git';

/** A check's outcome; `problem` is for the caller (no path, host or error text: those go to the log). */
export interface CheckOutcome {
  ok: boolean;
  problem: string | null;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<CheckName, CheckOutcome>;
}

/** A check not answered by then has failed: a probe must answer in time whatever hangs. */
const CHECK_TIMEOUT_MS = 2000;

class CheckTimeout extends Error {}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new CheckTimeout()), ms); });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function check(ctx: AppContext, name: CheckName, work: () => Promise<unknown>, problem: string): Promise<CheckOutcome> {
  try {
    await within(work(), CHECK_TIMEOUT_MS);
    return { ok: true, problem: null };
  } catch (err) {
    const timedOut = err instanceof CheckTimeout;
    ctx.log.warn({ err, check: name }, `readiness check ${name} failed`);
    return { ok: false, problem: timedOut ? `${problem} (no answer within ${CHECK_TIMEOUT_MS / 1000} seconds)` : problem };
  }
}

/** GET /healthz: the process runs and serves HTTP; nothing else is asked, so a database outage never restarts it. */
export function liveness(): { status: 'ok' } {
  return { status: 'ok' };
}

/**
 * GET /readyz: the database answers a query; the repositories directory takes a file;
 * the git binary runs (its answer reused for a minute). The checks run together.
 */
export async function readiness(ctx: AppContext): Promise<ReadinessReport> {
  const [database, storage, git] = await Promise.all([
    check(ctx, 'database', () => store.ping(ctx.db), 'The database did not answer.'),
    check(ctx, 'storage', () => probeRepositoryStorage(ctx.config.dataDir), 'The repositories directory cannot be written.'),
    check(ctx, 'git', () => checkGitBinary(), 'The git binary could not be run.'),
  ]);
  return { ready: database.ok && storage.ok && git.ok, checks: { database, storage, git } };
}

/** Each queue's depth, read together; null (and logged) when the database does not answer. */
async function queueDepths(ctx: AppContext): Promise<QueueDepths | null> {
  try {
    const [webhookDeliveries, outboxUndispatched, searchIndex, orgMigrations, migrationImports, imports] = await within(Promise.all([
      deliveryCountsByState(ctx),
      countUndispatched(ctx),
      countQueuedForIndex(ctx),
      migrationExports.countWaitingExports(ctx),
      archiveImports.countWaitingImports(ctx),
      sourceImports.countWaitingImports(ctx),
    ]), CHECK_TIMEOUT_MS);
    return {
      webhookDeliveries, outboxUndispatched,
      jobsWaiting: { search_index: searchIndex, org_migrations: orgMigrations, migration_imports: migrationImports, source_imports: imports },
    };
  } catch (err) {
    ctx.log.warn({ err }, 'metrics: queue depths could not be read');
    return null;
  }
}

/** GET /metrics on PORT: site admins only (the site-admin API's rule). */
export async function metricsForActor(ctx: AppContext, actor: Actor, metrics: WharfMetrics): Promise<string> {
  requireSiteAdmin(actor);
  return metricsText(ctx, metrics);
}

/** GET /metrics: the text a scraper reads (unauthenticated on WHARF_METRICS_PORT). */
export async function metricsText(ctx: AppContext, metrics: WharfMetrics): Promise<string> {
  return metrics.text(await queueDepths(ctx));
}
