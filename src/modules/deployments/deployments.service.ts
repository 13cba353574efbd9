// Deployments and deployment statuses. Creating a deployment resolves its ref to a
// commit, may first merge the default branch into the ref (auto_merge, as upstream:
// the merge is the answer, and the client asks again), and refuses while required
// commit-status contexts are not success. Statuses move a deployment through its
// states; a success retires earlier deployments of the environment (auto_inactive).
//
// Rights: reading needs pull access; writing needs push access and a token scope of
// repo_deployment or repo (public_repo too on public repositories). repo_deployment
// alone reaches private repositories' deployments: that is what the scope is for.
import { inTransaction, type AppContext } from '../../context.ts';
import { actingAppId, hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import { isConflict, mergeCommits } from '../../git/merge.ts';
import { peel } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { MAX_REF_BYTES } from '../../git/ref-format.ts';
import { GitError } from '../../git/run.ts';
import { actorIdent, changingRefs, isPlainRevision, type GitRepo } from '../git-data/git-data.repository.ts';
import { appRecordsByIds, type AppRecordView } from '../apps/apps.present.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { latestStatuses } from '../statuses/statuses.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import {
  DEFAULT_ENVIRONMENT, DEFAULT_TASK, isActive, MAX_STATUS_DESCRIPTION,
  type Deployment, type DeploymentRecord, type DeploymentState, type DeploymentStatus, type DeploymentStatusRecord,
} from './deployments.model.ts';
import { deploymentDetails } from './deployments.present.ts';
import * as store from './deployments.store.ts';
import { deploymentEventPayload, deploymentStatusEventPayload, type DeploymentDetail } from './deployments.views.ts';

const RESOURCE = 'Deployment';
const STATUS_RESOURCE = 'DeploymentStatus';

/** Scopes that let a token write deployments of `repo`. */
export function writeScopes(repo: Repo): string[] {
  return repo.visibility === 'public' ? ['repo_deployment', 'public_repo', 'repo'] : ['repo_deployment', 'repo'];
}

function deploymentViewer(actor: Actor): Actor {
  return hasScope(actor, 'repo_deployment') ? { ...actor, scopes: new Set([...actor.scopes, 'repo']) } : actor;
}

async function forReading(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  return (await repos.locate(ctx, deploymentViewer(actor), owner, name, 'pull')).repo;
}

async function forWriting(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<GitRepo> {
  requireUser(actor);
  const viewer = deploymentViewer(actor);
  const { repo } = await repos.locate(ctx, viewer, owner, name, 'pull');
  requireScope(actor, ...writeScopes(repo));
  const access = actor.method === 'installation' ? await installationWriter(ctx, actor, repo) : await repos.requireRole(ctx, viewer, repo, 'push');
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return { repo, access, dir: repos.gitDir(ctx, repo) };
}

/**
 * An installation writes deployments with its deployments permission, which the route
 * has checked (src/http/app-permission-table.ts), on the repositories it was given:
 * push access (contents write) is not asked of it, as upstream.
 */
async function installationWriter(ctx: AppContext, actor: Actor, repo: Repo): Promise<repos.Access> {
  const access = await repos.accessTo(ctx, actor, repo);
  if (!actor.integration?.repositoryIds?.has(repo.id)) throw new ForbiddenError('Resource not accessible by integration');
  if (access.locked) throw new ForbiddenError(repos.MIGRATION_LOCK_MESSAGE);
  return access;
}

async function requireDeployment(ctx: AppContext, repo: Repo, id: number): Promise<Deployment> {
  const d = await store.findDeployment(ctx.db, repo.id, id);
  if (!d) throw new NotFoundError();
  return d;
}

function organizationOf(repo: Repo): number | null {
  return repo.owner.type === 'Organization' ? repo.ownerId : null;
}

// ---------------------------------------------------------------- create

export interface CreateDeploymentInput {
  ref: string;
  task?: string;
  auto_merge?: boolean;
  required_contexts?: string[];
  payload?: Record<string, unknown> | string;
  environment?: string;
  description?: string | null;
  transient_environment?: boolean;
  production_environment?: boolean;
}

export type CreateDeploymentResult =
  | { created: true; record: DeploymentRecord }
  | { created: false; message: string };

/**
 * A JSON object in a string is taken as that object (upstream documents the payload as
 * JSON text); an empty string is no payload; any other string is kept as it is.
 */
function payloadOf(input: CreateDeploymentInput['payload']): Deployment['payload'] {
  if (input === undefined || input === '') return {};
  if (typeof input !== 'string') return input;
  try {
    const parsed: unknown = JSON.parse(input);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch { /* not JSON: kept as text */ }
  return input;
}

function validateDeployment(input: CreateDeploymentInput): void {
  // NUL in a body is refused before any service runs (src/http/body.ts nulField).
  const errors: FieldError[] = [];
  const blank = (field: keyof CreateDeploymentInput) => {
    const v = input[field];
    if (typeof v === 'string' && v.trim() === '') errors.push({ resource: RESOURCE, field, code: 'invalid', message: `${field} can't be blank` });
  };
  blank('ref');
  blank('task');
  blank('environment');
  const tooLong = (field: keyof CreateDeploymentInput, max: number) => {
    const v = input[field];
    if (typeof v === 'string' && v.length > max) errors.push({ resource: RESOURCE, field, code: 'invalid', message: `${field} is too long (maximum is ${max} characters)` });
  };
  tooLong('ref', MAX_REF_BYTES);
  tooLong('task', TEXT_LIMITS.deploymentTask);
  tooLong('environment', TEXT_LIMITS.deploymentEnvironment);
  tooLong('description', TEXT_LIMITS.deploymentDescription);
  if (errors.length) throw new ValidationError(errors);
}

/** The commit `ref` (a branch, tag or sha) names, or upstream's 422. */
async function resolveRef(r: GitRepo, ref: string): Promise<string> {
  const sha = isPlainRevision(ref) ? await peel(r.dir, ref, 'commit') : null;
  if (!sha) {
    const message = `No ref found for: ${ref}`;
    throw new ValidationError([{ resource: RESOURCE, field: 'ref', code: 'invalid', message }], message);
  }
  return sha;
}

/** The branch `ref` names (and its head), when it names one that resolved to `sha`. */
async function branchOf(r: GitRepo, ref: string, sha: string): Promise<{ name: string; ref: string } | null> {
  const name = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  const full = `refs/heads/${name}`;
  const head = (await git.listRefs(r.dir, [full])).find((e) => e.ref === full);
  return head && head.sha === sha ? { name, ref: full } : null;
}

/**
 * Merges the default branch into the deployed branch when the branch lacks some of its
 * commits. Answers upstream's message when it merged, null when nothing was to merge.
 */
async function autoMerge(ctx: AppContext, actor: Actor, r: GitRepo, ref: string, sha: string): Promise<string | null> {
  const branch = await branchOf(r, ref, sha);
  const base = r.repo.defaultBranch;
  if (!branch || branch.name === base) return null;
  const baseHead = await peel(r.dir, `refs/heads/${base}`, 'commit');
  if (!baseHead || await git.isAncestor(r.dir, baseHead, sha)) return null;
  const message = `Auto-merged ${base} into ${branch.name} on deployment.`;
  const ident = await actorIdent(ctx, actor);
  const merged = await mergeCommits(r.dir, { ours: sha, theirs: baseHead, message: `${message}\n`, author: ident, committer: ident });
  if (isConflict(merged)) throw new ConflictError(`Conflict merging ${base} into ${branch.name}.`);
  await changingRefs(ctx, actor, r, [branch.ref], async () => {
    try {
      await git.updateRef(r.dir, branch.ref, merged.sha, sha);
    } catch (err) {
      if (err instanceof GitError) throw new ConflictError(`${branch.name} was updated while it was being merged; try again.`);
      throw err;
    }
  });
  return message;
}

/** Refuses while a required context's latest status is not success (or there is none). */
async function checkContexts(ctx: AppContext, repo: Repo, ref: string, sha: string, required: string[] | undefined): Promise<void> {
  const latest = await latestStatuses(ctx, repo.id, sha);
  const byContext = new Map(latest.map((s) => [s.context.toLowerCase(), s.state]));
  // Upstream's default: every context that has reported on the commit.
  const wanted = required ?? latest.map((s) => s.context);
  if (wanted.some((c) => byContext.get(c.toLowerCase()) !== 'success')) {
    throw new ConflictError(`Conflict: Commit status checks failed for ${ref}.`);
  }
}

export async function createDeployment(
  ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateDeploymentInput,
): Promise<CreateDeploymentResult> {
  const r = await forWriting(ctx, actor, owner, name);
  validateDeployment(input);
  const sha = await resolveRef(r, input.ref);
  if (input.auto_merge !== false) {
    const merged = await autoMerge(ctx, actor, r, input.ref, sha);
    if (merged) return { created: false, message: merged };
  }
  await checkContexts(ctx, r.repo, input.ref, sha, input.required_contexts);
  const creator = await users.getOwnAccount(ctx, actor);
  const environment = input.environment ?? DEFAULT_ENVIRONMENT;
  return inTransaction(ctx, async (tx) => {
    const deployment = await store.insertDeployment(tx.db, {
      repositoryId: r.repo.id, sha, ref: input.ref, task: input.task ?? DEFAULT_TASK, payload: payloadOf(input.payload),
      environment, description: input.description ?? null, creatorId: creator.id,
      transient: input.transient_environment ?? false,
      production: input.production_environment ?? environment === DEFAULT_ENVIRONMENT,
      performedViaAppId: actingAppId(actor),
    }, nowIso(tx.clock));
    const app = await appRecordOf(tx, deployment.performedViaAppId);
    await recordEvent(tx, {
      event: 'deployment', action: 'created', repositoryId: r.repo.id, organizationId: organizationOf(r.repo), actorId: creator.id,
      payload: deploymentEventPayload(tx.urls, { repo: r.repo, deployment, creator, app }),
    });
    return { created: true, record: { repo: r.repo, deployment } };
  });
}

// ---------------------------------------------------------------- read and delete

export interface ListDeploymentsQuery {
  sha?: string;
  ref?: string;
  task?: string;
  environment?: string;
  /** Any of these (GraphQL's `environments`). */
  environments?: readonly string[];
}

export async function listDeployments(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: ListDeploymentsQuery, slice: Slice,
): Promise<Page<DeploymentRecord>> {
  const repo = await forReading(ctx, actor, owner, name);
  const filter = { sha: q.sha, ref: q.ref, task: q.task, environment: q.environment };
  // No stored value holds NUL: such a filter matches nothing (and PostgreSQL would refuse it).
  if (Object.values(filter).some((v) => v?.includes('\0'))) return { items: [], total: 0 };
  const environments = q.environments?.filter((e) => !e.includes('\0'));
  const [rows, total] = await Promise.all([
    store.listDeployments(ctx.db, repo.id, { ...filter, environments }, slice), store.countDeployments(ctx.db, repo.id, { ...filter, environments }),
  ]);
  return { items: rows.map((deployment) => ({ repo, deployment })), total };
}

export async function getDeployment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<DeploymentRecord> {
  const repo = await forReading(ctx, actor, owner, name);
  return { repo, deployment: await requireDeployment(ctx, repo, id) };
}

/**
 * Upstream's rule: a repository with more than one deployment keeps its active ones;
 * only the last deployment may go regardless of its state.
 */
export async function deleteDeployment(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const r = await forWriting(ctx, actor, owner, name);
  await inTransaction(ctx, async (tx) => {
    const deployment = await requireDeployment(tx, r.repo, id);
    if (isActive(deployment) && await store.countDeployments(tx.db, r.repo.id) > 1) {
      const message = 'We cannot delete an active deployment unless it is the only deployment in a given environment.';
      throw new ValidationError([{ resource: RESOURCE, field: 'id', code: 'custom', message }], message);
    }
    await store.removeDeployment(tx.db, deployment.id);
  });
}

// ---------------------------------------------------------------- statuses

export interface CreateStatusInput {
  state: DeploymentState;
  target_url?: string;
  log_url?: string;
  description?: string;
  environment?: string;
  environment_url?: string;
  auto_inactive?: boolean;
}

/** The App record of the app doing the work (for event payloads), or null. */
async function appRecordOf(ctx: AppContext, appId: number | null): Promise<AppRecordView | null> {
  return appId === null ? null : (await appRecordsByIds(ctx, [appId])).get(appId) ?? null;
}

/** Who adds a status: the user, and the app whose token it used (performed_via_github_app). */
interface StatusAuthor {
  creator: Account;
  appId: number | null;
  app: AppRecordView | null;
}

/** Adds a status and moves the deployment to it, with its event (whose payload shows the deployment's creator). */
async function addStatus(tx: AppContext, r: GitRepo, base: DeploymentDetail, by: StatusAuthor, values: Omit<store.NewStatus, 'deploymentId' | 'creatorId' | 'performedViaAppId'>): Promise<DeploymentStatusRecord> {
  const now = nowIso(tx.clock);
  const { creator } = by;
  const status = await store.insertStatus(tx.db, { ...values, deploymentId: base.deployment.id, creatorId: creator.id, performedViaAppId: by.appId }, now);
  await store.recordLatest(tx.db, base.deployment.id, status.state, status.environment, now);
  const deployment: Deployment = { ...base.deployment, latestState: status.state, environment: status.environment, updatedAt: now };
  await recordEvent(tx, {
    event: 'deployment_status', action: 'created', repositoryId: r.repo.id, organizationId: organizationOf(r.repo), actorId: creator.id,
    payload: deploymentStatusEventPayload(tx.urls, { ...base, deployment, status, statusCreator: creator, statusApp: by.app }),
  });
  return { repo: base.repo, deployment, status };
}

export async function createDeploymentStatus(
  ctx: AppContext, actor: Actor, owner: string, name: string, deploymentId: number, input: CreateStatusInput,
): Promise<DeploymentStatusRecord> {
  const r = await forWriting(ctx, actor, owner, name);
  const description = input.description ?? '';
  if (description.length > MAX_STATUS_DESCRIPTION) {
    throw new ValidationError([{ resource: STATUS_RESOURCE, field: 'description', code: 'custom', message: `description is too long (maximum is ${MAX_STATUS_DESCRIPTION} characters)` }]);
  }
  if (input.environment !== undefined && input.environment.trim() === '') {
    throw new ValidationError([{ resource: STATUS_RESOURCE, field: 'environment', code: 'invalid', message: 'environment can\'t be blank' }]);
  }
  requireMaxLength(STATUS_RESOURCE, 'environment', input.environment, TEXT_LIMITS.deploymentEnvironment);
  for (const field of ['target_url', 'log_url', 'environment_url'] as const) requireMaxLength(STATUS_RESOURCE, field, input[field], TEXT_LIMITS.longUrl);
  const creator = await users.getOwnAccount(ctx, actor);
  // log_url replaces target_url upstream: either sets both.
  const url = input.log_url ?? input.target_url ?? '';
  return inTransaction(ctx, async (tx) => {
    const found = await requireDeployment(tx, r.repo, deploymentId);
    await store.lockDeployment(tx.db, found.id);
    const deployment = (await store.findDeployment(tx.db, r.repo.id, found.id))!;
    const previous = await store.latestStatus(tx.db, deployment.id);
    const environment = input.environment ?? previous?.environment ?? deployment.environment;
    const [base] = await deploymentDetails(tx, [{ repo: r.repo, deployment }]);
    const appId = actingAppId(actor);
    const by: StatusAuthor = { creator, appId, app: await appRecordOf(tx, appId) };
    const record = await addStatus(tx, r, base!, by, {
      state: input.state, description, environment, targetUrl: url, logUrl: url, environmentUrl: input.environment_url ?? '',
    });
    if (input.state === 'success' && input.auto_inactive !== false) {
      const superseded = await store.supersededBy(tx.db, r.repo.id, environment, deployment.id);
      for (const oldDetail of await deploymentDetails(tx, superseded.map((old) => ({ repo: r.repo, deployment: old })))) {
        const old = oldDetail.deployment;
        await addStatus(tx, r, oldDetail, by, {
          state: 'inactive', description: '', environment: old.environment, targetUrl: '', logUrl: '', environmentUrl: '',
        });
      }
    }
    return record;
  });
}

export async function listDeploymentStatuses(
  ctx: AppContext, actor: Actor, owner: string, name: string, deploymentId: number, slice: Slice,
): Promise<Page<DeploymentStatusRecord>> {
  const repo = await forReading(ctx, actor, owner, name);
  const deployment = await requireDeployment(ctx, repo, deploymentId);
  const [rows, total] = await Promise.all([
    store.listStatuses(ctx.db, deploymentId, slice), store.countStatuses(ctx.db, deploymentId),
  ]);
  return { items: rows.map((status) => ({ repo, deployment, status })), total };
}

export async function getDeploymentStatus(
  ctx: AppContext, actor: Actor, owner: string, name: string, deploymentId: number, statusId: number,
): Promise<DeploymentStatusRecord> {
  const repo = await forReading(ctx, actor, owner, name);
  const deployment = await requireDeployment(ctx, repo, deploymentId);
  const status = await store.findStatus(ctx.db, deploymentId, statusId);
  if (!status) throw new NotFoundError();
  return { repo, deployment, status };
}

// ---------------------------------------------------------------- lookups for GraphQL (node ids, latestStatus)

/** Deployments by id; no caller check (the caller checks their repositories). */
export function deploymentsByIds(ctx: AppContext, ids: readonly number[]): Promise<Deployment[]> {
  return store.findDeploymentsByIds(ctx.db, ids);
}

/** Deployment statuses by id; no caller check (the caller checks their deployments' repositories). */
export function statusesByIds(ctx: AppContext, ids: readonly number[]): Promise<DeploymentStatus[]> {
  return store.findStatusesByIds(ctx.db, ids);
}

/** The latest status of each deployment (deployment id → status), in one query. */
export async function latestStatusesOf(ctx: AppContext, deploymentIds: readonly number[]): Promise<Map<number, DeploymentStatus>> {
  return new Map((await store.latestStatuses(ctx.db, deploymentIds)).map((s) => [s.deploymentId, s]));
}
