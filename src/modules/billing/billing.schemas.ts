// Response schemas of the billing summaries and bodies of the site-admin metering and
// plan routes.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/schema-types.ts';
import { RUNNER_OS } from '../runners/runners.model.ts';

export const OrgParams = Type.Object({ org: Type.String() });
export const UserParams = Type.Object({ username: Type.String() });
export const PlanParams = Type.Object({ plan: Type.String() });
export const PageQuery = Type.Object({ per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) });

export const ActionsBilling = Type.Object({
  total_minutes_used: Type.Integer(),
  total_paid_minutes_used: Type.Integer(),
  included_minutes: Type.Integer(),
  minutes_used_breakdown: Type.Object({ UBUNTU: Type.Integer(), MACOS: Type.Integer(), WINDOWS: Type.Integer() }),
});

export const PackagesBilling = Type.Object({
  total_gigabytes_bandwidth_used: Type.Number(),
  total_paid_gigabytes_bandwidth_used: Type.Number(),
  included_gigabytes_bandwidth: Type.Number(),
});

export const StorageBilling = Type.Object({
  days_left_in_billing_cycle: Type.Integer(),
  estimated_paid_storage_for_month: Type.Number(),
  estimated_storage_for_month: Type.Number(),
});

export const USAGE_KINDS = ['actions', 'bandwidth', 'storage'] as const;

/** One reading of the metering endpoint; which fields apply depends on `kind`. */
export const UsageBody = Type.Object({
  kind: StringEnum(USAGE_KINDS),
  // actions
  repository: Type.Optional(Type.String({ maxLength: 1024 })),
  runner_os: Type.Optional(StringEnum(RUNNER_OS)),
  workflow_path: Type.Optional(Type.String({ maxLength: 4096 })),
  started_at: Type.Optional(Type.String({ maxLength: 64 })),
  completed_at: Type.Optional(Type.String({ maxLength: 64 })),
  rerun: Type.Optional(Type.Boolean()),
  // bandwidth, storage
  account: Type.Optional(Type.String({ maxLength: 256 })),
  gigabytes: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
  recorded_at: Type.Optional(Type.String({ maxLength: 64 })),
});
export type UsageBody = Static<typeof UsageBody>;

export const RecordedUsage = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  account: Type.String(),
  recorded_at: Type.String(),
  /** actions: the job's minutes before the OS multiplier; otherwise null. */
  minutes: Type.Union([Type.Integer(), Type.Null()]),
  gigabytes: Type.Union([Type.Number(), Type.Null()]),
});

export const PlanBody = Type.Object({
  included_minutes: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
  included_gigabytes_bandwidth: Type.Number({ minimum: 0, maximum: 1e9 }),
  included_gigabytes_storage: Type.Number({ minimum: 0, maximum: 1e9 }),
});
export type PlanBody = Static<typeof PlanBody>;

export const Plan = Type.Object({
  name: Type.String(),
  included_minutes: Type.Integer(),
  included_gigabytes_bandwidth: Type.Number(),
  included_gigabytes_storage: Type.Number(),
});
export const PlanList = Type.Array(Plan);

export const AccountPlanBody = Type.Object({ plan: Type.String({ maxLength: 256 }) });

export const AdvancedSecurityBilling = Type.Object({
  total_advanced_security_committers: Type.Integer(),
  total_count: Type.Integer(),
  maximum_advanced_security_committers: Type.Integer(),
  repositories: Type.Array(Type.Object({
    name: Type.String(),
    advanced_security_committers: Type.Integer(),
    advanced_security_committers_breakdown: Type.Array(Type.Object({
      user_login: Type.String(),
      last_pushed_date: Type.String(),
      last_pushed_email: Type.String(),
    })),
  })),
});
