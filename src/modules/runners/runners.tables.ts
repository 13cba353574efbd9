// Table types of the runners module (migration 0025), merged into the database's.
import type { Generated } from 'kysely';

export interface RunnerGroupsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  name_key: string;
  visibility: string;
  is_default: number;
  allows_public_repositories: number;
  restricted_to_workflows: number;
  /** JSON array of strings. */
  selected_workflows: string;
  network_configuration_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface RunnerGroupRepositoriesTable {
  group_id: number;
  repository_id: number;
}

export interface RunnersTable {
  id: Generated<number>;
  organization_id: number | null;
  repository_id: number | null;
  group_id: number | null;
  name: string;
  os: string;
  version: string | null;
  ephemeral: number;
  busy: number;
  credential_hash: string;
  last_seen_at: string | null;
  created_at: string;
}

export interface RunnerLabelsTable {
  id: Generated<number>;
  runner_id: number;
  name: string;
  name_key: string;
  type: string;
}

export interface RunnerTokensTable {
  id: Generated<number>;
  token_hash: string;
  kind: string;
  organization_id: number | null;
  repository_id: number | null;
  expires_at: string;
  created_at: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    runner_groups: RunnerGroupsTable;
    runner_group_repositories: RunnerGroupRepositoriesTable;
    runners: RunnersTable;
    runner_labels: RunnerLabelsTable;
    runner_tokens: RunnerTokensTable;
  }
}
