// Git over HTTP and SSH: who may fetch and push, and what a push changes (pushed_at, size,
// the default branch of an empty repository, push/create/delete events).
import { sql } from 'kysely';
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { AuthenticationRequiredError, ForbiddenError, MissingScopeError, NotFoundError, SsoRequiredError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as git from '../../git/repository.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import * as journal from './git-http.journal.ts';

/** git's services: fetch (upload-pack), push (receive-pack), `git archive --remote` (upload-archive, over SSH). */
export type GitService = 'git-upload-pack' | 'git-receive-pack' | 'git-upload-archive';

/** The repository the caller may read from (upload-pack, upload-archive) or push to (receive-pack). */
export async function authorize(ctx: AppContext, actor: Actor, owner: string, name: string, service: GitService): Promise<Repo> {
  const repo = await repos.findForGit(ctx, owner, name);
  // Anonymous callers are challenged rather than told: git then asks for credentials.
  if (!repo) throw actor.user ? new NotFoundError('Repository not found.') : new AuthenticationRequiredError();
  const access = await repos.accessTo(ctx, actor, repo);
  // The organization's SAML SSO has not authorized the token: say where to authorize it.
  const needed = service === 'git-upload-pack' ? 'pull' : 'push';
  if (access.ssoRequired && !roleAtLeast(access.effective, needed)) throw new SsoRequiredError(access.ssoRequired);
  if (access.effective === null) throw actor.user ? new NotFoundError('Repository not found.') : new AuthenticationRequiredError();
  if (service !== 'git-receive-pack') return repo;
  if (!actor.user) throw new AuthenticationRequiredError();
  if (access.locked) throw new ForbiddenError(repos.MIGRATION_LOCK_MESSAGE);
  if (!roleAtLeast(access.effective, 'push')) {
    if (actor.deployKey) throw new ForbiddenError('The key you are authenticating with has been marked as read only.');
    if (roleAtLeast(access.role, 'push')) throw new MissingScopeError(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']);
    throw new ForbiddenError(`Permission to ${repo.owner.login}/${repo.name}.git denied to ${actor.user.login}.`);
  }
  if (repo.archived) throw new ForbiddenError('This repository was archived so it is read-only.');
  return repo;
}

const MAX_EVENT_COMMITS = 20;

/** Picks the default branch for a repository whose first push just arrived. */
function firstDefault(current: string, heads: string[]): string | null {
  if (heads.length === 0 || heads.includes(current)) return null;
  return ['main', 'master'].find((b) => heads.includes(b)) ?? [...heads].sort()[0]!;
}

export interface PushRecordOptions {
  /**
   * Journal rows (git-http.journal) this push closes: deleted in the transaction that
   * records it. When another process has closed them first, nothing is recorded.
   */
  journalIds?: readonly number[];
  /**
   * The refs this writer changed (an API write, a merge): only their changes are its to
   * record. Another writer's push landing between this one's before and after is that
   * writer's to record, and recording it here too sent its events twice.
   */
  only?: readonly string[];
}

const recordingRefs = new Map<number, Promise<unknown>>();

/** The first key of the PostgreSQL advisory locks on ref recording; the repository id is the second. */
const REF_RECORDING_LOCKS = 0x57686172; // "Whar"

/**
 * Runs `fn` alone among the ref recordings of the repository: an API ref change (its
 * before, the change, its record) and a push's record never interleave, so neither
 * takes the other's change for its own (see journal.advanceEntries). In this process a
 * queue per repository; on PostgreSQL also a session advisory lock, so that other
 * processes on the database wait too. `fn` gets the context to use: on PostgreSQL its
 * database is the one connection holding the lock (so a waiter holds one connection,
 * and `fn` never needs a second one from the pool while holding the lock).
 */
export async function withRefRecordingLock<T>(ctx: AppContext, repoId: number, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const locked = ctx.dialect === 'postgres' && !ctx.db.isTransaction
    ? () => ctx.db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${REF_RECORDING_LOCKS}, ${repoId})`.execute(conn);
      try {
        return await fn({ ...ctx, db: conn });
      } finally {
        await sql`SELECT pg_advisory_unlock(${REF_RECORDING_LOCKS}, ${repoId})`.execute(conn);
      }
    })
    : () => fn(ctx);
  const previous = recordingRefs.get(repoId) ?? Promise.resolve();
  const run = previous.then(locked, locked);
  const tail = run.then(() => undefined, () => undefined);
  recordingRefs.set(repoId, tail);
  try {
    return await run;
  } finally {
    if (recordingRefs.get(repoId) === tail) recordingRefs.delete(repoId);
  }
}

/** Thrown inside the recording transaction to roll it back: the push was recorded elsewhere. */
class RecordedElsewhere extends Error {}

/**
 * Records what a push changed, comparing the refs before and after it. Answers false
 * when the journal rows it was to close were already closed (and it recorded nothing).
 */
export async function afterPush(
  ctx: AppContext, actor: Actor, repo: Repo, before: git.RefEntry[], after: git.RefEntry[], options: PushRecordOptions = {},
): Promise<boolean> {
  try {
    await recordRefChanges(ctx, actor, repo, before, after, options.journalIds ?? [], options.only ? new Set(options.only) : null);
    return true;
  } catch (err) {
    if (err instanceof RecordedElsewhere) return false;
    throw err;
  }
}

async function recordRefChanges(
  ctx: AppContext, actor: Actor, repo: Repo, before: git.RefEntry[], after: git.RefEntry[], journalIds: readonly number[], only: ReadonlySet<string> | null,
): Promise<void> {
  const dir = repos.gitDir(ctx, repo);
  const old = new Map(before.map((r) => [r.ref, r.sha]));
  const now = new Map(after.map((r) => [r.ref, r.sha]));
  const refs = [...new Set([...old.keys(), ...now.keys()])].filter((ref) => old.get(ref) !== now.get(ref) && (!only || only.has(ref))).sort();
  // First in the transaction: a second process recording the same journaled push waits
  // here for the first one's commit, then finds the rows gone and records nothing.
  const closeJournal = async (tx: AppContext) => {
    if (journalIds.length && (await journal.closeEntries(tx, journalIds)) !== journalIds.length) throw new RecordedElsewhere();
  };
  if (refs.length === 0) {
    if (journalIds.length) await inTransaction(ctx, closeJournal);
    return;
  }
  const wasEmpty = !before.some((r) => r.ref.startsWith('refs/heads/'));
  const heads = after.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => r.ref.slice('refs/heads/'.length));
  const newDefault = wasEmpty ? firstDefault(repo.defaultBranch, heads) : null;
  if (newDefault) await git.setHead(dir, newDefault);
  const oldShas = [...new Set(before.map((r) => r.sha))];
  const html = ctx.urls.html(repo.owner.login, repo.name);
  const defaultTip = now.get(`refs/heads/${newDefault ?? repo.defaultBranch}`) ?? null;
  const [pushes, repoFacts] = await Promise.all([Promise.all(refs.map(async (ref) => {
    const beforeSha = old.get(ref) ?? git.ZERO_SHA;
    const afterSha = now.get(ref) ?? git.ZERO_SHA;
    const created = beforeSha === git.ZERO_SHA;
    const deleted = afterSha === git.ZERO_SHA;
    // Independent reads, run at once: each is a git process, and the pusher waits for them all.
    const [commits, otherDistinct, forced] = await Promise.all([
      deleted ? [] : git.commitsBetween(dir, afterSha, created ? oldShas : [beforeSha], MAX_EVENT_COMMITS),
      // Distinct: new to the repository, not only to this ref.
      created || deleted ? null : git.commitsBetween(dir, afterSha, oldShas, MAX_EVENT_COMMITS),
      created || deleted ? false : git.isAncestor(dir, beforeSha, afterSha).then((ff) => !ff),
    ]);
    const distinct = otherDistinct ?? commits;
    const head = deleted ? null : commits[0] ?? (await git.commitsBetween(dir, afterSha, [], 1))[0] ?? null;
    const files = await git.changedPaths(dir, [...new Set([...commits, ...(head ? [head] : [])].map((c) => c.sha))]);
    const distinctShas = new Set(distinct.map((c) => c.sha));
    const view = (c: git.CommitSummary) => pushCommit(c, distinctShas.has(c.sha), files.get(c.sha), html);
    const short = (sha: string) => sha.slice(0, 12);
    return {
      ref, before: beforeSha, after: afterSha, created, deleted, forced, base_ref: null,
      compare: created ? `${html}/commit/${short(afterSha)}` : `${html}/compare/${short(beforeSha)}...${short(afterSha)}`,
      commits: [...commits].reverse().map(view),
      head_commit: head ? view(head) : null,
    };
  })), repos.pushFacts(ctx, repo, defaultTip)]);
  const pusher = (await users.accountsByIds(ctx, [actor.user!.id])).get(actor.user!.id)!;
  const types = new Map(after.map((r) => [r.ref, r.type]));
  const changes = pushes.map((p) => ({ ref: p.ref, before: p.before, after: p.after, type: types.get(p.ref) ?? '' }));
  await inTransaction(ctx, async (tx) => {
    await closeJournal(tx);
    await journal.advanceEntries(tx, repo.id, changes, journalIds);
    await repos.recordPush(tx, repo, repoFacts, newDefault);
    for (const p of pushes) {
      const refType = p.ref.startsWith('refs/tags/') ? 'tag' : 'branch';
      const shortRef = p.ref.replace(/^refs\/(heads|tags)\//, '');
      await recordEvent(tx, {
        event: 'push', repositoryId: repo.id, actorId: pusher.id,
        organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null,
        payload: { ...p, pusher: { name: pusher.login, email: pusher.email ?? noreplyEmail(ctx, pusher) } },
      });
      if (p.created) {
        await recordEvent(tx, {
          event: 'create', repositoryId: repo.id, actorId: pusher.id,
          payload: { ref: shortRef, ref_type: refType, master_branch: newDefault ?? repo.defaultBranch, description: repo.description, pusher_type: 'user' },
        });
      }
      if (p.deleted) await recordEvent(tx, { event: 'delete', repositoryId: repo.id, actorId: pusher.id, payload: { ref: shortRef, ref_type: refType, pusher_type: 'user' } });
    }
  });
}

/** A commit as push payloads list it. */
function pushCommit(c: git.CommitSummary, distinct: boolean, files: git.ChangedPaths | undefined, html: string) {
  return {
    id: c.sha,
    tree_id: c.tree,
    distinct,
    message: c.message,
    timestamp: c.author.date,
    url: `${html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email },
    committer: { name: c.committer.name, email: c.committer.email },
    added: files?.added ?? [],
    removed: files?.removed ?? [],
    modified: files?.modified ?? [],
  };
}
