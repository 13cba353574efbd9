// Self-hosted runners, their organization groups and labels as the domain sees them.

export const GROUP_VISIBILITIES = ['all', 'selected', 'private'] as const;
export type GroupVisibility = (typeof GROUP_VISIBILITIES)[number];

/** Upstream's runner operating systems, as runners report them and jobs are billed by. */
export const RUNNER_OS = ['Linux', 'Windows', 'macOS'] as const;
export type RunnerOs = (typeof RUNNER_OS)[number];

export const DEFAULT_GROUP_NAME = 'Default';

export interface RunnerGroup {
  id: number;
  organizationId: number;
  name: string;
  visibility: GroupVisibility;
  isDefault: boolean;
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows: string[];
  networkConfigurationId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where a runner belongs: an organization (in one of its groups) or one repository. */
export type RunnerScope =
  | { kind: 'org'; organizationId: number }
  | { kind: 'repo'; repositoryId: number };

export interface Runner {
  id: number;
  organizationId: number | null;
  repositoryId: number | null;
  groupId: number | null;
  name: string;
  os: RunnerOs;
  version: string | null;
  ephemeral: boolean;
  busy: boolean;
  lastSeenAt: string | null;
  createdAt: string;
}

export type LabelType = 'read-only' | 'custom';

export interface RunnerLabel {
  id: number;
  runnerId: number;
  name: string;
  type: LabelType;
}

export type RunnerTokenKind = 'registration' | 'remove';

export interface RunnerToken {
  id: number;
  kind: RunnerTokenKind;
  organizationId: number | null;
  repositoryId: number | null;
  expiresAt: string;
}

export function scopeOf(r: { organizationId: number | null; repositoryId: number | null }): RunnerScope {
  return r.organizationId !== null ? { kind: 'org', organizationId: r.organizationId } : { kind: 'repo', repositoryId: r.repositoryId! };
}
