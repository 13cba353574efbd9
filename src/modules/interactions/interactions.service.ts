// Interaction limits: temporary restrictions on who may comment, open issues or open
// pull requests in public repositories, set on an organization (all its repositories),
// a user (all their repositories) or one repository; and canInteract, the one answer
// to "may this user interact with this repository now" for the areas that create
// comments, issues and pull requests.
//
// A limit set on the owning account wins over the repository's own: setting it clears
// the repositories' limits (upstream overwrites them), and while it lasts a
// repository's limit cannot be changed (409). Expiry is by time alone: a limit whose
// expires_at has passed is absent for every read; expired rows are pruned on writes.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, userActor, type Actor } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { ConflictError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { logShas } from '../../git/history.ts';
import * as git from '../../git/repository.ts';
import { hasAuthoredIssueOrPullRequest } from '../issues/issues.contributions.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import {
  EXPIRIES, LIMITS, type InteractionExpiry, type InteractionGroup, type InteractionLimit, type LimitScope,
} from './interactions.model.ts';
import * as store from './interactions.store.ts';

/** Scopes each kind of operation accepts (a parent scope grants its children). */
export const SCOPES = {
  /** Organization limits are organization administration. */
  organization: ['admin:org'],
  /**
   * The caller's own limits cover their public repositories and are an account
   * setting: a token that may administer public repositories, or the user's profile.
   */
  user: ['user', 'public_repo', 'repo'],
} as const satisfies Record<string, readonly string[]>;

const RESOURCE = 'InteractionLimit';

/** Accounts this young are "new" for existing_users (upstream: under 24 hours old). */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

export interface LimitInput {
  limit?: unknown;
  expiry?: unknown;
}

// ---------------------------------------------------------------- rules

function validate(input: LimitInput): { limit: InteractionGroup; expiry: InteractionExpiry } {
  const errors: FieldError[] = [];
  const { limit, expiry = 'one_day' } = input;
  if (limit === undefined || limit === null) errors.push({ resource: RESOURCE, field: 'limit', code: 'missing_field' });
  else if (!LIMITS.includes(limit as InteractionGroup)) {
    errors.push({ resource: RESOURCE, field: 'limit', code: 'invalid', value: limit, message: `limit must be one of: ${LIMITS.join(', ')}` });
  }
  if (!EXPIRIES.includes(expiry as InteractionExpiry)) {
    errors.push({ resource: RESOURCE, field: 'expiry', code: 'invalid', value: expiry, message: `expiry must be one of: ${EXPIRIES.join(', ')}` });
  }
  if (errors.length) throw new ValidationError(errors);
  return { limit: limit as InteractionGroup, expiry: expiry as InteractionExpiry };
}

/** Calendar months in UTC, kept within the target month (Jan 31 + 1 month = Feb 28/29). */
function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** When a limit set now with `expiry` ends. */
export function expiresAt(now: Date, expiry: InteractionExpiry): string {
  const day = 24 * 60 * 60 * 1000;
  switch (expiry) {
    case 'one_day': return isoSeconds(new Date(now.getTime() + day));
    case 'three_days': return isoSeconds(new Date(now.getTime() + 3 * day));
    case 'one_week': return isoSeconds(new Date(now.getTime() + 7 * day));
    case 'one_month': return isoSeconds(addMonths(now, 1));
    case 'six_months': return isoSeconds(addMonths(now, 6));
  }
}

function ownerTarget(repo: Repo): store.Target {
  return { scope: repo.owner.type === 'Organization' ? 'organization' : 'user', targetId: repo.ownerId };
}

/** The active limit of the repository's owning account, if any. */
async function ownerLimit(ctx: AppContext, repo: Repo): Promise<InteractionLimit | null> {
  const [found] = await store.findActive(ctx.db, [ownerTarget(repo)], nowIso(ctx.clock));
  return found ?? null;
}

/**
 * The limit in force on a repository now: its owner's (organization or user) when
 * there is one, otherwise its own; null when none. Origin is the limit's scope.
 */
export async function applicableLimit(ctx: AppContext, repo: Repo): Promise<InteractionLimit | null> {
  const found = await store.findActive(ctx.db, [ownerTarget(repo), { scope: 'repository', targetId: repo.id }], nowIso(ctx.clock));
  return found.find((l) => l.scope !== 'repository') ?? found[0] ?? null;
}

async function setLimit(ctx: AppContext, target: store.Target, input: LimitInput, clearRepositoriesOf?: number): Promise<InteractionLimit> {
  const { limit, expiry } = validate(input);
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await store.pruneExpired(tx.db, isoSeconds(now));
    // Upstream: an account-level limit overwrites the limits of the account's repositories.
    if (clearRepositoriesOf !== undefined) {
      await store.removeRepositoryLimits(tx.db, await repos.repositoryIdsOwnedBy(tx, clearRepositoriesOf));
    }
    return store.upsert(tx.db, target, limit, expiresAt(now, expiry), isoSeconds(now));
  });
}

// ---------------------------------------------------------------- organizations

async function requireOwnedOrganization(ctx: AppContext, actor: Actor, login: string): Promise<number> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.organization);
  const org = await orgs.requireOrganization(ctx, login);
  await orgs.requireOrgOwner(ctx, actor, org);
  return org.account.id;
}

export async function getOrganizationLimit(ctx: AppContext, actor: Actor, login: string): Promise<InteractionLimit | null> {
  const orgId = await requireOwnedOrganization(ctx, actor, login);
  const [found] = await store.findActive(ctx.db, [{ scope: 'organization', targetId: orgId }], nowIso(ctx.clock));
  return found ?? null;
}

export async function setOrganizationLimit(ctx: AppContext, actor: Actor, login: string, input: LimitInput): Promise<InteractionLimit> {
  const orgId = await requireOwnedOrganization(ctx, actor, login);
  return setLimit(ctx, { scope: 'organization', targetId: orgId }, input, orgId);
}

export async function removeOrganizationLimit(ctx: AppContext, actor: Actor, login: string): Promise<void> {
  const orgId = await requireOwnedOrganization(ctx, actor, login);
  await store.remove(ctx.db, { scope: 'organization', targetId: orgId });
}

// ---------------------------------------------------------------- repositories

/** Readers of the repository see the limit in force, whatever set it. */
export async function getRepositoryLimit(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<InteractionLimit | null> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  return applicableLimit(ctx, repo);
}

function ownerLimitConflict(repo: Repo, l: InteractionLimit): ConflictError {
  const who = l.scope === 'organization' ? 'organization' : 'user';
  return new ConflictError(
    `Interaction limits are set for the ${who} that owns this repository (${repo.owner.login}); change them for the ${who} instead.`,
  );
}

export async function setRepositoryLimit(ctx: AppContext, actor: Actor, owner: string, name: string, input: LimitInput): Promise<InteractionLimit> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  validate(input);
  return inTransaction(ctx, async (tx) => {
    const blocking = await ownerLimit(tx, repo);
    if (blocking) throw ownerLimitConflict(repo, blocking);
    return setLimit(tx, { scope: 'repository', targetId: repo.id }, input);
  });
}

export async function removeRepositoryLimit(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<void> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  await inTransaction(ctx, async (tx) => {
    const blocking = await ownerLimit(tx, repo);
    if (blocking) throw ownerLimitConflict(repo, blocking);
    await store.remove(tx.db, { scope: 'repository', targetId: repo.id });
  });
}

// ---------------------------------------------------------------- the authenticated user

export async function getUserLimit(ctx: AppContext, actor: Actor): Promise<InteractionLimit | null> {
  const user = requireUser(actor);
  const [found] = await store.findActive(ctx.db, [{ scope: 'user', targetId: user.id }], nowIso(ctx.clock));
  return found ?? null;
}

export async function setUserLimit(ctx: AppContext, actor: Actor, input: LimitInput): Promise<InteractionLimit> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES.user);
  return setLimit(ctx, { scope: 'user', targetId: user.id }, input, user.id);
}

export async function removeUserLimit(ctx: AppContext, actor: Actor): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES.user);
  await store.remove(ctx.db, { scope: 'user', targetId: user.id });
}

// ---------------------------------------------------------------- enforcement

export interface InteractionDecision {
  allowed: boolean;
  /** The limit in force, when one is (whether or not it restricts this user). */
  limit?: InteractionGroup;
  origin?: LimitScope;
}

/**
 * Whether the user may interact (comment, open issues or pull requests) with the
 * repository now. Limits affect public repositories only.
 * - collaborators_only: only collaborators.
 * - contributors_only: collaborators and contributors.
 * - existing_users: collaborators, contributors, and accounts at least 24 hours old.
 */
export async function canInteract(ctx: AppContext, userId: number, repo: Repo): Promise<InteractionDecision> {
  if (repo.visibility !== 'public') return { allowed: true };
  const active = await applicableLimit(ctx, repo);
  if (!active) return { allowed: true };
  const decide = (allowed: boolean): InteractionDecision => ({ allowed, limit: active.limit, origin: active.scope });
  const account = (await users.accountsByIds(ctx, [userId])).get(userId);
  if (!account || account.type !== 'User') return decide(false);
  if (await isCollaborator(ctx, account, repo)) return decide(true);
  if (active.limit === 'collaborators_only') return decide(false);
  if (active.limit === 'existing_users' && !isNewAccount(ctx, account)) return decide(true);
  return decide(await hasContributed(ctx, account, repo));
}

/**
 * A collaborator holds a role on the repository that being public does not give:
 * owner, site admin, organization owner, organization member through the base role
 * or a team, or an invited collaborator (at any level). The repository is looked at
 * as if private, so that the pull access everyone has does not count.
 */
async function isCollaborator(ctx: AppContext, account: Account, repo: Repo): Promise<boolean> {
  const actor = userActor({ id: account.id, login: account.login, siteAdmin: account.siteAdmin }, 'token', 0, [], '');
  const access = await repos.accessTo(ctx, actor, { ...repo, visibility: 'private' });
  return access.role !== null;
}

function isNewAccount(ctx: AppContext, account: Account): boolean {
  return ctx.clock.now().getTime() - Date.parse(account.createdAt) < NEW_ACCOUNT_MS;
}

/**
 * Upstream counts prior issues, pull requests and commits: a contributor authored an
 * issue or a pull request in the repository, or at least one commit on the default
 * branch: one whose author address is the user's primary address, one of their
 * verified addresses (as commits are attributed to accounts), or the no-reply address
 * Wharf writes their API commits with.
 */
async function hasContributed(ctx: AppContext, account: Account, repo: Repo): Promise<boolean> {
  if (await hasAuthoredIssueOrPullRequest(ctx, repo.id, account.id)) return true;
  const emails = (await users.listEmailAddresses(ctx, account.id)).filter((e) => e.primary || e.verified).map((e) => e.email);
  emails.push(noreplyEmail(ctx, account));
  const dir = repos.gitDir(ctx, repo);
  const head = await git.resolve(dir, `refs/heads/${repo.defaultBranch}^{commit}`);
  if (!head) return false;
  return (await logShas(dir, head, { authorEmails: emails }, 0, 1)).length > 0;
}
