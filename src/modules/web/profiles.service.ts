// The profile pages' data beyond the repositories (web.service.ts): an organization's
// members and teams, one team, and a user's stars, read through the orgs and stars
// services the API uses with the viewer as actor. Members are the API's members list
// (concealed ones only for members); teams are listed to members only and each team
// only where the API shows it; a refusal of the API is a page that is not there.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { AuthenticationRequiredError, ForbiddenError, MissingScopeError, NotFoundError } from '../../domain/errors.ts';
import type { Page } from '../../domain/page.ts';
import { listMembers } from '../orgs/memberships.service.ts';
import { requireOrganization } from '../orgs/organizations.service.ts';
import * as teams from '../orgs/teams.service.ts';
import type { TeamDetails, TeamEntry } from '../orgs/teams.service.ts';
import { listStarredByUser, type StarredRepo } from '../repos/repos.stars.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { PER_PAGE } from './web.service.ts';

/** The API's refusals to someone who may not see a team or a team list. */
function refused(err: unknown): boolean {
  return err instanceof AuthenticationRequiredError || err instanceof ForbiddenError || err instanceof MissingScopeError || err instanceof NotFoundError;
}

/** Anyone but a member is refused the teams (the API answers 401 or 403): the page shows none. */
async function visibleTeams(ctx: AppContext, actor: Actor, org: string, page: number, perPage: number): Promise<Page<TeamEntry> | null> {
  if (!actor.user) return null;
  return teams.listTeams(ctx, actor, org, { perPage, offset: (page - 1) * perPage }).catch((err: unknown) => {
    if (refused(err)) return null;
    throw err;
  });
}

export interface OrgPeople {
  org: Account;
  members: Page<Account>;
  /** Null for those the API does not list the teams to. */
  teams: Page<TeamEntry> | null;
}

/** Members shown beside an organization's repositories; its people page lists them all. */
export const ASIDE_MEMBERS = 12;

/** The first members and teams, for the organization's profile. */
export async function orgAside(ctx: AppContext, actor: Actor, org: Account): Promise<OrgPeople> {
  const [members, shown] = await Promise.all([
    listMembers(ctx, actor, org.login, {}, { perPage: ASIDE_MEMBERS, offset: 0 }),
    visibleTeams(ctx, actor, org.login, 1, PER_PAGE),
  ]);
  return { org, members, teams: shown };
}

export interface PeopleView {
  org: Account;
  members: Page<Account>;
  page: number;
  /** Whether the viewer may see the teams (the Teams tab is shown). */
  seesTeams: boolean;
}

/** One page of an organization's members, as GET /orgs/{org}/members pages them for the viewer. */
export async function peopleOf(ctx: AppContext, actor: Actor, login: string, page: number): Promise<PeopleView> {
  const org = (await requireOrganization(ctx, login)).account;
  const [members, shown] = await Promise.all([
    listMembers(ctx, actor, org.login, {}, { perPage: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    visibleTeams(ctx, actor, org.login, 1, 1),
  ]);
  return { org, members, page, seesTeams: shown !== null };
}

export interface TeamsView {
  org: Account;
  teams: Page<TeamEntry>;
  page: number;
}

/** One page of the teams the viewer may see, as GET /orgs/{org}/teams pages them; 404 for those it refuses. */
export async function teamsOf(ctx: AppContext, actor: Actor, login: string, page: number): Promise<TeamsView> {
  const org = (await requireOrganization(ctx, login)).account;
  const shown = await visibleTeams(ctx, actor, org.login, page, PER_PAGE);
  if (!shown) throw new NotFoundError();
  return { org, teams: shown, page };
}

export interface TeamView {
  team: TeamDetails;
  members: Page<teams.TeamMemberEntry>;
  page: number;
}

/** A team at its html_url, with its members (inherited from child teams too), as GET …/teams/{slug}/members lists them. */
export async function teamAt(ctx: AppContext, actor: Actor, org: string, slug: string, page: number): Promise<TeamView> {
  const ref = { org, teamSlug: slug };
  try {
    const [team, members] = await Promise.all([
      teams.getTeam(ctx, actor, ref),
      teams.listTeamMembers(ctx, actor, ref, 'all', { perPage: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    ]);
    return { team, members, page };
  } catch (err) {
    if (refused(err)) throw new NotFoundError();
    throw err;
  }
}

export interface StarsView {
  account: Account;
  repos: StarredRepo[];
  total: number;
  page: number;
}

/** The repositories a user starred that the viewer may see, most recently starred first (GET /users/{u}/starred). */
export async function starsOf(ctx: AppContext, actor: Actor, login: string, page: number): Promise<StarsView> {
  const account = await users.requireAccount(ctx, login);
  const list = await listStarredByUser(ctx, actor, account.login, { sort: 'created', direction: 'desc', limit: PER_PAGE, offset: (page - 1) * PER_PAGE });
  return { account, repos: list.items, total: list.total, page };
}
