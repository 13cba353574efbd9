// The site admin's side of billing: recording usage that Wharf does not see itself
// (hosted CI jobs, package bandwidth and storage, reported by the operator's systems)
// and the plans that say how much of it each account has included.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { isIsoTimestamp, isoSeconds, nowIso } from '../../domain/clock.ts';
import { ForbiddenError, ValidationError, type FieldError } from '../../domain/errors.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { jobMinutes } from './billing.compute.ts';
import type { BillingPlan, RunnerOs } from './billing.model.ts';
import { checkJobTimes, recordJob } from './billing.service.ts';
import * as store from './billing.store.ts';

const RESOURCE = 'Usage';
const PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function requireSiteAdmin(actor: Actor): void {
  requireUser(actor);
  if (!isSiteAdmin(actor)) throw new ForbiddenError('Must be a site administrator.');
  requireScope(actor, 'site_admin');
}

export interface UsageInput {
  kind: 'actions' | 'bandwidth' | 'storage';
  repository?: string;
  runner_os?: RunnerOs;
  workflow_path?: string;
  started_at?: string;
  completed_at?: string;
  rerun?: boolean;
  account?: string;
  gigabytes?: number;
  recorded_at?: string;
}

export interface RecordedUsage {
  id: number;
  kind: UsageInput['kind'];
  account: string;
  recordedAt: string;
  minutes: number | null;
  gigabytes: number | null;
}

function missing(fields: (keyof UsageInput)[], input: UsageInput): void {
  const errors: FieldError[] = fields.filter((f) => input[f] === undefined)
    .map((field) => ({ resource: RESOURCE, field, code: 'missing_field', message: `${field} is required for ${input.kind} usage` }));
  if (errors.length) throw new ValidationError(errors);
}

export async function recordUsage(ctx: AppContext, actor: Actor, input: UsageInput): Promise<RecordedUsage> {
  requireSiteAdmin(actor);
  if (input.kind === 'actions') {
    missing(['repository', 'runner_os', 'workflow_path', 'started_at', 'completed_at'], input);
    const times = checkJobTimes(RESOURCE, input.started_at!, input.completed_at!, ctx.clock.now());
    const path = input.workflow_path!.trim();
    if (path === '') throw ValidationError.field(RESOURCE, 'workflow_path', 'invalid', "workflow_path can't be blank");
    const full = input.repository!;
    const slash = full.indexOf('/');
    const repo = slash > 0 ? await repos.findForGit(ctx, full.slice(0, slash), full.slice(slash + 1)) : null;
    if (!repo) throw ValidationError.field(RESOURCE, 'repository', 'invalid', `No repository ${full}.`);
    const j = await recordJob(ctx, {
      repo, runnerId: null, hosted: true, runnerOs: input.runner_os!, workflowPath: path, rerun: input.rerun ?? false, ...times,
    });
    return { id: j.id, kind: 'actions', account: repo.owner.login, recordedAt: j.completedAt, minutes: jobMinutes(j), gigabytes: null };
  }
  missing(['account', 'gigabytes'], input);
  let recordedAt = nowIso(ctx.clock);
  if (input.recorded_at !== undefined) {
    const t = isIsoTimestamp(input.recorded_at) ? Date.parse(input.recorded_at) : NaN;
    if (Number.isNaN(t) || t > ctx.clock.now().getTime()) {
      throw ValidationError.field(RESOURCE, 'recorded_at', 'invalid', 'recorded_at must be an ISO 8601 timestamp, not in the future');
    }
    recordedAt = isoSeconds(new Date(t));
  }
  const account = await users.findAccount(ctx, input.account!);
  if (!account) throw ValidationError.field(RESOURCE, 'account', 'invalid', `No account ${input.account}.`);
  const u = await store.insertUsage(ctx.db, account.id, input.kind, input.gigabytes!, recordedAt);
  return { id: u.id, kind: input.kind, account: account.login, recordedAt, minutes: null, gigabytes: u.gigabytes };
}

// ---------------------------------------------------------------- plans

export async function putPlan(ctx: AppContext, actor: Actor, name: string, p: Omit<BillingPlan, 'name'>): Promise<BillingPlan> {
  requireSiteAdmin(actor);
  if (!PLAN_NAME.test(name)) throw ValidationError.field('Plan', 'name', 'invalid', 'Plan names are 1 to 64 letters, digits, ".", "_" or "-".');
  const plan = { name, ...p };
  await store.upsertPlan(ctx.db, plan, nowIso(ctx.clock));
  return plan;
}

export async function listPlans(ctx: AppContext, actor: Actor): Promise<BillingPlan[]> {
  requireSiteAdmin(actor);
  const stored = await store.listPlans(ctx.db);
  const fallback = ctx.config.defaultPlan;
  // The configured default is a plan too, until the site admin redefines it by name.
  return stored.some((p) => p.name === fallback.name) ? stored : [fallback, ...stored];
}

export async function setAccountPlan(ctx: AppContext, actor: Actor, login: string, planName: string): Promise<BillingPlan> {
  requireSiteAdmin(actor);
  const account = await users.requireAccount(ctx, login);
  const plan = await store.findPlan(ctx.db, planName);
  if (!plan) throw ValidationError.field('Plan', 'plan', 'invalid', `No plan named ${planName}.`);
  await store.setAccountPlan(ctx.db, account.id, plan.name);
  return plan;
}
