// SQL for check suites, check runs, their annotations and suite preferences. Only the
// checks module calls this.
import type { Executor } from '../../db/database.ts';
import type { CheckAnnotationsTable, CheckRunsTable, CheckSuitesTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type {
  AnnotationLevel, CheckAction, CheckAnnotation, CheckConclusion, CheckRun, CheckStatus, CheckSuite,
} from './checks.model.ts';

const SUITE_COLUMNS = [
  'id', 'repository_id', 'app_id', 'head_sha', 'head_branch', 'before_sha', 'after_sha', 'status', 'conclusion', 'created_at', 'updated_at',
] as const;
const RUN_COLUMNS = [
  'id', 'suite_id', 'repository_id', 'head_sha', 'name', 'status', 'conclusion', 'external_id', 'details_url', 'started_at',
  'completed_at', 'output_title', 'output_summary', 'output_text', 'annotations_count', 'actions', 'creator_id', 'created_at', 'updated_at',
] as const;
const ANNOTATION_COLUMNS = [
  'id', 'check_run_id', 'path', 'start_line', 'end_line', 'start_column', 'end_column', 'annotation_level', 'title', 'message', 'raw_details',
] as const;

type SuiteRow = Pick<CheckSuitesTable, Exclude<(typeof SUITE_COLUMNS)[number], 'id'>> & { id: number };
type RunRow = Pick<CheckRunsTable, Exclude<(typeof RUN_COLUMNS)[number], 'id'>> & { id: number };
type AnnotationRow = Pick<CheckAnnotationsTable, Exclude<(typeof ANNOTATION_COLUMNS)[number], 'id'>> & { id: number };

function toSuite(r: SuiteRow): CheckSuite {
  return {
    id: r.id, repositoryId: r.repository_id, appId: r.app_id, headSha: r.head_sha, headBranch: r.head_branch,
    before: r.before_sha, after: r.after_sha, status: r.status as CheckStatus, conclusion: r.conclusion as CheckConclusion | null,
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function toRun(r: RunRow): CheckRun {
  return {
    id: r.id, suiteId: r.suite_id, repositoryId: r.repository_id, headSha: r.head_sha, name: r.name,
    status: r.status as CheckStatus, conclusion: r.conclusion as CheckConclusion | null, externalId: r.external_id,
    detailsUrl: r.details_url, startedAt: r.started_at, completedAt: r.completed_at,
    output: { title: r.output_title, summary: r.output_summary, text: r.output_text, annotationsCount: Number(r.annotations_count) },
    actions: JSON.parse(r.actions) as CheckAction[], creatorId: r.creator_id, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function toAnnotation(r: AnnotationRow): CheckAnnotation {
  return {
    id: r.id, checkRunId: r.check_run_id, path: r.path, startLine: r.start_line, endLine: r.end_line,
    startColumn: r.start_column, endColumn: r.end_column, level: r.annotation_level as AnnotationLevel,
    title: r.title, message: r.message, rawDetails: r.raw_details,
  };
}

// ---------------------------------------------------------------- suites

export async function findSuite(db: Executor, repositoryId: number, appId: number | null, headSha: string): Promise<CheckSuite | null> {
  const row = await db.selectFrom('check_suites').select(SUITE_COLUMNS)
    .where('repository_id', '=', repositoryId).where('head_sha', '=', headSha).where('app_key', '=', appId ?? 0).executeTakeFirst();
  return row ? toSuite(row) : null;
}

export async function findSuiteById(db: Executor, id: number): Promise<CheckSuite | null> {
  const row = await db.selectFrom('check_suites').select(SUITE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toSuite(row) : null;
}

export async function suitesByIds(db: Executor, ids: readonly number[]): Promise<CheckSuite[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('check_suites').select(SUITE_COLUMNS).where('id', 'in', [...ids]).execute()).map(toSuite);
}

export interface NewSuite {
  repositoryId: number;
  appId: number | null;
  headSha: string;
  headBranch: string | null;
  before: string | null;
  after: string | null;
}

export async function insertSuite(db: Executor, v: NewSuite, now: string): Promise<CheckSuite> {
  const row = await db.insertInto('check_suites').values({
    repository_id: v.repositoryId, app_id: v.appId, app_key: v.appId ?? 0, head_sha: v.headSha, head_branch: v.headBranch,
    before_sha: v.before, after_sha: v.after, status: 'queued', conclusion: null, created_at: now, updated_at: now,
  }).returning(SUITE_COLUMNS).executeTakeFirstOrThrow();
  return toSuite(row);
}

export async function setSuiteState(db: Executor, id: number, status: CheckStatus, conclusion: CheckConclusion | null, now: string): Promise<void> {
  await db.updateTable('check_suites').set({ status, conclusion, updated_at: now }).where('id', '=', id).execute();
}

export interface SuiteFilter {
  appId?: number;
  /** Suites holding a run of this name. */
  checkName?: string;
}

function suitesQuery(db: Executor, repositoryId: number, headSha: string, f: SuiteFilter) {
  let q = db.selectFrom('check_suites').where('repository_id', '=', repositoryId).where('head_sha', '=', headSha);
  if (f.appId !== undefined) q = q.where('app_key', '=', f.appId);
  if (f.checkName !== undefined) {
    const name = f.checkName;
    q = q.where('id', 'in', (eb) => eb.selectFrom('check_runs').select('suite_id').where('repository_id', '=', repositoryId).where('name', '=', name));
  }
  return q;
}

export async function listSuites(db: Executor, repositoryId: number, headSha: string, f: SuiteFilter, slice: Slice): Promise<CheckSuite[]> {
  const rows = await suitesQuery(db, repositoryId, headSha, f).select(SUITE_COLUMNS).orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toSuite);
}

export async function countSuites(db: Executor, repositoryId: number, headSha: string, f: SuiteFilter): Promise<number> {
  const row = await suitesQuery(db, repositoryId, headSha, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- runs

export type NewRun = Omit<CheckRun, 'id' | 'createdAt' | 'updatedAt'>;

function runValues(v: Partial<NewRun>): Partial<Omit<CheckRunsTable, 'id'>> {
  const out: Partial<Omit<CheckRunsTable, 'id'>> = {};
  if (v.name !== undefined) out.name = v.name;
  if (v.status !== undefined) out.status = v.status;
  if (v.conclusion !== undefined) out.conclusion = v.conclusion;
  if (v.externalId !== undefined) out.external_id = v.externalId;
  if (v.detailsUrl !== undefined) out.details_url = v.detailsUrl;
  if (v.startedAt !== undefined) out.started_at = v.startedAt;
  if (v.completedAt !== undefined) out.completed_at = v.completedAt;
  if (v.output !== undefined) {
    out.output_title = v.output.title;
    out.output_summary = v.output.summary;
    out.output_text = v.output.text;
    out.annotations_count = v.output.annotationsCount;
  }
  if (v.actions !== undefined) out.actions = JSON.stringify(v.actions);
  return out;
}

export async function insertRun(db: Executor, v: NewRun, now: string): Promise<CheckRun> {
  const row = await db.insertInto('check_runs').values({
    ...runValues(v), suite_id: v.suiteId, repository_id: v.repositoryId, head_sha: v.headSha, name: v.name, status: v.status,
    annotations_count: v.output.annotationsCount, actions: JSON.stringify(v.actions), creator_id: v.creatorId, created_at: now, updated_at: now,
  }).returning(RUN_COLUMNS).executeTakeFirstOrThrow();
  return toRun(row);
}

export async function updateRun(db: Executor, id: number, v: Partial<NewRun>, now: string): Promise<CheckRun> {
  const row = await db.updateTable('check_runs').set({ ...runValues(v), updated_at: now }).where('id', '=', id)
    .returning(RUN_COLUMNS).executeTakeFirstOrThrow();
  return toRun(row);
}

export async function findRun(db: Executor, id: number): Promise<CheckRun | null> {
  const row = await db.selectFrom('check_runs').select(RUN_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRun(row) : null;
}

export async function runsOfSuite(db: Executor, suiteId: number): Promise<CheckRun[]> {
  return (await db.selectFrom('check_runs').select(RUN_COLUMNS).where('suite_id', '=', suiteId).orderBy('id').execute()).map(toRun);
}

/** How many runs each suite has, latest per name (latest_check_runs_count). */
export async function latestCountsOfSuites(db: Executor, suiteIds: readonly number[]): Promise<Map<number, number>> {
  if (suiteIds.length === 0) return new Map();
  const rows = await db.selectFrom('check_runs').select(['suite_id', 'name']).where('suite_id', 'in', [...suiteIds]).distinct().execute();
  const out = new Map<number, number>();
  for (const r of rows) out.set(r.suite_id, (out.get(r.suite_id) ?? 0) + 1);
  return out;
}

export interface RunFilter {
  /** One suite's runs, or a commit's. */
  suiteId?: number;
  headSha?: string;
  checkName?: string;
  status?: CheckStatus;
  appId?: number;
  /** Only the latest run of each name (per suite). */
  latest: boolean;
}

function runsQuery(db: Executor, repositoryId: number, f: RunFilter) {
  let q = db.selectFrom('check_runs as r').where('r.repository_id', '=', repositoryId);
  if (f.suiteId !== undefined) q = q.where('r.suite_id', '=', f.suiteId);
  if (f.headSha !== undefined) q = q.where('r.head_sha', '=', f.headSha);
  if (f.checkName !== undefined) q = q.where('r.name', '=', f.checkName);
  if (f.status !== undefined) q = q.where('r.status', '=', f.status);
  if (f.appId !== undefined) {
    const appId = f.appId;
    q = q.where('r.suite_id', 'in', (eb) => eb.selectFrom('check_suites').select('id').where('app_key', '=', appId));
  }
  if (f.latest) {
    // The newest run of each name within its suite.
    q = q.where('r.id', 'in', (eb) => eb.selectFrom('check_runs as l').select((e) => e.fn.max('l.id').as('id'))
      .where('l.repository_id', '=', repositoryId).groupBy(['l.suite_id', 'l.name']));
  }
  return q;
}

/** Runs newest first, as upstream lists them. */
export async function listRuns(db: Executor, repositoryId: number, f: RunFilter, slice: Slice): Promise<CheckRun[]> {
  const rows = await runsQuery(db, repositoryId, f).select(RUN_COLUMNS.map((c) => `r.${c}` as const))
    .orderBy('r.id', 'desc').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toRun);
}

export async function countRuns(db: Executor, repositoryId: number, f: RunFilter): Promise<number> {
  const row = await runsQuery(db, repositoryId, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest run of each (app, name) on a commit, with its suite's app, oldest first (rollups, required checks). */
export async function latestRunsOfCommit(db: Executor, repositoryId: number, headSha: string): Promise<{ run: CheckRun; appId: number | null }[]> {
  const rows = await db.selectFrom('check_runs as r').innerJoin('check_suites as s', 's.id', 'r.suite_id')
    .select([...RUN_COLUMNS.map((c) => `r.${c}` as const), 's.app_id'])
    .where('r.id', 'in', (eb) => eb.selectFrom('check_runs').select((e) => e.fn.max('id').as('id'))
      .where('repository_id', '=', repositoryId).where('head_sha', '=', headSha).groupBy(['suite_id', 'name']))
    .orderBy('r.id').execute();
  return rows.map((r) => ({ run: toRun(r), appId: r.app_id }));
}

/** The latest run of each (suite, name) on each of several commits (one query for a page of commits). */
export async function latestRunsOfCommits(db: Executor, repositoryId: number, headShas: readonly string[]): Promise<CheckRun[]> {
  if (!headShas.length) return [];
  const rows = await db.selectFrom('check_runs as r').select(RUN_COLUMNS.map((c) => `r.${c}` as const))
    .where('r.id', 'in', (eb) => eb.selectFrom('check_runs').select((e) => e.fn.max('id').as('id'))
      .where('repository_id', '=', repositoryId).where('head_sha', 'in', [...headShas]).groupBy(['head_sha', 'suite_id', 'name']))
    .orderBy('r.id').execute();
  return rows.map(toRun);
}

// ---------------------------------------------------------------- annotations

export type NewAnnotation = Omit<CheckAnnotation, 'id' | 'checkRunId'>;

export async function insertAnnotations(db: Executor, checkRunId: number, list: readonly NewAnnotation[]): Promise<void> {
  if (list.length === 0) return;
  await db.insertInto('check_annotations').values(list.map((a) => ({
    check_run_id: checkRunId, path: a.path, start_line: a.startLine, end_line: a.endLine, start_column: a.startColumn,
    end_column: a.endColumn, annotation_level: a.level, title: a.title, message: a.message, raw_details: a.rawDetails,
  }))).execute();
}

export async function listAnnotations(db: Executor, checkRunId: number, slice: Slice): Promise<CheckAnnotation[]> {
  const rows = await db.selectFrom('check_annotations').select(ANNOTATION_COLUMNS).where('check_run_id', '=', checkRunId)
    .orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toAnnotation);
}

// ---------------------------------------------------------------- preferences

/** The apps whose automatic suites a repository turned off or on, by app id. */
export async function preferencesOf(db: Executor, repositoryId: number): Promise<{ appId: number; autoTrigger: boolean }[]> {
  const rows = await db.selectFrom('check_suite_preferences').select(['app_id', 'auto_trigger']).where('repository_id', '=', repositoryId).orderBy('app_id').execute();
  return rows.map((r) => ({ appId: r.app_id, autoTrigger: Number(r.auto_trigger) === 1 }));
}

export async function setPreference(db: Executor, repositoryId: number, appId: number, autoTrigger: boolean): Promise<void> {
  await db.insertInto('check_suite_preferences').values({ repository_id: repositoryId, app_id: appId, auto_trigger: autoTrigger ? 1 : 0 })
    .onConflict((oc) => oc.columns(['repository_id', 'app_id']).doUpdateSet({ auto_trigger: autoTrigger ? 1 : 0 })).execute();
}
