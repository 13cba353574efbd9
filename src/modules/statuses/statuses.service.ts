// Commit statuses: CI systems report on commits (push access), everyone who may read
// the repository sees them, one by one or combined per context. Deployments read the
// latest state of each context before deploying (required contexts).
import { inTransaction, type AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import type { Slice } from '../../domain/page.ts';
import { recordEvent } from '../../events/outbox.ts';
import { peel } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { branchRules } from '../branch-protection/ref-rules.service.ts';
import { commitRecordData } from '../git-data/commits.service.ts';
import { networkCommitSha } from '../git-data/commits.network.ts';
import { isPlainRevision } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import {
  combinedState, DEFAULT_CONTEXT, MAX_DESCRIPTION, MAX_PER_CONTEXT, type CommitState, type CommitStatus,
} from './statuses.model.ts';
import * as store from './statuses.store.ts';
import { statusEventPayload } from './statuses.views.ts';

const RESOURCE = 'Status';
/** Branches listed in the status event, as upstream (at most 10). */
const EVENT_BRANCHES = 10;

/** Scopes that let a token write statuses of `repo` (repo:status is the narrow one). */
export function writeScopes(repo: Repo): string[] {
  return repo.visibility === 'public' ? ['repo:status', 'public_repo', 'repo'] : ['repo:status', 'repo'];
}

/** repo:status reaches the statuses of private repositories without `repo`: that is what the scope is for. */
function statusViewer(actor: Actor): Actor {
  return hasScope(actor, 'repo:status') ? { ...actor, scopes: new Set([...actor.scopes, 'repo']) } : actor;
}

async function forReading(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  return (await repos.locate(ctx, statusViewer(actor), owner, name, 'pull')).repo;
}

async function forWriting(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  requireUser(actor);
  const viewer = statusViewer(actor);
  const { repo } = await repos.locate(ctx, viewer, owner, name, 'pull');
  requireScope(actor, ...writeScopes(repo));
  await repos.requireRole(ctx, viewer, repo, 'push');
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return repo;
}

/** The commit a sha, branch or tag names in `repo`, or NotFoundError. */
async function commitOf(ctx: AppContext, repo: Repo, ref: string, reader?: Actor): Promise<string> {
  const sha = (isPlainRevision(ref) ? await peel(repos.gitDir(ctx, repo), ref, 'commit') : null)
    // Reads also name a commit only a relative in the fork network holds that the reader reads (as upstream).
    ?? (reader ? await networkCommitSha(ctx, reader, repo, ref) : null);
  if (!sha) throw new NotFoundError(`No commit found for SHA: ${ref}`);
  return sha;
}

// ---------------------------------------------------------------- create

export interface CreateStatusInput {
  state: CommitState;
  target_url?: string | null;
  description?: string | null;
  context?: string;
}

/** A status with its repository: what the service answers. */
export interface StatusRecord {
  repo: Repo;
  status: CommitStatus;
}

export async function createStatus(
  ctx: AppContext, actor: Actor, owner: string, name: string, shaParam: string, input: CreateStatusInput,
): Promise<StatusRecord> {
  const repo = await forWriting(ctx, actor, owner, name);
  if (input.description && input.description.length > MAX_DESCRIPTION) {
    throw new ValidationError([{ resource: RESOURCE, field: 'description', code: 'custom', message: `description is too long (maximum is ${MAX_DESCRIPTION} characters)` }]);
  }
  requireMaxLength(RESOURCE, 'context', input.context, TEXT_LIMITS.statusContext);
  requireMaxLength(RESOURCE, 'target_url', input.target_url, TEXT_LIMITS.longUrl);
  const dir = repos.gitDir(ctx, repo);
  // A sha (abbreviated or not), as upstream: branch names are not taken here.
  const sha = /^[0-9a-f]{4,40}$/i.test(shaParam) ? await peel(dir, shaParam.toLowerCase(), 'commit') : null;
  if (!sha) {
    const message = `No commit found for SHA: ${shaParam}`;
    throw new ValidationError([{ resource: RESOURCE, field: 'sha', code: 'invalid', message }], message);
  }
  const context = input.context || DEFAULT_CONTEXT;
  const creator = await users.getOwnAccount(ctx, actor);
  // Git reads for the event happen before the transaction: it holds no lock meanwhile.
  const [commit, branches] = await Promise.all([commitRecordData(ctx, dir, sha), git.branchesContaining(dir, sha, EVENT_BRANCHES)]);
  return inTransaction(ctx, async (tx) => {
    if (await store.countForContext(tx.db, repo.id, sha, context) >= MAX_PER_CONTEXT) {
      throw new ValidationError([{ resource: RESOURCE, field: 'context', code: 'custom', message: 'This SHA and context has reached the maximum number of statuses.' }]);
    }
    const status = await store.insert(tx.db, {
      repositoryId: repo.id, sha, state: input.state, targetUrl: input.target_url ?? null,
      description: input.description ?? null, context, creatorId: creator.id,
    }, nowIso(tx.clock));
    await recordEvent(tx, {
      event: 'status', repositoryId: repo.id, actorId: creator.id,
      organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null,
      payload: statusEventPayload(tx.urls, repo, { status, creator }, commit, branches.map((b) => ({ name: b.ref.slice('refs/heads/'.length), sha: b.sha }))),
    });
    return { status, repo };
  });
}

// ---------------------------------------------------------------- read

export interface StatusPage {
  repo: Repo;
  items: CommitStatus[];
  total: number;
}

/** Every status of the commit `ref` names, newest first. */
export async function listStatuses(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, slice: Slice): Promise<StatusPage> {
  const repo = await forReading(ctx, actor, owner, name);
  const sha = await commitOf(ctx, repo, ref);
  const [rows, total] = await Promise.all([store.listForSha(ctx.db, repo.id, sha, slice), store.countForSha(ctx.db, repo.id, sha)]);
  return { repo, items: rows, total };
}

export interface CombinedStatus {
  repo: Repo;
  sha: string;
  /**
   * Read for a branch: the contexts its rules (classic protection and active rulesets)
   * require, which each status says it is or is not. Null otherwise (a sha, a tag), as upstream.
   */
  requiredContexts: ReadonlySet<string> | null;
  state: 'failure' | 'pending' | 'success';
  /** This page of the latest status of each context. */
  statuses: CommitStatus[];
  /** How many contexts. */
  total: number;
}

/** The branch `ref` names (main, heads/main, refs/heads/main) when it is one; null for a sha, a tag or another ref. */
async function branchNamed(ctx: AppContext, repo: Repo, ref: string): Promise<string | null> {
  if (/^[0-9a-f]{40}$/i.test(ref) || (ref.startsWith('refs/') && !ref.startsWith('refs/heads/'))) return null;
  const name = ref.replace(/^(refs\/)?heads\//, '');
  return (await git.resolve(repos.gitDir(ctx, repo), `refs/heads/${name}`)) ? name : null;
}

export async function getCombinedStatus(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, slice: Slice): Promise<CombinedStatus> {
  const repo = await forReading(ctx, actor, owner, name);
  const sha = await commitOf(ctx, repo, ref, actor);
  const [latest, branch] = await Promise.all([store.latestPerContext(ctx.db, repo.id, sha), branchNamed(ctx, repo, ref)]);
  const rules = branch === null ? null : await branchRules(ctx, repo, branch);
  return {
    repo, sha, requiredContexts: branch === null ? null : new Set(rules?.requiredStatusChecks?.checks.map((c) => c.context) ?? []),
    state: combinedState(latest), statuses: latest.slice(slice.offset, slice.offset + slice.perPage), total: latest.length,
  };
}

/** A status by id (no access check: the caller checks its repository). */
export function findStatus(ctx: AppContext, id: number): Promise<CommitStatus | null> {
  return store.findById(ctx.db, id);
}

/** The latest status of each context of a commit (no access check: the caller has made one). */
export async function latestStatuses(ctx: AppContext, repositoryId: number, sha: string): Promise<CommitStatus[]> {
  return store.latestPerContext(ctx.db, repositoryId, sha);
}

/** The latest status of each context of each commit, by sha, in one read (no access check: the caller has made one). */
export async function latestStatusesOfCommits(ctx: AppContext, repositoryId: number, shas: readonly string[]): Promise<Map<string, CommitStatus[]>> {
  const out = new Map<string, CommitStatus[]>();
  for (const s of await store.latestPerContextOfShas(ctx.db, repositoryId, shas)) out.set(s.sha, [...(out.get(s.sha) ?? []), s]);
  return out;
}
