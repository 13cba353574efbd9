// Check suites and check runs as the domain sees them: what an app (or, where the site
// admin allows it, a CI system with a user's token) reported on a commit.

export const CHECK_STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** What a client may set a run's status to (the others are upstream's Actions states). */
export const WRITABLE_STATUSES = ['queued', 'in_progress', 'completed'] as const;

export const CHECK_CONCLUSIONS = [
  'action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out',
] as const;
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number] | 'startup_failure';

export const ANNOTATION_LEVELS = ['notice', 'warning', 'failure'] as const;
export type AnnotationLevel = (typeof ANNOTATION_LEVELS)[number];

/** Upstream's limits: 50 annotations and 3 actions per request; output texts of 65535 characters. */
export const MAX_ANNOTATIONS_PER_REQUEST = 50;
export const MAX_ACTIONS = 3;
export const MAX_OUTPUT_TEXT = 65535;

export interface CheckAction {
  label: string;
  description: string;
  identifier: string;
}

export interface CheckSuite {
  id: number;
  repositoryId: number;
  /** Null for the suite of runs written with users' tokens (no app). */
  appId: number | null;
  headSha: string;
  headBranch: string | null;
  before: string | null;
  after: string | null;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  createdAt: string;
  updatedAt: string;
}

export interface CheckRun {
  id: number;
  suiteId: number;
  repositoryId: number;
  headSha: string;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  externalId: string | null;
  detailsUrl: string | null;
  startedAt: string | null;
  completedAt: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotationsCount: number };
  actions: CheckAction[];
  creatorId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface CheckAnnotation {
  id: number;
  checkRunId: number;
  path: string;
  startLine: number;
  endLine: number;
  startColumn: number | null;
  endColumn: number | null;
  level: AnnotationLevel;
  title: string | null;
  message: string;
  rawDetails: string | null;
}

/**
 * A suite's status from its runs, as upstream: queued while it has none (or all are
 * queued), completed once every run is, else in progress.
 */
export function suiteStatus(runs: readonly Pick<CheckRun, 'status'>[]): CheckStatus {
  if (runs.length === 0 || runs.every((r) => r.status === 'queued')) return 'queued';
  return runs.every((r) => r.status === 'completed') ? 'completed' : 'in_progress';
}

/** Worst first: a suite's conclusion is the worst of its runs'. */
const CONCLUSION_ORDER: readonly CheckConclusion[] = [
  'action_required', 'startup_failure', 'failure', 'timed_out', 'cancelled', 'stale', 'neutral', 'success', 'skipped',
];

/** A completed suite's conclusion: the worst of its runs' (all skipped: skipped). */
export function suiteConclusion(runs: readonly Pick<CheckRun, 'status' | 'conclusion'>[]): CheckConclusion | null {
  if (suiteStatus(runs) !== 'completed' || runs.length === 0) return null;
  const rank = (c: CheckConclusion | null) => (c === null ? CONCLUSION_ORDER.length : CONCLUSION_ORDER.indexOf(c));
  return runs.reduce<CheckConclusion | null>((worst, r) => (worst === null || rank(r.conclusion) < rank(worst) ? r.conclusion : worst), null);
}

/**
 * How a run counts where commit statuses and check runs meet (required checks, the
 * rollup's state): success, neutral and skipped pass as upstream; other conclusions
 * fail; a run not yet completed is pending.
 */
export function runState(run: Pick<CheckRun, 'status' | 'conclusion'>): 'success' | 'failure' | 'pending' {
  if (run.status !== 'completed') return 'pending';
  return run.conclusion === 'success' || run.conclusion === 'neutral' || run.conclusion === 'skipped' ? 'success' : 'failure';
}
