// SQL for deployments and deployment statuses. Only the deployments module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DeploymentStatusesTable, DeploymentsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { Deployment, DeploymentState, DeploymentStatus } from './deployments.model.ts';

const DEPLOYMENT_COLUMNS = [
  'id', 'repository_id', 'sha', 'ref', 'task', 'payload', 'original_environment', 'environment', 'description',
  'creator_id', 'transient_environment', 'production_environment', 'latest_state', 'performed_via_app_id', 'created_at', 'updated_at',
] as const;

const STATUS_COLUMNS = [
  'id', 'deployment_id', 'state', 'description', 'environment', 'target_url', 'log_url', 'environment_url',
  'creator_id', 'performed_via_app_id', 'created_at', 'updated_at',
] as const;

type DeploymentRow = Selectable<Pick<DeploymentsTable, (typeof DEPLOYMENT_COLUMNS)[number]>>;
type StatusRow = Selectable<Pick<DeploymentStatusesTable, (typeof STATUS_COLUMNS)[number]>>;

function toDeployment(r: DeploymentRow): Deployment {
  return {
    id: r.id,
    repositoryId: r.repository_id,
    sha: r.sha,
    ref: r.ref,
    task: r.task,
    payload: JSON.parse(r.payload) as Deployment['payload'],
    originalEnvironment: r.original_environment,
    environment: r.environment,
    description: r.description,
    creatorId: r.creator_id,
    transient: Number(r.transient_environment) === 1,
    production: Number(r.production_environment) === 1,
    latestState: r.latest_state as DeploymentState | null,
    performedViaAppId: r.performed_via_app_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toStatus(r: StatusRow): DeploymentStatus {
  return {
    id: r.id,
    deploymentId: r.deployment_id,
    state: r.state as DeploymentState,
    description: r.description,
    environment: r.environment,
    targetUrl: r.target_url,
    logUrl: r.log_url,
    environmentUrl: r.environment_url,
    creatorId: r.creator_id,
    performedViaAppId: r.performed_via_app_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// ---------------------------------------------------------------- deployments

/** What a new deployment is given (the store sets the rest); fields as the model has them. */
export type NewDeployment = Pick<Deployment,
  'repositoryId' | 'sha' | 'ref' | 'task' | 'payload' | 'environment' | 'description' | 'transient' | 'production' | 'performedViaAppId'
> & { creatorId: number };

export async function insertDeployment(db: Executor, v: NewDeployment, now: string): Promise<Deployment> {
  const row = await db.insertInto('deployments').values({
    repository_id: v.repositoryId,
    sha: v.sha,
    ref: v.ref,
    task: v.task,
    payload: JSON.stringify(v.payload),
    original_environment: v.environment,
    environment: v.environment,
    description: v.description,
    creator_id: v.creatorId,
    transient_environment: v.transient ? 1 : 0,
    production_environment: v.production ? 1 : 0,
    latest_state: null,
    performed_via_app_id: v.performedViaAppId,
    created_at: now,
    updated_at: now,
  }).returning(DEPLOYMENT_COLUMNS).executeTakeFirstOrThrow();
  return toDeployment(row);
}

export async function findDeployment(db: Executor, repositoryId: number, id: number): Promise<Deployment | null> {
  const row = await db.selectFrom('deployments').select(DEPLOYMENT_COLUMNS)
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toDeployment(row) : null;
}

export interface DeploymentFilter {
  sha?: string;
  ref?: string;
  task?: string;
  environment?: string;
  /** Any of these environments (GraphQL's `environments`); an empty list matches nothing. */
  environments?: readonly string[];
}

function filtered(db: Executor, repositoryId: number, f: DeploymentFilter) {
  let q = db.selectFrom('deployments').where('repository_id', '=', repositoryId);
  if (f.sha !== undefined) q = q.where('sha', '=', f.sha);
  if (f.ref !== undefined) q = q.where('ref', '=', f.ref);
  if (f.task !== undefined) q = q.where('task', '=', f.task);
  if (f.environment !== undefined) q = q.where('environment', '=', f.environment);
  if (f.environments !== undefined) q = f.environments.length ? q.where('environment', 'in', [...f.environments]) : q.where('id', '<', 0);
  return q;
}

/** Newest first, as upstream lists them. */
export async function listDeployments(db: Executor, repositoryId: number, f: DeploymentFilter, slice: Slice): Promise<Deployment[]> {
  const rows = await filtered(db, repositoryId, f).select(DEPLOYMENT_COLUMNS)
    .orderBy('id', 'desc').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toDeployment);
}

export async function countDeployments(db: Executor, repositoryId: number, f: DeploymentFilter = {}): Promise<number> {
  const row = await filtered(db, repositoryId, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deployments by id, of any repository (GraphQL node ids: the caller checks the repository). */
export async function findDeploymentsByIds(db: Executor, ids: readonly number[]): Promise<Deployment[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('deployments').select(DEPLOYMENT_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toDeployment);
}

export async function removeDeployment(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('deployments').where('id', '=', id).execute();
}

/** After a status: the deployment takes its state and environment. */
export async function recordLatest(db: Executor, id: number, state: DeploymentState, environment: string, now: string): Promise<void> {
  await db.updateTable('deployments').set({ latest_state: state, environment, updated_at: now }).where('id', '=', id).execute();
}

/**
 * The deployments a new success in `environment` makes inactive (auto_inactive): earlier
 * ones of the repository in that environment, neither transient nor production, whose
 * latest status is success.
 */
export async function supersededBy(db: Executor, repositoryId: number, environment: string, deploymentId: number): Promise<Deployment[]> {
  const rows = await db.selectFrom('deployments').select(DEPLOYMENT_COLUMNS)
    .where('repository_id', '=', repositoryId).where('environment', '=', environment).where('id', '<', deploymentId)
    .where('transient_environment', '=', 0).where('production_environment', '=', 0).where('latest_state', '=', 'success')
    .orderBy('id').execute();
  return rows.map(toDeployment);
}

// ---------------------------------------------------------------- statuses

/** What a new status is given (the store sets id and timestamps); fields as the model has them. */
export type NewStatus = Pick<DeploymentStatus,
  'deploymentId' | 'state' | 'description' | 'environment' | 'targetUrl' | 'logUrl' | 'environmentUrl' | 'performedViaAppId'
> & { creatorId: number };

export async function insertStatus(db: Executor, v: NewStatus, now: string): Promise<DeploymentStatus> {
  const row = await db.insertInto('deployment_statuses').values({
    deployment_id: v.deploymentId,
    state: v.state,
    description: v.description,
    environment: v.environment,
    target_url: v.targetUrl,
    log_url: v.logUrl,
    environment_url: v.environmentUrl,
    creator_id: v.creatorId,
    performed_via_app_id: v.performedViaAppId,
    created_at: now,
    updated_at: now,
  }).returning(STATUS_COLUMNS).executeTakeFirstOrThrow();
  return toStatus(row);
}

export async function findStatus(db: Executor, deploymentId: number, id: number): Promise<DeploymentStatus | null> {
  const row = await db.selectFrom('deployment_statuses').select(STATUS_COLUMNS)
    .where('deployment_id', '=', deploymentId).where('id', '=', id).executeTakeFirst();
  return row ? toStatus(row) : null;
}

/** Newest first. */
export async function listStatuses(db: Executor, deploymentId: number, slice: Slice): Promise<DeploymentStatus[]> {
  const rows = await db.selectFrom('deployment_statuses').select(STATUS_COLUMNS)
    .where('deployment_id', '=', deploymentId).orderBy('id', 'desc').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toStatus);
}

export async function countStatuses(db: Executor, deploymentId: number): Promise<number> {
  const row = await db.selectFrom('deployment_statuses').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('deployment_id', '=', deploymentId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function latestStatus(db: Executor, deploymentId: number): Promise<DeploymentStatus | null> {
  const row = await db.selectFrom('deployment_statuses').select(STATUS_COLUMNS)
    .where('deployment_id', '=', deploymentId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? toStatus(row) : null;
}

/** Statuses by id, of any deployment (GraphQL node ids). */
export async function findStatusesByIds(db: Executor, ids: readonly number[]): Promise<DeploymentStatus[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('deployment_statuses').select(STATUS_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toStatus);
}

/** The latest status of each deployment, in one statement (the newest id per deployment). */
export async function latestStatuses(db: Executor, deploymentIds: readonly number[]): Promise<DeploymentStatus[]> {
  if (!deploymentIds.length) return [];
  const rows = await db.selectFrom('deployment_statuses').select(STATUS_COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('deployment_statuses').select((e) => e.fn.max('id').as('id'))
      .where('deployment_id', 'in', [...new Set(deploymentIds)]).groupBy('deployment_id'))
    .execute();
  return rows.map(toStatus);
}

/**
 * Takes the deployment's row lock for the rest of the transaction (an update does, in
 * every dialect), so that concurrent statuses of one deployment apply one at a time.
 */
export async function lockDeployment(db: Executor, id: number): Promise<void> {
  await db.updateTable('deployments').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).execute();
}
