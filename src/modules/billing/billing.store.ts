// SQL for recorded jobs, metered usage and plans. Only the billing module calls this.
import type { Executor } from '../../db/database.ts';
import './billing.tables.ts';
import type { ActionsJob, BillingPlan, MeteredKind, MeteredUsage, RunnerOs } from './billing.model.ts';

const JOB_COLUMNS = [
  'id', 'account_id', 'repository_id', 'repository_private', 'runner_id', 'hosted', 'runner_os', 'workflow_path', 'rerun', 'started_at', 'completed_at',
] as const;

export type NewJob = Omit<ActionsJob, 'id'>;

export async function insertJob(db: Executor, j: NewJob, now: string): Promise<ActionsJob> {
  const row = await db.insertInto('actions_jobs').values({
    account_id: j.accountId, repository_id: j.repositoryId, repository_private: j.repositoryPrivate ? 1 : 0,
    runner_id: j.runnerId, hosted: j.hosted ? 1 : 0, runner_os: j.runnerOs, workflow_path: j.workflowPath,
    rerun: j.rerun ? 1 : 0, started_at: j.startedAt, completed_at: j.completedAt, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return { ...j, id: row.id };
}

/** The account's jobs completed in [from, to). */
export async function jobsBetween(db: Executor, accountId: number, from: string, to: string): Promise<ActionsJob[]> {
  const rows = await db.selectFrom('actions_jobs').select(JOB_COLUMNS)
    .where('account_id', '=', accountId).where('completed_at', '>=', from).where('completed_at', '<', to).orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id, accountId: r.account_id, repositoryId: r.repository_id, repositoryPrivate: Number(r.repository_private) === 1,
    runnerId: r.runner_id, hosted: Number(r.hosted) === 1, runnerOs: r.runner_os as RunnerOs, workflowPath: r.workflow_path,
    rerun: Number(r.rerun) === 1, startedAt: r.started_at, completedAt: r.completed_at,
  }));
}

export async function insertUsage(db: Executor, accountId: number, kind: MeteredKind, gigabytes: number, recordedAt: string): Promise<MeteredUsage> {
  const row = await db.insertInto('metered_usage').values({ account_id: accountId, kind, gigabytes, recorded_at: recordedAt })
    .returning('id').executeTakeFirstOrThrow();
  return { id: row.id, accountId, kind, gigabytes, recordedAt };
}

function toUsage(r: { id: number; account_id: number; kind: string; gigabytes: number | string; recorded_at: string }): MeteredUsage {
  return { id: r.id, accountId: r.account_id, kind: r.kind as MeteredKind, gigabytes: Number(r.gigabytes), recordedAt: r.recorded_at };
}

/** The account's readings of `kind` in [from, to), oldest first. */
export async function usageBetween(db: Executor, accountId: number, kind: MeteredKind, from: string, to: string): Promise<MeteredUsage[]> {
  const rows = await db.selectFrom('metered_usage').select(['id', 'account_id', 'kind', 'gigabytes', 'recorded_at'])
    .where('account_id', '=', accountId).where('kind', '=', kind).where('recorded_at', '>=', from).where('recorded_at', '<', to)
    .orderBy('recorded_at').orderBy('id').execute();
  return rows.map(toUsage);
}

/** The last reading of `kind` before `at` (the level in force when a period starts). */
export async function lastUsageBefore(db: Executor, accountId: number, kind: MeteredKind, at: string): Promise<MeteredUsage | null> {
  const row = await db.selectFrom('metered_usage').select(['id', 'account_id', 'kind', 'gigabytes', 'recorded_at'])
    .where('account_id', '=', accountId).where('kind', '=', kind).where('recorded_at', '<', at)
    .orderBy('recorded_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? toUsage(row) : null;
}

// ---------------------------------------------------------------- plans

function toPlan(r: { name: string; included_minutes: number; included_gigabytes_bandwidth: number | string; included_gigabytes_storage: number | string }): BillingPlan {
  return {
    name: r.name, includedMinutes: Number(r.included_minutes),
    includedGigabytesBandwidth: Number(r.included_gigabytes_bandwidth), includedGigabytesStorage: Number(r.included_gigabytes_storage),
  };
}

const PLAN_COLUMNS = ['name', 'included_minutes', 'included_gigabytes_bandwidth', 'included_gigabytes_storage'] as const;

export async function planOfAccount(db: Executor, accountId: number): Promise<BillingPlan | null> {
  const row = await db.selectFrom('billing_accounts').innerJoin('billing_plans', 'billing_plans.name', 'billing_accounts.plan_name')
    .select(PLAN_COLUMNS.map((c) => `billing_plans.${c}` as const)).where('billing_accounts.account_id', '=', accountId).executeTakeFirst();
  return row ? toPlan(row) : null;
}

export async function findPlan(db: Executor, name: string): Promise<BillingPlan | null> {
  const row = await db.selectFrom('billing_plans').select(PLAN_COLUMNS).where('name', '=', name).executeTakeFirst();
  return row ? toPlan(row) : null;
}

export async function listPlans(db: Executor): Promise<BillingPlan[]> {
  return (await db.selectFrom('billing_plans').select(PLAN_COLUMNS).orderBy('name').execute()).map(toPlan);
}

export async function upsertPlan(db: Executor, p: BillingPlan, now: string): Promise<void> {
  const values = {
    included_minutes: p.includedMinutes, included_gigabytes_bandwidth: p.includedGigabytesBandwidth,
    included_gigabytes_storage: p.includedGigabytesStorage, updated_at: now,
  };
  await db.insertInto('billing_plans').values({ name: p.name, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values)).execute();
}

export async function setAccountPlan(db: Executor, accountId: number, planName: string): Promise<void> {
  await db.insertInto('billing_accounts').values({ account_id: accountId, plan_name: planName })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ plan_name: planName })).execute();
}

// ---------------------------------------------------------------- advanced security

export async function setRepositorySecurity(db: Executor, repositoryId: number, enabled: boolean, now: string): Promise<void> {
  const values = { enabled: enabled ? 1 : 0, updated_at: now };
  await db.insertInto('repository_advanced_security').values({ repository_id: repositoryId, ...values })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet(values)).execute();
}

/** The repositories among `ids` with advanced security enabled. */
export async function repositoriesWithSecurity(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('repository_advanced_security').select('repository_id')
    .where('repository_id', 'in', [...new Set(ids)]).where('enabled', '=', 1).execute();
  return new Set(rows.map((r) => r.repository_id));
}

export async function setOrganizationSecurity(db: Executor, organizationId: number, enabled: boolean, now: string): Promise<void> {
  const values = { enabled_for_new_repositories: enabled ? 1 : 0, updated_at: now };
  await db.insertInto('organization_advanced_security').values({ organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values)).execute();
}

export async function organizationSecurity(db: Executor, organizationId: number): Promise<boolean> {
  const row = await db.selectFrom('organization_advanced_security').select('enabled_for_new_repositories')
    .where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(row?.enabled_for_new_repositories ?? 0) === 1;
}

/** Records that the user pushed a commit they committed (as `email`) to the repository at `at`. */
export async function recordCommitter(db: Executor, repositoryId: number, userId: number, email: string, at: string): Promise<void> {
  await db.insertInto('repository_committers').values({ repository_id: repositoryId, user_id: userId, last_pushed_at: at, last_pushed_email: email })
    .onConflict((oc) => oc.columns(['repository_id', 'user_id']).doUpdateSet({ last_pushed_at: at, last_pushed_email: email })).execute();
}

export interface CommitterRow {
  repositoryId: number;
  userId: number;
  lastPushedAt: string;
  lastPushedEmail: string;
}

/** Committers of the repositories who pushed at `since` or later. */
export async function committersSince(db: Executor, repositoryIds: readonly number[], since: string): Promise<CommitterRow[]> {
  if (!repositoryIds.length) return [];
  const rows = await db.selectFrom('repository_committers').select(['repository_id', 'user_id', 'last_pushed_at', 'last_pushed_email'])
    .where('repository_id', 'in', [...new Set(repositoryIds)]).where('last_pushed_at', '>=', since)
    .orderBy('repository_id').orderBy('user_id').execute();
  return rows.map((r) => ({ repositoryId: r.repository_id, userId: r.user_id, lastPushedAt: r.last_pushed_at, lastPushedEmail: r.last_pushed_email }));
}
