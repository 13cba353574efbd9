// Table types of the billing module (migration 0025), merged into the database's.
import type { Generated } from 'kysely';

export interface ActionsJobsTable {
  id: Generated<number>;
  account_id: number;
  repository_id: number | null;
  repository_private: number;
  runner_id: number | null;
  hosted: number;
  runner_os: string;
  workflow_path: string;
  rerun: number;
  started_at: string;
  completed_at: string;
  created_at: string;
}

export interface MeteredUsageTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  gigabytes: number;
  recorded_at: string;
}

export interface BillingPlansTable {
  name: string;
  included_minutes: number;
  included_gigabytes_bandwidth: number;
  included_gigabytes_storage: number;
  updated_at: string;
}

export interface BillingAccountsTable {
  account_id: number;
  plan_name: string;
}

export interface RepositoryAdvancedSecurityTable {
  repository_id: number;
  enabled: number;
  updated_at: string;
}

export interface OrganizationAdvancedSecurityTable {
  organization_id: number;
  enabled_for_new_repositories: number;
  updated_at: string;
}

export interface RepositoryCommittersTable {
  repository_id: number;
  user_id: number;
  last_pushed_at: string;
  last_pushed_email: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    actions_jobs: ActionsJobsTable;
    metered_usage: MeteredUsageTable;
    billing_plans: BillingPlansTable;
    billing_accounts: BillingAccountsTable;
    repository_advanced_security: RepositoryAdvancedSecurityTable;
    organization_advanced_security: OrganizationAdvancedSecurityTable;
    repository_committers: RepositoryCommittersTable;
  }
}
