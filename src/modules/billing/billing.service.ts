// Billing summaries of organizations and users, computed from what Wharf recorded in the
// account's current cycle (the calendar month of the server's clock): jobs reported by
// self-hosted runners and by the metering endpoint (hosted), metered bandwidth and
// storage. Organizations' summaries are for their owners (Wharf has no billing
// managers); users' for themselves (and site admins).
import { inTransaction, type AppContext } from '../../context.ts';
import { isSiteAdmin, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { isIsoTimestamp, isoSeconds, nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import {
  bandwidthUsed, cycleOf, daysLeft, gb, minutesSummary, storageForMonth, type MinutesSummary,
} from './billing.compute.ts';
import type { ActionsJob, BillingPlan } from './billing.model.ts';
import * as store from './billing.store.ts';

export const ORG_SCOPES = ['repo', 'admin:org'];
export const USER_SCOPES = ['user'];

/** Whose summary: an organization's or a user's, by login. */
export type BillingAccountAt = { kind: 'org'; login: string } | { kind: 'user'; login: string };

/** The account whose billing the caller may read. */
export async function billedAccount(ctx: AppContext, actor: Actor, at: BillingAccountAt): Promise<Account> {
  const user = requireUser(actor);
  if (at.kind === 'org') {
    const org = await orgs.requireOrganization(ctx, at.login);
    requireScope(actor, ...ORG_SCOPES);
    await orgs.requireOrgOwner(ctx, actor, org, 'Must be an organization owner or billing manager.');
    return org.account;
  }
  const account = await users.requireAccount(ctx, at.login);
  if (account.type !== 'User') throw new NotFoundError();
  requireScope(actor, ...USER_SCOPES);
  if (account.id !== user.id && !isSiteAdmin(actor)) throw new ForbiddenError('You can only read your own billing.');
  return account;
}

/** The account's plan: the one the site admin gave it, else the configured default. */
export async function planOf(ctx: AppContext, accountId: number): Promise<BillingPlan> {
  const assigned = await store.planOfAccount(ctx.db, accountId);
  if (assigned) return assigned;
  const p = ctx.config.defaultPlan;
  return (await store.findPlan(ctx.db, p.name)) ?? p;
}

export async function actionsSummary(ctx: AppContext, actor: Actor, at: BillingAccountAt): Promise<MinutesSummary> {
  const account = await billedAccount(ctx, actor, at);
  const cycle = cycleOf(ctx.clock.now());
  const [jobs, plan] = await Promise.all([
    store.jobsBetween(ctx.db, account.id, isoSeconds(cycle.start), isoSeconds(cycle.end)),
    planOf(ctx, account.id),
  ]);
  return minutesSummary(jobs, plan);
}

export interface PackagesSummary {
  used: number;
  paid: number;
  included: number;
}

export async function packagesSummary(ctx: AppContext, actor: Actor, at: BillingAccountAt): Promise<PackagesSummary> {
  const account = await billedAccount(ctx, actor, at);
  const cycle = cycleOf(ctx.clock.now());
  const [readings, plan] = await Promise.all([
    store.usageBetween(ctx.db, account.id, 'bandwidth', isoSeconds(cycle.start), isoSeconds(cycle.end)),
    planOf(ctx, account.id),
  ]);
  const used = bandwidthUsed(readings);
  return { used, paid: gb(Math.max(0, used - plan.includedGigabytesBandwidth)), included: plan.includedGigabytesBandwidth };
}

export interface StorageSummary {
  daysLeft: number;
  /** GB-months this cycle, and the part beyond the plan's. */
  estimated: number;
  estimatedPaid: number;
}

export async function storageSummary(ctx: AppContext, actor: Actor, at: BillingAccountAt): Promise<StorageSummary> {
  const account = await billedAccount(ctx, actor, at);
  const now = ctx.clock.now();
  const cycle = cycleOf(now);
  const from = isoSeconds(cycle.start);
  const [before, readings, plan] = await Promise.all([
    store.lastUsageBefore(ctx.db, account.id, 'storage', from),
    store.usageBetween(ctx.db, account.id, 'storage', from, isoSeconds(cycle.end)),
    planOf(ctx, account.id),
  ]);
  const estimated = storageForMonth(before, readings, cycle);
  return { daysLeft: daysLeft(cycle, now), estimated, estimatedPaid: gb(Math.max(0, estimated - plan.includedGigabytesStorage)) };
}

// ---------------------------------------------------------------- recording

/** A job as a runner or the metering endpoint reports it: the recorded job's facts, for a repository. */
export type JobReport = Pick<ActionsJob, 'runnerId' | 'hosted' | 'runnerOs' | 'workflowPath' | 'rerun' | 'startedAt' | 'completedAt'> & { repo: Repo };

/**
 * Records a job against the repository owner's account; the repository's visibility is
 * kept as it was when the job ran. Callers validate the report.
 */
export async function recordJob(ctx: AppContext, r: JobReport): Promise<ActionsJob> {
  return inTransaction(ctx, (tx) => store.insertJob(tx.db, {
    accountId: r.repo.ownerId, repositoryId: r.repo.id, repositoryPrivate: r.repo.visibility !== 'public',
    runnerId: r.runnerId, hosted: r.hosted, runnerOs: r.runnerOs, workflowPath: r.workflowPath, rerun: r.rerun,
    startedAt: r.startedAt, completedAt: r.completedAt,
  }, nowIso(tx.clock)));
}

/**
 * A job's times, stored form: both ISO 8601, the start not after the completion, and
 * neither in the future (a report is of a job that ran).
 */
export function checkJobTimes(resource: string, startedAt: string, completedAt: string, now: Date): { startedAt: string; completedAt: string } {
  const errors: FieldError[] = [];
  const started = isIsoTimestamp(startedAt) ? Date.parse(startedAt) : NaN;
  const completed = isIsoTimestamp(completedAt) ? Date.parse(completedAt) : NaN;
  if (Number.isNaN(started)) errors.push({ resource, field: 'started_at', code: 'invalid', message: 'started_at must be an ISO 8601 timestamp' });
  if (Number.isNaN(completed)) errors.push({ resource, field: 'completed_at', code: 'invalid', message: 'completed_at must be an ISO 8601 timestamp' });
  if (!errors.length && completed < started) errors.push({ resource, field: 'completed_at', code: 'invalid', message: 'completed_at is before started_at' });
  if (!errors.length && completed > now.getTime()) errors.push({ resource, field: 'completed_at', code: 'invalid', message: 'completed_at is in the future' });
  if (errors.length) throw new ValidationError(errors);
  return { startedAt: isoSeconds(new Date(started)), completedAt: isoSeconds(new Date(completed)) };
}
