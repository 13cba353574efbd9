// Wharf's own runner protocol (upstream's is not public): a runner registers with a
// registration token and receives its credential; with that credential it sends
// heartbeats (its status and whether it is busy), reports each job it ran, and removes
// itself with a remove token.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import * as billing from '../billing/billing.service.ts';
import type { ActionsJob } from '../billing/billing.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { defaultGroup } from './runners.access.ts';
import { scopeOf, type Runner, type RunnerOs, type RunnerScope, type RunnerToken, type RunnerTokenKind } from './runners.model.ts';
import { checkLabels, withLabels, type RunnerRecord } from './runners.service.ts';
import { hashSecret, newRunnerCredential } from './runner-secrets.ts';
import * as groupStore from './runner-groups.store.ts';
import * as store from './runners.store.ts';
import { groupVisibleTo, workflowAllowed } from './runners.visibility.ts';

const RESOURCE = 'Runner';
const JOB_RESOURCE = 'Job';
const MAX_NAME = 100;

async function validToken(ctx: AppContext, token: string, kind: RunnerTokenKind): Promise<RunnerToken> {
  const found = await store.findToken(ctx.db, hashSecret(token), kind);
  if (!found || found.expiresAt <= nowIso(ctx.clock)) throw new BadCredentialsError(`Invalid or expired ${kind} token.`);
  return found;
}

/** The runner holding this credential, or 401. */
export async function runnerOfCredential(ctx: AppContext, credential: string | undefined): Promise<Runner> {
  const runner = credential ? await store.findRunnerByCredential(ctx.db, hashSecret(credential)) : null;
  if (!runner) throw new BadCredentialsError('Invalid runner credential.');
  return runner;
}

export interface RegisterInput {
  token: string;
  name: string;
  os: RunnerOs;
  architecture?: string;
  labels?: string[];
  runner_group?: string;
  version?: string;
  ephemeral?: boolean;
}

export interface Registered extends RunnerRecord {
  credential: string;
}

function readOnlyLabels(os: RunnerOs, architecture: string | undefined): string[] {
  return ['self-hosted', os, ...(architecture ? [architecture] : [])];
}

export async function register(ctx: AppContext, input: RegisterInput): Promise<Registered> {
  const token = await validToken(ctx, input.token, 'registration');
  const scope: RunnerScope = scopeOf(token);
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name === '' || name.length > MAX_NAME) errors.push({ resource: RESOURCE, field: 'name', code: 'invalid', message: `name must be 1 to ${MAX_NAME} characters` });
  if (input.architecture !== undefined && !/^[A-Za-z0-9_-]{1,20}$/.test(input.architecture)) errors.push({ resource: RESOURCE, field: 'architecture', code: 'invalid' });
  if (errors.length) throw new ValidationError(errors);
  const custom = checkLabels(input.labels ?? []);
  const nameTaken = () => ValidationError.field(RESOURCE, 'name', 'already_exists', 'A runner with this name already exists.');
  if (await store.findRunnerByName(ctx.db, scope, name)) throw nameTaken();
  let groupId: number | null = null;
  if (scope.kind === 'org') {
    if (input.runner_group !== undefined) {
      const group = await groupStore.findGroupByName(ctx.db, scope.organizationId, input.runner_group);
      if (!group) throw ValidationError.field(RESOURCE, 'runner_group', 'invalid', `No runner group named ${input.runner_group}.`);
      groupId = group.id;
    } else groupId = (await defaultGroup(ctx, scope.organizationId)).id;
  } else if (input.runner_group !== undefined) {
    throw ValidationError.field(RESOURCE, 'runner_group', 'invalid', 'Repository runners belong to no group.');
  }
  const credential = newRunnerCredential();
  const runner = await inTransaction(ctx, async (tx) => {
    const r = await store.insertRunner(tx.db, {
      scope, groupId, name, os: input.os, version: input.version ?? null, ephemeral: input.ephemeral ?? false,
      credentialHash: hashSecret(credential),
    }, nowIso(tx.clock));
    await store.insertLabels(tx.db, r.id, readOnlyLabels(input.os, input.architecture), 'read-only');
    await store.insertLabels(tx.db, r.id, custom, 'custom');
    return r;
  }).catch((err: unknown) => {
    // A concurrent registration took the name first.
    throw store.isDuplicate(err) ? nameTaken() : err;
  });
  return { ...(await withLabels(ctx, [runner]))[0]!, credential };
}

/** A sign of life: the runner is online until it falls silent; `busy` as it reports. */
export async function heartbeat(ctx: AppContext, credential: string | undefined, busy: boolean | undefined): Promise<RunnerRecord> {
  const runner = await runnerOfCredential(ctx, credential);
  const touched = await store.touchRunner(ctx.db, runner.id, nowIso(ctx.clock), busy);
  return (await withLabels(ctx, [touched]))[0]!;
}

/** The runner removes itself with a remove token of its organization or repository. */
export async function unregister(ctx: AppContext, credential: string | undefined, removeToken: string): Promise<void> {
  const runner = await runnerOfCredential(ctx, credential);
  const token = await validToken(ctx, removeToken, 'remove');
  const same = runner.organizationId !== null ? token.organizationId === runner.organizationId : token.repositoryId === runner.repositoryId;
  if (!same) throw new ForbiddenError('The remove token is not for this runner.');
  await store.deleteRunner(ctx.db, runner.id);
}

export interface JobInput {
  repository: string;
  workflow_path: string;
  ref?: string;
  runner_os?: RunnerOs;
  started_at: string;
  completed_at: string;
  rerun?: boolean;
}

async function repositoryOfReport(ctx: AppContext, fullName: string): Promise<Repo> {
  const slash = fullName.indexOf('/');
  const repo = slash > 0 ? await repos.findForGit(ctx, fullName.slice(0, slash), fullName.slice(slash + 1)) : null;
  if (!repo) throw ValidationError.field(JOB_RESOURCE, 'repository', 'invalid', `No repository ${fullName}.`);
  return repo;
}

/**
 * A job the runner ran. The runner may take jobs only of repositories it serves: its
 * own repository, or one its group is visible to (and, for a group restricted to
 * workflows, of a selected workflow).
 */
export async function reportJob(ctx: AppContext, credential: string | undefined, input: JobInput): Promise<ActionsJob> {
  const runner = await runnerOfCredential(ctx, credential);
  const errors: FieldError[] = [];
  const path = input.workflow_path.trim();
  if (path === '' || path.length > 1024) errors.push({ resource: JOB_RESOURCE, field: 'workflow_path', code: 'invalid' });
  if (errors.length) throw new ValidationError(errors);
  const times = billing.checkJobTimes(JOB_RESOURCE, input.started_at, input.completed_at, ctx.clock.now());
  const repo = await repositoryOfReport(ctx, input.repository);
  await requireServes(ctx, runner, repo, path, input.ref ?? null);
  return inTransaction(ctx, async (tx) => {
    const job = await billing.recordJob(tx, {
      repo, runnerId: runner.id, hosted: false, runnerOs: input.runner_os ?? runner.os, workflowPath: path,
      rerun: input.rerun ?? false, ...times,
    });
    // An ephemeral runner takes one job, as upstream's: it is gone once the job is reported.
    if (runner.ephemeral) await store.deleteRunner(tx.db, runner.id);
    return job;
  });
}

async function requireServes(ctx: AppContext, runner: Runner, repo: Repo, workflowPath: string, ref: string | null): Promise<void> {
  if (runner.repositoryId !== null) {
    if (runner.repositoryId !== repo.id) throw new ForbiddenError('This runner serves another repository.');
    return;
  }
  const group = runner.groupId === null ? null : await groupStore.findGroupById(ctx.db, runner.groupId);
  if (!group) throw new NotFoundError();
  const selected = (await groupStore.groupRepositoryIds(ctx.db, [group.id])).get(group.id) ?? [];
  if (!groupVisibleTo(group, selected, repo)) {
    throw new ForbiddenError(`The runner group ${group.name} is not visible to ${repo.owner.login}/${repo.name}.`);
  }
  if (!workflowAllowed(group, repo, workflowPath, ref)) {
    throw new ForbiddenError(`The runner group ${group.name} may not run ${workflowPath}.`);
  }
}

