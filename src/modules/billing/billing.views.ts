// Plans and recorded usage → API representations. Pure. (Summaries are computed in
// their final shape by billing.compute.ts.)
import type { AdvancedSecuritySummary } from './advanced-security.service.ts';
import type { BillingPlan } from './billing.model.ts';
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
