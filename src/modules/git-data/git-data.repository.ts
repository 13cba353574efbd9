// What every git-backed endpoint shares: the repository as the caller may use it,
// upstream's "empty repository" answer, commits read with their verification, and
// ref changes recorded as pushes.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, ForbiddenError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { identProblem, parseCommit, parseIsoDate, type Ident, type ParsedCommit } from '../../git/object-format.ts';
import { hasRefs, readObjects } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { MAX_REF_BYTES } from '../../git/ref-format.ts';
import { afterPush, withRefRecordingLock } from '../git-http/git-http.service.ts';
import type { Access } from '../repos/repos.access.ts';
import type { Repo, Role } from '../repos/repos.model.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { verifyCommit, type Verification } from '../verification/verification.service.ts';

export interface GitRepo {
  repo: Repo;
  access: Access;
  dir: string;
}

/** The repository with `role` required; writes to an archived repository are refused. */
export async function openRepo(ctx: AppContext, actor: Actor, owner: string, name: string, role: Role = 'pull'): Promise<GitRepo> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name, role);
  if (role !== 'pull' && repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return { repo, access, dir: repos.gitDir(ctx, repo) };
}

/** Upstream's answer to reading history from a repository without any ref. */
export function emptyRepositoryError(): ConflictError {
  return new ConflictError('Git Repository is empty.');
}

export async function requireNotEmpty(r: GitRepo): Promise<void> {
  if (!(await hasRefs(r.dir))) throw emptyRepositoryError();
}

export interface CommitData {
  sha: string;
  parsed: ParsedCommit;
  verification: Verification;
}

/** Commits by sha (full shas, known to exist as commits), each with its verification. */
export async function loadCommits(ctx: AppContext, dir: string, shas: readonly string[]): Promise<Map<string, CommitData>> {
  const objects = await readObjects(dir, shas);
  const out = new Map<string, CommitData>();
  await Promise.all(shas.map(async (sha) => {
    const obj = objects.get(sha);
    if (!obj || obj.type !== 'commit') return;
    out.set(sha, { sha: obj.sha, parsed: parseCommit(obj.content), verification: await verifyCommit(ctx, obj.content) });
  }));
  return out;
}

/**
 * Runs a change of `refs` and records it as a push (events, pushed_at, first default
 * branch): the difference of those refs before and after, and nothing else, so that a
 * push landing meanwhile is recorded once, by its own settle. The change and its record
 * hold the repository's ref recording lock, which a push's settle takes too.
 */
export async function changingRefs<T>(ctx: AppContext, actor: Actor, r: GitRepo, refs: readonly string[], change: () => Promise<T>): Promise<T> {
  return withRefRecordingLock(ctx, r.repo.id, async (locked) => {
    const before = await git.listRefs(r.dir);
    const result = await change();
    await afterPush(locked, actor, r.repo, before, await git.listRefs(r.dir), { only: refs });
    return result;
  });
}

/**
 * Whether `name` may be handed to rev-parse as a revision: a ref name or a sha
 * (abbreviated or not), never revision syntax such as "main~2" or ":/text".
 */
export function isPlainRevision(name: string): boolean {
  if (/^[0-9a-f]{4,40}$/i.test(name)) return true;
  if (name.length > MAX_REF_BYTES) return false;
  return name !== '' && !name.startsWith('-') && !/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{/.test(name);
}

// ---------------------------------------------------------------- identities

export interface PersonInput {
  name?: string;
  email?: string;
  date?: string;
}

/** The authenticated user as the author or committer of what Wharf writes for them. */
export async function actorIdent(ctx: AppContext, actor: Actor): Promise<Ident> {
  const account = await users.getOwnAccount(ctx, actor);
  return {
    name: account.name ?? account.login,
    email: account.email ?? noreplyEmail(ctx, account),
    epoch: Math.floor(ctx.clock.now().getTime() / 1000),
    tz: '+0000',
  };
}

/**
 * An identity given in a request body ({name, email, date}), checked: name and e-mail
 * are required, neither may hold what git cannot store, the date is ISO 8601 (now
 * when omitted).
 */
export function identOf(ctx: AppContext, resource: string, field: string, input: PersonInput): Ident {
  const errors: FieldError[] = [];
  for (const key of ['name', 'email'] as const) {
    const value = input[key];
    if (value === undefined) errors.push({ resource, field: `${field}.${key}`, code: 'missing_field' });
    else {
      const problem = identProblem(value);
      if (problem) errors.push({ resource, field: `${field}.${key}`, code: 'invalid', message: `${field}.${key} ${problem}` });
    }
  }
  let when = { epoch: Math.floor(ctx.clock.now().getTime() / 1000), tz: '+0000' };
  if (input.date !== undefined) {
    const parsed = parseIsoDate(input.date);
    if (parsed) when = parsed;
    else errors.push({ resource, field: `${field}.date`, code: 'invalid', message: `${field}.date is not an ISO 8601 timestamp: ${input.date}` });
  }
  if (errors.length) throw new ValidationError(errors, errors[0]!.message ?? 'Validation Failed');
  return { name: input.name!, email: input.email!, ...when };
}
