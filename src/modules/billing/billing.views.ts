// Plans and recorded usage → API representations. Pure. (Summaries are computed in
// their final shape by billing.compute.ts.)
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
