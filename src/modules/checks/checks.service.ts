// Check runs: apps (and, where the site admin allows it, CI systems with users' tokens)
// report on commits; everyone who may read the repository sees them. A run belongs to
// its app's suite for the head commit, made with the first run; the suite's status and
// conclusion follow its runs'. Required status checks and GraphQL's rollup read the
// latest run of each name (latestRuns).
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso, storedTimestamp } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { peel } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { networkCommitSha } from '../git-data/commits.network.ts';
import { isPlainRevision } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { forReading, forRerequest, forWriting, type Writer } from './checks.access.ts';
import { recordRunEvent, recordSuiteEvent } from './checks.events.ts';
import {
  MAX_ACTIONS, MAX_ANNOTATIONS_PER_REQUEST, MAX_OUTPUT_TEXT, suiteConclusion, suiteStatus,
  type CheckAction, type CheckAnnotation, type CheckConclusion, type CheckRun, type CheckStatus, type CheckSuite,
} from './checks.model.ts';
import type { CreateRunInput, UpdateRunInput } from './checks.schemas.ts';
import * as store from './checks.store.ts';
import { isStoredId } from '../../domain/ids.ts';

const RESOURCE = 'CheckRun';
const NOT_ACCESSIBLE = 'Resource not accessible by integration';

function invalid(field: string, message: string, code: FieldError['code'] = 'invalid'): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field, code, message }], message);
}

/** The commit a full or abbreviated sha names, or 422 (upstream takes shas only here). */
export async function requireHeadSha(ctx: AppContext, repo: Repo, sha: string, resource = RESOURCE): Promise<string> {
  const found = /^[0-9a-f]{4,40}$/i.test(sha) ? await peel(repos.gitDir(ctx, repo), sha.toLowerCase(), 'commit') : null;
  if (!found) {
    const message = `No commit found for SHA: ${sha}`;
    throw new ValidationError([{ resource, field: 'head_sha', code: 'invalid', message }], message);
  }
  return found;
}

/** The commit a sha, branch or tag names, or 404. */
export async function commitOfRef(ctx: AppContext, repo: Repo, ref: string, reader?: Actor): Promise<string> {
  const sha = (isPlainRevision(ref) ? await peel(repos.gitDir(ctx, repo), ref, 'commit') : null)
    // Reads also name a commit only a relative in the fork network holds that the reader reads (as upstream).
    ?? (reader ? await networkCommitSha(ctx, reader, repo, ref) : null);
  if (!sha) throw new NotFoundError(`No commit found for SHA: ${ref}`);
  return sha;
}

/** The branch whose tip is `sha` (the suite's head_branch), if any. */
async function branchAt(ctx: AppContext, repo: Repo, sha: string): Promise<string | null> {
  const branches = await git.branchesContaining(repos.gitDir(ctx, repo), sha, 100);
  const tip = branches.find((b) => b.sha === sha);
  return tip ? tip.ref.slice('refs/heads/'.length) : null;
}

// ---------------------------------------------------------------- input rules

type Annotations = NonNullable<NonNullable<CreateRunInput['output']>['annotations']>;

function checkOutput(output: CreateRunInput['output'] | UpdateRunInput['output']): void {
  if (!output) return;
  for (const field of ['title', 'summary', 'text'] as const) requireMaxLength(RESOURCE, `output.${field}`, output[field], MAX_OUTPUT_TEXT);
  const list = output.annotations ?? [];
  if (list.length > MAX_ANNOTATIONS_PER_REQUEST) {
    throw invalid('output.annotations', `Only ${MAX_ANNOTATIONS_PER_REQUEST} annotations can be sent per request`);
  }
  for (const a of list) {
    if (a.end_line < a.start_line) throw invalid('output.annotations', 'end_line must be greater than or equal to start_line');
    // Columns name a span within one line only, as upstream.
    if ((a.start_column !== undefined || a.end_column !== undefined) && a.start_line !== a.end_line) {
      throw invalid('output.annotations', 'start_column and end_column may only be given when start_line and end_line are the same');
    }
    if (a.start_column !== undefined && a.end_column !== undefined && a.end_column < a.start_column) {
      throw invalid('output.annotations', 'end_column must be greater than or equal to start_column');
    }
    requireMaxLength(RESOURCE, 'output.annotations.path', a.path, 1024);
    if (a.path === '') throw invalid('output.annotations', 'path must not be blank', 'missing_field');
    requireMaxLength(RESOURCE, 'output.annotations.title', a.title, 255);
    requireMaxLength(RESOURCE, 'output.annotations.message', a.message, 64 * 1024);
    requireMaxLength(RESOURCE, 'output.annotations.raw_details', a.raw_details, 64 * 1024);
  }
}

function checkActions(actions: CheckAction[] | undefined): void {
  if (!actions) return;
  if (actions.length > MAX_ACTIONS) throw invalid('actions', `Only ${MAX_ACTIONS} actions can be given`);
  for (const a of actions) {
    requireMaxLength(RESOURCE, 'actions.label', a.label, 20);
    requireMaxLength(RESOURCE, 'actions.description', a.description, 40);
    requireMaxLength(RESOURCE, 'actions.identifier', a.identifier, 20);
  }
}

function checkCommon(input: CreateRunInput | UpdateRunInput): void {
  if (input.name !== undefined) {
    if (input.name.trim() === '') throw invalid('name', 'name must not be blank', 'missing_field');
    requireMaxLength(RESOURCE, 'name', input.name, TEXT_LIMITS.statusContext);
  }
  requireMaxLength(RESOURCE, 'details_url', input.details_url, TEXT_LIMITS.longUrl);
  requireMaxLength(RESOURCE, 'external_id', input.external_id, 255);
  checkOutput(input.output);
  checkActions(input.actions);
}

/**
 * Status, conclusion and times as upstream settles them: a conclusion completes the
 * run; a completed run needs a conclusion; completing stamps completed_at.
 */
function settle(
  now: string, prev: Pick<CheckRun, 'status' | 'conclusion' | 'completedAt'> | null, input: CreateRunInput | UpdateRunInput,
): { status: CheckStatus; conclusion: CheckConclusion | null; completedAt: string | null } {
  const status: CheckStatus = input.conclusion !== undefined ? 'completed' : input.status ?? prev?.status ?? 'queued';
  const conclusion = status === 'completed' ? input.conclusion ?? prev?.conclusion ?? null : null;
  if (status === 'completed' && conclusion === null) {
    throw invalid('conclusion', 'conclusion is required when status is completed', 'missing_field');
  }
  const completedAt = status === 'completed'
    ? storedTimestamp(input.completed_at) ?? (prev?.status === 'completed' ? prev.completedAt : null) ?? now
    : null;
  return { status, conclusion, completedAt };
}

function newAnnotations(list: Annotations | undefined): store.NewAnnotation[] {
  return (list ?? []).map((a) => ({
    path: a.path, startLine: a.start_line, endLine: a.end_line, startColumn: a.start_column ?? null, endColumn: a.end_column ?? null,
    level: a.annotation_level, title: a.title ?? null, message: a.message, rawDetails: a.raw_details ?? null,
  }));
}

// ---------------------------------------------------------------- suites of runs

/** The writer's suite for the commit, made when missing (concurrent first runs make one). */
async function suiteFor(tx: AppContext, repo: Repo, appId: number | null, sha: string, branch: string | null): Promise<CheckSuite> {
  const found = await store.findSuite(tx.db, repo.id, appId, sha);
  if (found) return found;
  return store.insertSuite(tx.db, { repositoryId: repo.id, appId, headSha: sha, headBranch: branch, before: null, after: sha }, nowIso(tx.clock));
}

/** Follows the suite's status and conclusion to its runs' (the latest of each name); records check_suite completed on completion. */
async function settleSuite(tx: AppContext, repo: Repo, suite: CheckSuite, senderId: number): Promise<void> {
  const runs = latestPerName(await store.runsOfSuite(tx.db, suite.id));
  const status = suiteStatus(runs);
  const conclusion = suiteConclusion(runs);
  if (status === suite.status && conclusion === suite.conclusion) return;
  const now = nowIso(tx.clock);
  await store.setSuiteState(tx.db, suite.id, status, conclusion, now);
  if (status === 'completed' && suite.status !== 'completed') {
    await recordSuiteEvent(tx, repo, senderId, 'completed', { ...suite, status, conclusion, updatedAt: now });
  }
}

function latestPerName(runs: readonly CheckRun[]): CheckRun[] {
  const byName = new Map<string, CheckRun>();
  for (const r of runs) if ((byName.get(r.name)?.id ?? 0) < r.id) byName.set(r.name, r);
  return [...byName.values()];
}

// ---------------------------------------------------------------- runs

export interface RunRecord {
  repo: Repo;
  run: CheckRun;
}

export async function createRun(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateRunInput): Promise<RunRecord> {
  const w = await forWriting(ctx, actor, owner, name);
  checkCommon(input);
  const sha = await requireHeadSha(ctx, w.repo, input.head_sha);
  const branch = await branchAt(ctx, w.repo, sha);
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const settled = settle(now, null, input);
    const suite = await suiteFor(tx, w.repo, w.appId, sha, branch);
    const annotations = newAnnotations(input.output?.annotations);
    const run = await store.insertRun(tx.db, {
      suiteId: suite.id, repositoryId: w.repo.id, headSha: sha, name: input.name, status: settled.status, conclusion: settled.conclusion,
      externalId: input.external_id ?? null, detailsUrl: input.details_url ?? null,
      startedAt: storedTimestamp(input.started_at) ?? now, completedAt: settled.completedAt,
      output: { title: input.output?.title ?? null, summary: input.output?.summary ?? null, text: input.output?.text ?? null, annotationsCount: annotations.length },
      actions: input.actions ?? [], creatorId: w.appId === null ? w.senderId : null,
    }, now);
    await store.insertAnnotations(tx.db, run.id, annotations);
    await recordRunEvent(tx, w.repo, w.senderId, 'created', run, w.appId);
    if (run.status === 'completed') await recordRunEvent(tx, w.repo, w.senderId, 'completed', run, w.appId);
    await settleSuite(tx, w.repo, suite, w.senderId);
    return { repo: w.repo, run };
  });
}

/** A run of the repository with its suite, or 404. */
async function runOf(ctx: AppContext, repo: Repo, id: string): Promise<{ run: CheckRun; suite: CheckSuite }> {
  const run = isStoredId(Number(id)) ? await store.findRun(ctx.db, Number(id)) : undefined;
  const suite = run && run.repositoryId === repo.id ? await store.findSuiteById(ctx.db, run.suiteId) : null;
  if (!run || !suite) throw new NotFoundError();
  return { run, suite };
}

/** An app changes its own runs only; users (where allowed) the runs of no app. */
function requireOwnSuite(w: Writer, suite: CheckSuite): void {
  if (suite.appId !== w.appId) throw new ForbiddenError(NOT_ACCESSIBLE);
}

export async function updateRun(ctx: AppContext, actor: Actor, owner: string, name: string, id: string, input: UpdateRunInput): Promise<RunRecord> {
  const w = await forWriting(ctx, actor, owner, name);
  const { run: before, suite } = await runOf(ctx, w.repo, id);
  requireOwnSuite(w, suite);
  checkCommon(input);
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const settled = settle(now, before, input);
    const annotations = newAnnotations(input.output?.annotations);
    const o = input.output;
    const run = await store.updateRun(tx.db, before.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.details_url !== undefined ? { detailsUrl: input.details_url } : {}),
      ...(input.external_id !== undefined ? { externalId: input.external_id } : {}),
      ...(input.started_at !== undefined ? { startedAt: storedTimestamp(input.started_at) ?? null } : {}),
      ...(input.actions !== undefined ? { actions: input.actions } : {}),
      status: settled.status, conclusion: settled.conclusion, completedAt: settled.completedAt,
      // Annotations accumulate over updates; the texts are replaced when given.
      output: {
        title: o?.title ?? before.output.title, summary: o?.summary ?? before.output.summary, text: o?.text ?? before.output.text,
        annotationsCount: before.output.annotationsCount + annotations.length,
      },
    }, now);
    await store.insertAnnotations(tx.db, run.id, annotations);
    if (run.status === 'completed' && before.status !== 'completed') await recordRunEvent(tx, w.repo, w.senderId, 'completed', run, w.appId);
    await settleSuite(tx, w.repo, suite, w.senderId);
    return { repo: w.repo, run };
  });
}

export async function getRun(ctx: AppContext, actor: Actor, owner: string, name: string, id: string): Promise<RunRecord> {
  const repo = await forReading(ctx, actor, owner, name);
  return { repo, run: (await runOf(ctx, repo, id)).run };
}

export async function listAnnotations(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: string, slice: Slice,
): Promise<{ repo: Repo; run: CheckRun; items: CheckAnnotation[] }> {
  const repo = await forReading(ctx, actor, owner, name);
  const { run } = await runOf(ctx, repo, id);
  return { repo, run, items: await store.listAnnotations(ctx.db, run.id, slice) };
}

/** Asks the run's app to run it again: the suite goes back to queued, the app hears check_run rerequested. */
export async function rerequestRun(ctx: AppContext, actor: Actor, owner: string, name: string, id: string): Promise<void> {
  const w = await forRerequest(ctx, actor, owner, name);
  const { run, suite } = await runOf(ctx, w.repo, id);
  if (w.appId !== null) requireOwnSuite(w, suite);
  await inTransaction(ctx, async (tx) => {
    await store.setSuiteState(tx.db, suite.id, 'queued', null, nowIso(tx.clock));
    await recordRunEvent(tx, w.repo, w.senderId, 'rerequested', run, suite.appId);
  });
}

export interface RunListQuery {
  checkName?: string;
  status?: CheckStatus;
  filter?: 'latest' | 'all';
  appId?: number;
}

export interface RunPage {
  repo: Repo;
  items: CheckRun[];
  total: number;
}

async function listRuns(ctx: AppContext, repo: Repo, base: Pick<store.RunFilter, 'suiteId' | 'headSha'>, q: RunListQuery, slice: Slice): Promise<RunPage> {
  const filter: store.RunFilter = {
    ...base, checkName: q.checkName, status: q.status, appId: q.appId, latest: (q.filter ?? 'latest') === 'latest',
  };
  const [items, total] = await Promise.all([store.listRuns(ctx.db, repo.id, filter, slice), store.countRuns(ctx.db, repo.id, filter)]);
  return { repo, items, total };
}

export async function listRunsForRef(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, q: RunListQuery, slice: Slice): Promise<RunPage> {
  const repo = await forReading(ctx, actor, owner, name);
  return listRuns(ctx, repo, { headSha: await commitOfRef(ctx, repo, ref, actor) }, q, slice);
}

export async function listRunsForSuite(ctx: AppContext, actor: Actor, owner: string, name: string, suiteId: string, q: RunListQuery, slice: Slice): Promise<RunPage> {
  const repo = await forReading(ctx, actor, owner, name);
  const suite = isStoredId(Number(suiteId)) ? await store.findSuiteById(ctx.db, Number(suiteId)) : undefined;
  if (!suite || suite.repositoryId !== repo.id) throw new NotFoundError();
  return listRuns(ctx, repo, { suiteId: suite.id }, q, slice);
}

// ---------------------------------------------------------------- for other modules

/** The latest run of each name of each app on a commit, with the app (no access check: the caller made one). */
export function latestRuns(ctx: AppContext, repositoryId: number, sha: string): Promise<{ run: CheckRun; appId: number | null }[]> {
  return store.latestRunsOfCommit(ctx.db, repositoryId, sha);
}

/** The latest run of each name of each suite on each commit, by sha, in one read (no access check: the caller made one). */
export async function latestRunsOfCommits(ctx: AppContext, repositoryId: number, shas: readonly string[]): Promise<Map<string, CheckRun[]>> {
  const out = new Map<string, CheckRun[]>();
  for (const r of await store.latestRunsOfCommits(ctx.db, repositoryId, shas)) out.set(r.headSha, [...(out.get(r.headSha) ?? []), r]);
  return out;
}

/** A run or suite by id (no access check: the caller checks its repository). */
export function findRun(ctx: AppContext, id: number): Promise<CheckRun | null> {
  return store.findRun(ctx.db, id);
}

export function findSuite(ctx: AppContext, id: number): Promise<CheckSuite | null> {
  return store.findSuiteById(ctx.db, id);
}

