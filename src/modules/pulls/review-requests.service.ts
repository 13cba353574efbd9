// Requested reviewers: users and teams asked to review a pull request. Upstream's rules:
// those with triage access (or more) request and withdraw; a user must be a collaborator
// of the repository (any role beyond what being public gives) and a team must have
// access to it; the author cannot be asked. Each change is a `pull_request` event
// (review_requested / review_request_removed) naming the reviewer.
import { inTransaction, type AppContext } from '../../context.ts';
import { actingAppId, requireUser, userActor, type Actor } from '../../domain/actor.ts';
import { recordIssueEvent } from '../issues/issue-events.service.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, ValidationError } from '../../domain/errors.ts';
import { simpleUser } from '../users/users.views.ts';
import { team as teamView } from '../orgs/orgs.views.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { recordPullEvent } from './pulls.events.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';
import * as store from './pulls.store.ts';
import type { RequestedTeam } from './pulls.views.ts';
import type { ReviewRequestRecord } from './pulls.model.ts';

export interface ReviewerInput {
  reviewers?: string[];
  teamReviewers?: string[];
}

function notCollaborators(repo: Repo): ValidationError {
  const message = `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner.login}/${repo.name} repository.`;
  return new ValidationError([{ resource: 'PullRequest', field: 'reviewers', code: 'custom', message }], message);
}

/** Whether the account holds a role on the repository that being public does not give. */
async function isCollaborator(ctx: AppContext, account: Account, repo: Repo): Promise<boolean> {
  const actor = userActor({ id: account.id, login: account.login, siteAdmin: account.siteAdmin }, 'token', 0, [], '');
  return (await repos.accessTo(ctx, actor, { ...repo, visibility: 'private' })).role !== null;
}

async function resolveUsers(ctx: AppContext, logins: readonly string[]): Promise<(Account | null)[]> {
  const unique = [...new Map(logins.map((l) => [l.toLowerCase(), l])).values()];
  return Promise.all(unique.map((l) => users.findAccount(ctx, l)));
}

async function resolveTeams(ctx: AppContext, repo: Repo, slugs: readonly string[]): Promise<RequestedTeam[] | null> {
  if (!slugs.length) return [];
  if (repo.owner.type !== 'Organization') return null;
  const teams = await orgs.teamsBySlugs(ctx, repo.ownerId, slugs);
  if (teams.length !== new Set(slugs.map((s) => s.toLowerCase())).size) return null;
  const granted = await orgAccess.teamPermissionsOn(ctx, repo.id, teams.map((t) => t.id));
  if (teams.some((t) => !granted.has(t.id))) return null;
  return orgs.teamsWithOrgLogins(ctx, teams.map((t) => t.id));
}

/** The issue timeline's record of a request made or withdrawn: who asked for it (not who withdrew it), and the user or team asked. */
async function recordRequestEvent(
  tx: AppContext, actor: Actor, l: LocatedPull, event: 'review_requested' | 'review_request_removed', r: ReviewRequestRecord,
): Promise<void> {
  await recordIssueEvent(tx, {
    repositoryId: l.repo.id, issueId: l.issue.id, actorId: actor.user?.id ?? null, event, performedViaAppId: actingAppId(actor),
    detail: {
      ...(r.requestedById === null ? {} : { reviewRequesterId: r.requestedById }),
      ...(r.userId === null ? {} : { requestedReviewerId: r.userId }),
      ...(r.teamId === null ? {} : { requestedTeamId: r.teamId }),
    },
  });
}

/** Those with triage access (or more) request reviews and withdraw requests. */
export function canRequestReviews(role: Role | null): boolean {
  return roleAtLeast(role, 'triage');
}

async function requireRequester(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<LocatedPull> {
  requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  if (!canRequestReviews(l.role)) throw new ForbiddenError('Must have triage access to request reviews.');
  return l;
}

export async function requestReviewers(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: ReviewerInput,
): Promise<LocatedPull> {
  const user = requireUser(actor);
  const l = await requireRequester(ctx, actor, owner, name, number);
  const accounts = await resolveUsers(ctx, input.reviewers ?? []);
  if (accounts.some((a) => a !== null && a.id === l.issue.userId)) {
    throw new ValidationError([{ resource: 'PullRequest', field: 'reviewers', code: 'custom', message: 'Review cannot be requested from pull request author.' }], 'Review cannot be requested from pull request author.');
  }
  if (accounts.some((a) => a === null || a.type !== 'User')) throw notCollaborators(l.repo);
  for (const a of accounts) if (!(await isCollaborator(ctx, a!, l.repo))) throw notCollaborators(l.repo);
  const teams = await resolveTeams(ctx, l.repo, input.teamReviewers ?? []);
  if (teams === null) throw notCollaborators(l.repo);

  const changed = await inTransaction(ctx, async (tx) => {
    const added = await store.addRequests(tx.db, l.pull.id, accounts.map((a) => a!.id), teams.map((t) => t.team.id), user.id, nowIso(tx.clock));
    if (!added.length) return null;
    const current = await reload(tx, l);
    for (const r of added) {
      const account = accounts.find((a) => a!.id === r.userId);
      const team = teams.find((t) => t.team.id === r.teamId);
      const extra = account ? { requested_reviewer: simpleUser(account, tx.urls) } : { requested_team: teamView(team!.team, team!.parent, team!.orgLogin, tx.urls) };
      await recordPullEvent(tx, actor, current.repo, current.pull, current.issue, 'review_requested', extra);
      await recordRequestEvent(tx, actor, current, 'review_requested', r);
    }
    return current;
  });
  return changed ?? l;
}

export async function removeRequestedReviewers(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: ReviewerInput,
): Promise<LocatedPull> {
  const l = await requireRequester(ctx, actor, owner, name, number);
  const accounts = (await resolveUsers(ctx, input.reviewers ?? [])).filter((a): a is Account => a !== null);
  const slugs = l.repo.owner.type === 'Organization' ? await orgs.teamsBySlugs(ctx, l.repo.ownerId, input.teamReviewers ?? []) : [];
  const teams = await orgs.teamsWithOrgLogins(ctx, slugs.map((t) => t.id));
  const changed = await inTransaction(ctx, async (tx) => {
    const removed = await store.removeRequests(tx.db, l.pull.id, accounts.map((a) => a.id), teams.map((t) => t.team.id));
    if (!removed.length) return null;
    const current = await reload(tx, l);
    for (const r of removed) {
      const account = accounts.find((a) => a.id === r.userId);
      const team = teams.find((t) => t.team.id === r.teamId);
      const extra = account ? { requested_reviewer: simpleUser(account, tx.urls) } : { requested_team: teamView(team!.team, team!.parent, team!.orgLogin, tx.urls) };
      await recordPullEvent(tx, actor, current.repo, current.pull, current.issue, 'review_request_removed', extra);
      await recordRequestEvent(tx, actor, current, 'review_request_removed', r);
    }
    return current;
  });
  return changed ?? l;
}

export interface RequestedReviewers {
  users: Account[];
  teams: RequestedTeam[];
}

export async function listRequestedReviewers(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<RequestedReviewers> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const requests = await store.listRequests(ctx.db, [l.pull.id]);
  const [accounts, teams] = await Promise.all([
    users.accountsByIds(ctx, requests.flatMap((r) => (r.userId === null ? [] : [r.userId]))),
    orgs.teamsWithOrgLogins(ctx, requests.flatMap((r) => (r.teamId === null ? [] : [r.teamId]))),
  ]);
  return {
    users: requests.flatMap((r) => { const a = r.userId === null ? undefined : accounts.get(r.userId); return a ? [a] : []; }),
    teams: requests.flatMap((r) => { const t = teams.find((x) => x.team.id === r.teamId); return t ? [t] : []; }),
  };
}

// ---------------------------------------------------------------- lookups for GraphQL (no repository check: the caller checks it)

/** The review requests of pull requests, in order. */
export function reviewRequestsOf(ctx: AppContext, pullIds: readonly number[]): Promise<ReviewRequestRecord[]> {
  return store.listRequests(ctx.db, pullIds);
}

/** Review requests by id (node ids). */
export function reviewRequestsByIds(ctx: AppContext, ids: readonly number[]): Promise<ReviewRequestRecord[]> {
  return store.findRequestsByIds(ctx.db, ids);
}
