// The billing arithmetic, pure: the cycle a moment falls in, minutes from jobs, gigabytes
// from metered readings. Every figure a summary shows comes from here.
import { OS_MULTIPLIER, type ActionsJob, type BillingPlan, type MeteredUsage, type RunnerOs } from './billing.model.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface Cycle {
  start: Date;
  end: Date;
}

/** The billing cycle: the calendar month (UTC) of `now`. */
export function cycleOf(now: Date): Cycle {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Whole days left, counting today's part as a day. */
export function daysLeft(cycle: Cycle, now: Date): number {
  return Math.ceil((cycle.end.getTime() - now.getTime()) / DAY_MS);
}

/** A job's minutes: its duration rounded up to whole minutes, before any multiplier. */
export function jobMinutes(j: Pick<ActionsJob, 'startedAt' | 'completedAt'>): number {
  const ms = Date.parse(j.completedAt) - Date.parse(j.startedAt);
  return Math.max(0, Math.ceil(ms / MINUTE_MS));
}

export interface MinutesSummary {
  /** With the OS multipliers. */
  total: number;
  paid: number;
  included: number;
  /** Plain minutes per operating system. */
  byOs: Record<RunnerOs, number>;
}

/**
 * Every job counts (re-runs too): the breakdown in plain minutes per OS, the total with
 * the OS multipliers. Only private repositories' jobs on hosted runners are billable,
 * and only what exceeds the plan's included minutes is paid.
 */
export function minutesSummary(jobs: readonly ActionsJob[], plan: BillingPlan): MinutesSummary {
  const byOs: Record<RunnerOs, number> = { Linux: 0, Windows: 0, macOS: 0 };
  let total = 0;
  let billable = 0;
  for (const j of jobs) {
    const minutes = jobMinutes(j);
    byOs[j.runnerOs] += minutes;
    const weighted = minutes * OS_MULTIPLIER[j.runnerOs];
    total += weighted;
    if (j.hosted && j.repositoryPrivate) billable += weighted;
  }
  return { total, paid: Math.max(0, billable - plan.includedMinutes), included: plan.includedMinutes, byOs };
}

/** Gigabyte figures to two decimals, so float sums read as the operator recorded them. */
export function gb(n: number): number {
  return Math.round(n * 100) / 100;
}

export function bandwidthUsed(readings: readonly MeteredUsage[]): number {
  return gb(readings.reduce((sum, r) => sum + r.gigabytes, 0));
}

/**
 * Storage in GB-months for the cycle: each reading is the level stored from its time on;
 * the level in force at the start is the last reading before it; the latest level is
 * assumed to last to the end of the cycle (hence "estimated").
 */
export function storageForMonth(before: MeteredUsage | null, readings: readonly MeteredUsage[], cycle: Cycle): number {
  const start = cycle.start.getTime();
  const end = cycle.end.getTime();
  let level = before?.gigabytes ?? 0;
  let at = start;
  let integral = 0;
  for (const r of readings) {
    const t = Math.min(Math.max(Date.parse(r.recordedAt), start), end);
    integral += level * (t - at);
    level = r.gigabytes;
    at = t;
  }
  integral += level * (end - at);
  return gb(integral / (end - start));
}
