// Teams: hierarchy, settings, team memberships, and who may see or change them.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import type { Account, AccountCounts } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type {
  Membership, Organization, Team, TeamMember,
  TeamNotificationSetting, TeamPermission, TeamPrivacy, TeamRole,
} from './orgs.model.ts';
import * as store from './orgs.store.ts';
import { countGrantsOfTeams } from './orgs.access.store.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireOrganization, requireOrganizationById, organizationsByIds } from './organizations.service.ts';
import { SCOPES, viewerOf, type Viewer } from './orgs.permissions.ts';
import { requireMemberCandidate, requireUserAccount } from './memberships.service.ts';

// Teams

/** A team addressed by organization login and slug, or by the ids upstream also accepts. */
export type TeamRef = { org: string; teamSlug: string } | { orgId: number; teamId: number };

export interface TeamAccess {
  org: Organization;
  team: Team;
  viewer: Viewer;
  /** The caller's own membership of the team, if any. */
  own: TeamMember | null;
}

/**
 * Slug of a team name, as upstream makes it: accents dropped, lower case, every run
 * of other characters a single hyphen ("My TEam Näme" → "my-team-name").
 */
export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

async function resolveTeam(ctx: AppContext, ref: TeamRef): Promise<{ org: Organization; team: Team }> {
  if ('teamSlug' in ref) {
    const org = await requireOrganization(ctx, ref.org);
    const team = await store.findTeamBySlug(ctx.db, org.account.id, ref.teamSlug);
    if (!team) throw new NotFoundError();
    return { org, team };
  }
  const org = await requireOrganizationById(ctx, ref.orgId);
  const team = await store.findTeamById(ctx.db, ref.teamId);
  if (!team || team.orgId !== org.account.id) throw new NotFoundError();
  return { org, team };
}

/** The team, if the caller may see it: owners see every team, members closed ones and secret ones they are in. */
async function requireVisibleTeam(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<TeamAccess> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.read);
  const { org, team } = await resolveTeam(ctx, ref);
  const viewer = await viewerOf(ctx, actor, org);
  const own = viewer.userId === null ? null : await store.findTeamMember(ctx.db, team.id, viewer.userId);
  const visible = viewer.owner || (viewer.member && (team.privacy === 'closed' || own !== null));
  if (!visible) throw new NotFoundError();
  return { org, team, viewer, own };
}

/** The team as the caller may see it, with what the caller is to it (team repository routes). */
export function visibleTeam(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<TeamAccess> {
  return requireVisibleTeam(ctx, actor, ref);
}

/** Of the organization's teams `teamIds`, those the caller may see, with their parents. */
export async function visibleTeamsAmong(ctx: AppContext, actor: Actor, org: Organization, teamIds: readonly number[]): Promise<TeamEntry[]> {
  if (!teamIds.length) return [];
  const viewer = await viewerOf(ctx, actor, org);
  if (!viewer.member) return [];
  const teams = (await store.findTeamsByIds(ctx.db, teamIds)).filter((t) => t.orgId === org.account.id);
  const mine = viewer.owner || viewer.userId === null ? new Set<number>()
    : new Set((await store.listTeamMembers(ctx.db, teams.map((t) => t.id))).filter((m) => m.userId === viewer.userId).map((m) => m.teamId));
  const shown = teams.filter((t) => viewer.owner || t.privacy === 'closed' || mine.has(t.id)).sort((a, b) => a.id - b.id);
  return withParents(ctx, shown);
}

/** Owners and the team's maintainers manage a team. */
async function requireTeamAdmin(ctx: AppContext, actor: Actor, ref: TeamRef, doing: string): Promise<TeamAccess> {
  requireScope(actor, ...SCOPES.write);
  const access = await requireVisibleTeam(ctx, actor, ref);
  if (!access.viewer.owner && access.own?.role !== 'maintainer') {
    throw new ForbiddenError(`You must be an organization owner or team maintainer to ${doing}.`);
  }
  return access;
}

export interface TeamEntry {
  team: Team;
  parent: Team | null;
}

export interface TeamListing extends Page<TeamEntry> {
  org: Organization;
}

export interface TeamDetails extends TeamEntry {
  org: Organization;
  orgCounts: AccountCounts;
  membersCount: number;
  /** Repositories granted to the team. */
  reposCount: number;
}

async function withParents(ctx: AppContext, teams: Team[]): Promise<TeamEntry[]> {
  const parentIds = teams.flatMap((t) => (t.parentId === null ? [] : [t.parentId]));
  const parents = new Map((await store.findTeamsByIds(ctx.db, parentIds)).map((t) => [t.id, t]));
  return teams.map((team) => ({ team, parent: team.parentId === null ? null : parents.get(team.parentId) ?? null }));
}

/** Everything the full records of these teams show, loaded in bulk. */
async function teamDetails(ctx: AppContext, teams: Team[], knownOrgs: Organization[] = []): Promise<TeamDetails[]> {
  const known = new Map(knownOrgs.map((o) => [o.account.id, o]));
  const missing = [...new Set(teams.map((t) => t.orgId))].filter((id) => !known.has(id));
  const orgs = new Map([...known, ...await organizationsByIds(ctx, missing)]);
  const [entries, memberCounts, repoCounts, orgCounts] = await Promise.all([
    withParents(ctx, teams),
    store.countTeamMembers(ctx.db, teams.map((t) => t.id)),
    countGrantsOfTeams(ctx.db, teams.map((t) => t.id)),
    users.accountCountsOf(ctx, [...orgs.values()].map((o) => o.account)),
  ]);
  return entries.flatMap((e) => {
    const org = orgs.get(e.team.orgId);
    if (!org) return [];
    return [{
      ...e, org, orgCounts: orgCounts.get(org.account.id)!, membersCount: memberCounts.get(e.team.id) ?? 0, reposCount: repoCounts.get(e.team.id) ?? 0,
    }];
  });
}

async function teamDetail(ctx: AppContext, org: Organization, team: Team): Promise<TeamDetails> {
  return (await teamDetails(ctx, [team], [org]))[0]!;
}

/** Ids of the team's descendants (children, their children …). */
function descendantsOf(teamId: number, all: Team[]): number[] {
  const children = new Map<number, number[]>();
  for (const t of all) {
    if (t.parentId !== null) children.set(t.parentId, [...(children.get(t.parentId) ?? []), t.id]);
  }
  const out: number[] = [];
  const queue = [...(children.get(teamId) ?? [])];
  while (queue.length) {
    const id = queue.shift()!;
    if (out.includes(id)) continue;
    out.push(id);
    queue.push(...(children.get(id) ?? []));
  }
  return out;
}

export interface NewTeam {
  name: string;
  description?: string | null;
  maintainers?: string[];
  repo_names?: string[];
  privacy?: TeamPrivacy;
  notification_setting?: TeamNotificationSetting;
  permission?: 'pull' | 'push';
  parent_team_id?: number | null;
  parent_team_slug?: string | null;
}

function teamError(field: string, code: FieldError['code'], message: string, value?: unknown): ValidationError {
  return new ValidationError([{ resource: 'Team', field, code, message, ...(value === undefined ? {} : { value }) }]);
}

/** The team's name and slug, checked: the slug must not be empty and both must be unique in the organization. */
async function checkName(ctx: AppContext, orgId: number, name: string, exceptId: number | null): Promise<{ name: string; slug: string }> {
  const trimmed = name.trim();
  requireMaxLength('Team', 'name', trimmed, TEXT_LIMITS.teamName);
  const slug = slugify(trimmed);
  if (!slug) throw teamError('name', 'invalid', 'Name must contain at least one letter or digit.', name);
  if (await store.findConflictingTeam(ctx.db, orgId, trimmed, slug, exceptId)) {
    throw teamError('name', 'already_exists', 'Name must be unique for this org', name);
  }
  return { name: trimmed, slug };
}

/** The parent named by id (which wins, as upstream) or slug; undefined when neither is given. */
async function parentFrom(ctx: AppContext, orgId: number, id: number | null | undefined, slug: string | null | undefined): Promise<Team | null | undefined> {
  if (id === undefined && slug === undefined) return undefined;
  if (id === null || (id === undefined && slug === null)) return null;
  const parent = id !== undefined ? await store.findTeamById(ctx.db, id) : await store.findTeamBySlug(ctx.db, orgId, slug!);
  if (!parent || parent.orgId !== orgId) {
    throw teamError(id !== undefined ? 'parent_team_id' : 'parent_team_slug', 'invalid', 'Parent team not found in this organization.', id ?? slug);
  }
  // Upstream: the privacy of a parent team cannot be secret.
  if (parent.privacy === 'secret') throw teamError('parent_team_id', 'invalid', 'A parent team must be closed, not secret.', parent.id);
  return parent;
}

export async function createTeam(ctx: AppContext, actor: Actor, orgLogin: string, input: NewTeam): Promise<TeamDetails> {
  const me = requireUser(actor);
  requireScope(actor, ...SCOPES.write);
  return inTransaction(ctx, async (tx) => {
    const org = await requireOrganization(tx, orgLogin);
    const viewer = await viewerOf(tx, actor, org);
    if (!viewer.member) throw new ForbiddenError('You must be a member of the organization to create a team.');
    const orgId = org.account.id;
    requireMaxLength('Team', 'description', input.description, TEXT_LIMITS.teamDescription);
    const { name, slug } = await checkName(tx, orgId, input.name, null);
    const parent = await parentFrom(tx, orgId, input.parent_team_id, input.parent_team_slug);
    // A nested team is visible to all members: closed by default, never secret.
    const privacy = input.privacy ?? (parent ? 'closed' : 'secret');
    if (parent && privacy === 'secret') throw teamError('privacy', 'invalid', 'A nested team must be closed, not secret.', privacy);
    const maintainers: Account[] = [];
    for (const login of new Set(input.maintainers ?? [])) {
      const account = await users.findAccount(tx, login);
      const m = account ? await store.findMembership(tx.db, orgId, account.id) : null;
      if (!account || m?.state !== 'active') {
        throw teamError('maintainers', 'invalid', `${login} is not a member of the organization.`, login);
      }
      maintainers.push(account);
    }
    // Repositories are not hosted yet, so no name can resolve; revisit when the repos area lands.
    for (const repo of input.repo_names ?? []) throw teamError('repo_names', 'missing', `Could not resolve repository ${repo}.`, repo);
    const now = nowIso(tx.clock);
    const team = await store.insertTeam(tx.db, {
      orgId, name, slug, description: input.description === '' ? null : input.description ?? null, privacy,
      permission: input.permission ?? 'pull', notificationSetting: input.notification_setting ?? 'notifications_enabled',
      parentId: parent?.id ?? null, now,
    });
    // Upstream: the creator becomes a maintainer without being listed (when they are in the organization).
    if (viewer.membership?.state === 'active') await store.upsertTeamMember(tx.db, team.id, me.id, 'maintainer', now);
    for (const m of maintainers) await store.upsertTeamMember(tx.db, team.id, m.id, 'maintainer', now);
    return teamDetail(tx, org, team);
  });
}

export async function getTeam(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<TeamDetails> {
  const { org, team } = await requireVisibleTeam(ctx, actor, ref);
  return teamDetail(ctx, org, team);
}

export interface TeamChanges {
  name?: string;
  description?: string | null;
  privacy?: TeamPrivacy;
  notification_setting?: TeamNotificationSetting;
  permission?: TeamPermission;
  parent_team_id?: number | null;
  parent_team_slug?: string | null;
}

export async function updateTeam(ctx: AppContext, actor: Actor, ref: TeamRef, c: TeamChanges): Promise<TeamDetails> {
  requireUser(actor);
  return inTransaction(ctx, async (tx) => {
    const { org, team } = await requireTeamAdmin(tx, actor, ref, 'edit a team');
    const orgId = org.account.id;
    const changes: store.TeamChanges = {};
    if (c.name !== undefined) Object.assign(changes, await checkName(tx, orgId, c.name, team.id));
    requireMaxLength('Team', 'description', c.description, TEXT_LIMITS.teamDescription);
    if (c.description !== undefined) changes.description = c.description === '' ? null : c.description;
    if (c.notification_setting !== undefined) changes.notificationSetting = c.notification_setting;
    if (c.permission !== undefined) changes.permission = c.permission;
    if (c.privacy !== undefined) changes.privacy = c.privacy;
    const parent = await parentFrom(tx, orgId, c.parent_team_id, c.parent_team_slug);
    const all = await store.listAllTeams(tx.db, orgId);
    const descendants = descendantsOf(team.id, all);
    if (parent) {
      if (parent.id === team.id || descendants.includes(parent.id)) {
        throw teamError('parent_team_id', 'invalid', 'A team cannot be nested under itself or one of its child teams.', parent.id);
      }
      changes.parentId = parent.id;
    } else if (parent === null) {
      changes.parentId = null;
    }
    const privacy = changes.privacy ?? team.privacy;
    const nested = (changes.parentId !== undefined ? changes.parentId : team.parentId) !== null || descendants.length > 0;
    if (nested && privacy === 'secret') throw teamError('privacy', 'invalid', 'A nested team must be closed, not secret.', privacy);
    const updated = await store.updateTeam(tx.db, team.id, changes, nowIso(tx.clock));
    return teamDetail(tx, org, updated);
  });
}

/** Owners delete the team's child teams with it; a maintainer's delete leaves the children at the top level. */
export async function deleteTeam(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<void> {
  requireUser(actor);
  await inTransaction(ctx, async (tx) => {
    const { org, team, viewer } = await requireTeamAdmin(tx, actor, ref, 'delete a team');
    const descendants = viewer.owner ? descendantsOf(team.id, await store.listAllTeams(tx.db, org.account.id)) : [];
    await store.deleteTeams(tx.db, [...descendants.reverse(), team.id]);
  });
}

export async function listTeams(ctx: AppContext, actor: Actor, orgLogin: string, slice: Slice): Promise<TeamListing> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.read);
  const org = await requireOrganization(ctx, orgLogin);
  const viewer = await viewerOf(ctx, actor, org);
  if (!viewer.member) throw new ForbiddenError('You must be a member of the organization to list its teams.');
  const viewerId = viewer.owner ? null : viewer.userId;
  const [teams, total] = await Promise.all([
    store.listVisibleTeams(ctx.db, org.account.id, viewerId, slice.perPage, slice.offset),
    store.countVisibleTeams(ctx.db, org.account.id, viewerId),
  ]);
  return { org, items: await withParents(ctx, teams), total };
}

export async function listChildTeams(ctx: AppContext, actor: Actor, ref: TeamRef, slice: Slice): Promise<TeamListing> {
  const { org, team } = await requireVisibleTeam(ctx, actor, ref);
  const [teams, total] = await Promise.all([
    store.listChildTeams(ctx.db, team.id, slice.perPage, slice.offset),
    store.countChildTeams(ctx.db, team.id),
  ]);
  return { org, items: teams.map((t) => ({ team: t, parent: team })), total };
}

export async function listTeamsForAuthenticatedUser(ctx: AppContext, actor: Actor, slice: Slice): Promise<Page<TeamDetails>> {
  const me = requireUser(actor);
  requireScope(actor, ...SCOPES.ownTeams);
  const [teams, total] = await Promise.all([
    store.listTeamsOfUser(ctx.db, me.id, slice.perPage, slice.offset),
    store.countTeamsOfUser(ctx.db, me.id),
  ]);
  return { items: await teamDetails(ctx, teams), total };
}

// Team members

export interface TeamMemberEntry {
  user: Account;
  role: TeamRole;
  /** The membership comes from a child team. */
  inherited: boolean;
}

/** Direct members, then (as upstream) the members of child teams, each user once. */
async function effectiveMembers(ctx: AppContext, org: Organization, team: Team): Promise<Map<number, { role: TeamRole; inherited: boolean }>> {
  const descendants = descendantsOf(team.id, await store.listAllTeams(ctx.db, org.account.id));
  const rows = await store.listTeamMembers(ctx.db, [team.id, ...descendants]);
  const out = new Map<number, { role: TeamRole; inherited: boolean }>();
  for (const r of rows) {
    if (r.teamId === team.id) out.set(r.userId, { role: r.role, inherited: false });
    else if (!out.has(r.userId)) out.set(r.userId, { role: 'member', inherited: true });
  }
  return out;
}

export async function listTeamMembers(
  ctx: AppContext, actor: Actor, ref: TeamRef, role: 'member' | 'maintainer' | 'all' | undefined, slice: Slice,
): Promise<Page<TeamMemberEntry>> {
  const { org, team } = await requireVisibleTeam(ctx, actor, ref);
  const members = [...(await effectiveMembers(ctx, org, team))]
    .filter(([, m]) => !role || role === 'all' || m.role === role)
    .sort(([a], [b]) => a - b);
  const page = members.slice(slice.offset, slice.offset + slice.perPage);
  const accounts = await users.accountsByIds(ctx, page.map(([id]) => id));
  const items = page.flatMap(([id, m]) => {
    const user = accounts.get(id);
    return user ? [{ user, ...m }] : [];
  });
  return { items, total: members.length };
}

export interface TeamMembershipDetails {
  team: Team;
  user: Account;
  role: TeamRole;
}

export async function getTeamMembership(ctx: AppContext, actor: Actor, ref: TeamRef, username: string): Promise<TeamMembershipDetails> {
  const { org, team } = await requireVisibleTeam(ctx, actor, ref);
  const user = await requireUserAccount(ctx, username);
  const m = (await effectiveMembers(ctx, org, team)).get(user.id);
  if (!m) throw new NotFoundError();
  // Upstream reports organization owners as maintainers of the teams they are in.
  const orgMembership = await store.findMembership(ctx.db, org.account.id, user.id);
  return { team, user, role: orgMembership?.role === 'admin' ? 'maintainer' : m.role };
}

/**
 * Adds the user to the team or changes their role. An owner may add someone outside
 * the organization: upstream invites them; Wharf, self-hosted, makes them a member at once.
 */
export async function setTeamMembership(
  ctx: AppContext, actor: Actor, ref: TeamRef, username: string, role: TeamRole,
): Promise<TeamMembershipDetails> {
  requireUser(actor);
  return inTransaction(ctx, async (tx) => {
    const { org, team, viewer } = await requireTeamAdmin(tx, actor, ref, 'add a team member');
    const user = await requireMemberCandidate(tx, username, 'TeamMember');
    const now = nowIso(tx.clock);
    const m = await store.findMembership(tx.db, org.account.id, user.id);
    if (!m) {
      if (!viewer.owner) throw new ForbiddenError('Only organization owners can add people outside the organization to a team.');
      await store.insertMembership(tx.db, org.account.id, user.id, 'member', 'active', now);
    } else if (m.state !== 'active') {
      await store.updateMembership(tx.db, org.account.id, user.id, { state: 'active' }, now);
    }
    const member = await store.upsertTeamMember(tx.db, team.id, user.id, role, now);
    return { team, user, role: member.role };
  });
}

export async function removeTeamMembership(ctx: AppContext, actor: Actor, ref: TeamRef, username: string): Promise<void> {
  requireUser(actor);
  await inTransaction(ctx, async (tx) => {
    const { team } = await requireTeamAdmin(tx, actor, ref, 'remove a team membership');
    const user = await requireUserAccount(tx, username);
    await store.deleteTeamMember(tx.db, team.id, user.id);
  });
}

/** The user's active memberships (repository lists reach organization repositories through them). */
export async function activeMembershipsOf(ctx: AppContext, userId: number): Promise<Membership[]> {
  return store.listMembershipsOfUser(ctx.db, userId, { state: 'active' }, 10_000, 0);
}

/** The team `teamId` of the organization, or a 422 naming team_id (repository creation). */
export async function requireTeamInOrg(ctx: AppContext, orgId: number, teamId: number): Promise<Team> {
  const team = await store.findTeamById(ctx.db, teamId);
  if (!team || team.orgId !== orgId) {
    throw new ValidationError([{ resource: 'Repository', field: 'team_id', code: 'invalid', value: teamId, message: `team ${teamId} is not a team of this organization` }]);
  }
  return team;
}

/** What the caller is to a team, for the areas hung on a team's page (team discussions). */
export interface TeamViewer {
  org: Organization;
  team: Team;
  /** Site admin or organization owner. */
  orgOwner: boolean;
  /** Active organization member (owners included). */
  orgMember: boolean;
  /** The caller's role in the team (members of child teams are members); null outside it. */
  teamRole: TeamRole | null;
}

/**
 * The team as the caller may see it (owners see every team, members closed ones and
 * secret ones they are in; others get NotFoundError), without the read:org scope check:
 * the areas calling this check scopes of their own (read:discussion …).
 */
export async function teamForViewer(ctx: AppContext, actor: Actor, ref: TeamRef): Promise<TeamViewer> {
  requireUser(actor);
  const { org, team } = await resolveTeam(ctx, ref);
  const viewer = await viewerOf(ctx, actor, org);
  const own = viewer.userId === null ? undefined : (await effectiveMembers(ctx, org, team)).get(viewer.userId);
  if (!(viewer.owner || (viewer.member && (team.privacy === 'closed' || own !== undefined)))) throw new NotFoundError();
  return { org, team, orgOwner: viewer.owner, orgMember: viewer.member, teamRole: own?.role ?? null };
}

/**
 * A team of the organization `accountId`, for an app installed on that organization
 * (a bot is never a team member: the installation's permission is what lets it in,
 * decided by the caller). Another organization's team does not exist for it: 404.
 */
export async function teamOfInstallationAccount(ctx: AppContext, accountId: number, ref: TeamRef): Promise<{ org: Organization; team: Team }> {
  const found = await resolveTeam(ctx, ref);
  if (found.org.account.id !== accountId) throw new NotFoundError();
  return found;
}

/**
 * Ids of a team's members (child teams' members included), or none when the team does
 * not exist. No caller checks: notification fan-out (team mentions, team review
 * requests) asks on the system's behalf and then checks each member's repository access.
 */
export async function teamMemberIds(ctx: AppContext, ref: TeamRef): Promise<number[]> {
  try {
    const { org, team } = await resolveTeam(ctx, ref);
    return [...(await effectiveMembers(ctx, org, team)).keys()];
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

/** Teams of the organization named by slug (unknown slugs are left out): pull request review requests. */
export async function teamsBySlugs(ctx: AppContext, orgId: number, slugs: readonly string[]): Promise<Team[]> {
  const found = await Promise.all([...new Set(slugs)].map((s) => store.findTeamBySlug(ctx.db, orgId, s)));
  return found.filter((t): t is Team => t !== null);
}

/** Teams by id with their parents and their organization's login (their records need both), in bulk. */
export async function teamsWithOrgLogins(ctx: AppContext, ids: readonly number[]): Promise<{ team: Team; parent: Team | null; orgLogin: string }[]> {
  const teams = await store.findTeamsByIds(ctx.db, ids);
  const parents = await store.findTeamsByIds(ctx.db, teams.flatMap((t) => (t.parentId === null ? [] : [t.parentId])));
  const orgs = await users.accountsByIds(ctx, teams.map((t) => t.orgId));
  return teams.flatMap((team) => {
    const org = orgs.get(team.orgId);
    const parent = team.parentId === null ? null : parents.find((p) => p.id === team.parentId) ?? null;
    return org ? [{ team, parent, orgLogin: org.login }] : [];
  });
}

/** A team by its id alone, if the caller may see it (GraphQL's node(id:) knows no organization). */
export async function getTeamById(ctx: AppContext, actor: Actor, teamId: number): Promise<TeamDetails> {
  const team = await store.findTeamById(ctx.db, teamId);
  if (!team) throw new NotFoundError();
  return getTeam(ctx, actor, { orgId: team.orgId, teamId });
}
