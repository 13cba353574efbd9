// Billing summaries, plans and recorded usage → API representations. Pure.
import type { AdvancedSecuritySummary } from './advanced-security.service.ts';
import type { MinutesSummary } from './billing.compute.ts';
import { OS_BREAKDOWN_KEY, type BillingPlan } from './billing.model.ts';
import type { PackagesSummary, StorageSummary } from './billing.service.ts';
import type { RecordedUsage } from './metering.service.ts';

export function plan(p: BillingPlan) {
  return {
    name: p.name,
    included_minutes: p.includedMinutes,
    included_gigabytes_bandwidth: p.includedGigabytesBandwidth,
    included_gigabytes_storage: p.includedGigabytesStorage,
  };
}

export function recordedUsage(u: RecordedUsage) {
  return { id: u.id, kind: u.kind, account: u.account, recorded_at: u.recordedAt, minutes: u.minutes, gigabytes: u.gigabytes };
}

/** Upstream's dates of last pushes are days, not times. */
export function advancedSecurity(s: AdvancedSecuritySummary) {
  return {
    total_advanced_security_committers: s.total,
    total_count: s.totalRepositories,
    maximum_advanced_security_committers: s.maximum,
    repositories: s.repositories.map((r) => ({
      name: `${r.repo.owner.login}/${r.repo.name}`,
      advanced_security_committers: r.committers.length,
      advanced_security_committers_breakdown: r.committers.map((c) => ({
        user_login: c.user.login,
        last_pushed_date: c.lastPushedAt.slice(0, 10),
        last_pushed_email: c.lastPushedEmail,
      })),
    })),
  };
}

export function actionsBilling(m: MinutesSummary) {
  const breakdown = { UBUNTU: 0, MACOS: 0, WINDOWS: 0 };
  for (const [os, minutes] of Object.entries(m.byOs) as [keyof typeof OS_BREAKDOWN_KEY, number][]) breakdown[OS_BREAKDOWN_KEY[os]] += minutes;
  return { total_minutes_used: m.total, total_paid_minutes_used: m.paid, included_minutes: m.included, minutes_used_breakdown: breakdown };
}

export function packagesBilling(p: PackagesSummary) {
  return { total_gigabytes_bandwidth_used: p.used, total_paid_gigabytes_bandwidth_used: p.paid, included_gigabytes_bandwidth: p.included };
}

export function storageBilling(s: StorageSummary) {
  return { days_left_in_billing_cycle: s.daysLeft, estimated_paid_storage_for_month: s.estimatedPaid, estimated_storage_for_month: s.estimated };
}
