// Recorded usage and plans as the billing module sees them.
import type { RunnerOs } from '../runners/runners.model.ts';

export type { RunnerOs };

export interface ActionsJob {
  id: number;
  accountId: number;
  repositoryId: number | null;
  repositoryPrivate: boolean;
  runnerId: number | null;
  hosted: boolean;
  runnerOs: RunnerOs;
  workflowPath: string;
  rerun: boolean;
  startedAt: string;
  completedAt: string;
}

export const METERED_KINDS = ['bandwidth', 'storage'] as const;
export type MeteredKind = (typeof METERED_KINDS)[number];

export interface MeteredUsage {
  id: number;
  accountId: number;
  kind: MeteredKind;
  gigabytes: number;
  recordedAt: string;
}

export interface BillingPlan {
  name: string;
  includedMinutes: number;
  includedGigabytesBandwidth: number;
  includedGigabytesStorage: number;
}

/** Upstream's per-minute multipliers of runner operating systems. */
export const OS_MULTIPLIER: Record<RunnerOs, number> = { Linux: 1, Windows: 2, macOS: 10 };

/** Keys of `minutes_used_breakdown`. */
export const OS_BREAKDOWN_KEY: Record<RunnerOs, 'UBUNTU' | 'WINDOWS' | 'MACOS'> = { Linux: 'UBUNTU', Windows: 'WINDOWS', macOS: 'MACOS' };
