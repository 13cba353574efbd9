// GraphQL resolvers of the organizations area, on the orgs service.
import { NotFoundError } from '../../domain/errors.ts';
import { offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { notFound, orNull } from '../../graphql/errors.ts';
import { defineLoader, defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { accountById, accountFields, accountNode, type AccountNode } from '../users/users.resolvers.ts';
import { orgsTypeDefs } from './orgs.graphql.ts';
import type { Membership, Team } from './orgs.model.ts';
import * as orgs from './orgs.service.ts';

export interface TeamNode {
  __typename: 'Team';
  team: Team;
}

function teamNode(team: Team): TeamNode {
  return { __typename: 'Team', team };
}


const orgById = defineMapLoader('orgById', (g, ids: readonly number[]) => orgs.organizationsByIds(g.ctx, ids));

/** The viewer's membership of each organization. */
const viewerMembership = defineLoader('viewerMembership', (g, orgIds: readonly number[]) =>
  Promise.all(orgIds.map((id) => orgs.membershipOf(g.ctx, id, g.user.id))));

async function activeMembership(g: GraphQLContext, orgId: number): Promise<Membership | null> {
  const m = await load(g, viewerMembership, orgId);
  return m?.state === 'active' ? m : null;
}

async function viewerOwns(g: GraphQLContext, orgId: number): Promise<boolean> {
  return orgs.isOrgOwner(g.actor, await load(g, viewerMembership, orgId));
}

const slice = (offset: number, limit: number) => ({ perPage: limit, offset });

const organizationFields = {
  ...accountFields,
  description: async (a: AccountNode, _args: unknown, g: GraphQLContext) => (await load(g, orgById, a.account.id))?.settings.description ?? null,
  email: (a: AccountNode) => a.account.email,
  isVerified: () => false,
  teamsResourcePath: (a: AccountNode) => `/orgs/${a.account.login}/teams`,
  teamsUrl: (a: AccountNode, _args: unknown, g: GraphQLContext) => g.ctx.urls.html('orgs', a.account.login, 'teams'),
  viewerIsAMember: async (a: AccountNode, _args: unknown, g: GraphQLContext) => (await activeMembership(g, a.account.id)) !== null,
  viewerCanAdminister: (a: AccountNode, _args: unknown, g: GraphQLContext) => viewerOwns(g, a.account.id),
  viewerCanCreateTeams: async (a: AccountNode, _args: unknown, g: GraphQLContext) =>
    g.user.siteAdmin || (await activeMembership(g, a.account.id)) !== null,
  viewerCanCreateRepositories: async (a: AccountNode, _args: unknown, g: GraphQLContext) => {
    const owner = await viewerOwns(g, a.account.id);
    if (!owner && !(await activeMembership(g, a.account.id))) return false;
    const org = await load(g, orgById, a.account.id);
    return org ? orgs.canCreateRepositories(org.settings, owner) : owner;
  },
  membersWithRole: (a: AccountNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await orgs.listMembers(g.ctx, g.actor, a.account.login, {}, slice(offset, limit));
      return { items: page.items.map(accountNode), total: page.total };
    }),
  teams: (a: AccountNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await orgs.listTeams(g.ctx, g.actor, a.account.login, slice(offset, limit));
      return { items: page.items.map((e) => teamNode(e.team)), total: page.total };
    }),
  team: async (a: AccountNode, args: { slug: string }, g: GraphQLContext) => {
    const found = await orNull(orgs.getTeam(g.ctx, g.actor, { org: a.account.login, teamSlug: args.slug }));
    return found ? teamNode(found.team) : null;
  },
};

async function orgAccountOf(g: GraphQLContext, t: TeamNode) {
  const account = await load(g, accountById, t.team.orgId);
  if (!account) throw new NotFoundError();
  return account;
}

const teamFields = {
  id: (t: TeamNode) => encodeNodeId('Team', t.team.id),
  databaseId: (t: TeamNode) => t.team.id,
  name: (t: TeamNode) => t.team.name,
  slug: (t: TeamNode) => t.team.slug,
  description: (t: TeamNode) => t.team.description,
  createdAt: (t: TeamNode) => t.team.createdAt,
  updatedAt: (t: TeamNode) => t.team.updatedAt,
  // A closed team is what upstream's GraphQL calls visible.
  privacy: (t: TeamNode) => (t.team.privacy === 'secret' ? 'SECRET' : 'VISIBLE'),
  notificationSetting: (t: TeamNode) => t.team.notificationSetting.toUpperCase(),
  avatarUrl: () => null,
  combinedSlug: async (t: TeamNode, _args: unknown, g: GraphQLContext) => `${(await orgAccountOf(g, t)).login}/${t.team.slug}`,
  resourcePath: async (t: TeamNode, _args: unknown, g: GraphQLContext) => `/orgs/${(await orgAccountOf(g, t)).login}/teams/${t.team.slug}`,
  url: async (t: TeamNode, _args: unknown, g: GraphQLContext) => g.ctx.urls.html('orgs', (await orgAccountOf(g, t)).login, 'teams', t.team.slug),
  organization: async (t: TeamNode, _args: unknown, g: GraphQLContext) => accountNode(await orgAccountOf(g, t)),
  parentTeam: async (t: TeamNode, _args: unknown, g: GraphQLContext) => {
    if (t.team.parentId === null) return null;
    const parent = await orNull(orgs.getTeam(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.parentId }));
    return parent ? teamNode(parent.team) : null;
  },
  childTeams: (t: TeamNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await orgs.listChildTeams(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.id }, slice(offset, limit));
      return { items: page.items.map((e) => teamNode(e.team)), total: page.total };
    }),
  members: (t: TeamNode, args: ConnectionArgs & { role?: 'MAINTAINER' | 'MEMBER' | null }, g: GraphQLContext) => {
    const role = args.role === 'MAINTAINER' ? 'maintainer' : args.role === 'MEMBER' ? 'member' : 'all';
    return offsetConnection(args, async (offset, limit) => {
      const page = await orgs.listTeamMembers(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.id }, role, slice(offset, limit));
      return { items: page.items, total: page.total };
    }, (m) => ({ node: accountNode(m.user), role: m.role.toUpperCase() }));
  },
  viewerCanAdminister: async (t: TeamNode, _args: unknown, g: GraphQLContext) => {
    if (await viewerOwns(g, t.team.orgId)) return true;
    const own = await orNull(orgs.getTeamMembership(g.ctx, g.actor, { orgId: t.team.orgId, teamId: t.team.id }, g.user.login));
    return own?.role === 'maintainer';
  },
};

export const orgsGraphQL: GraphQLModule = {
  name: 'orgs',
  typeDefs: orgsTypeDefs,
  resolvers: {
    Query: {
      organization: async (_: unknown, args: { login: string }, g: GraphQLContext) => {
        const org = await orNull(orgs.requireOrganization(g.ctx, args.login));
        if (!org) throw notFound(`Could not resolve to an Organization with the login of '${args.login}'.`);
        return accountNode(org.account);
      },
    },
    Organization: organizationFields,
    Team: teamFields,
    User: {
      organizations: (a: AccountNode, args: ConnectionArgs, g: GraphQLContext) =>
        offsetConnection(args, async (offset, limit) => {
          // The viewer sees every organization they belong to; others' public memberships only (as REST).
          const page = a.account.id === g.user.id
            ? await orgs.listOrganizationsForAuthenticatedUser(g.ctx, g.actor, slice(offset, limit))
            : await orgs.listOrganizationsForUser(g.ctx, a.account.login, slice(offset, limit));
          return { items: page.items.map((o) => accountNode(o.account)), total: page.total };
        }),
      organization: async (a: AccountNode, args: { login: string }, g: GraphQLContext) => {
        const org = await orNull(orgs.requireOrganization(g.ctx, args.login));
        const m = org ? await orgs.membershipOf(g.ctx, org.account.id, a.account.id) : null;
        if (!org || m?.state !== 'active' || (!m.public && a.account.id !== g.user.id)) return null;
        return accountNode(org.account);
      },
    },
  },
  nodes: {
    Organization: async (g, id) => {
      const n = numericId(id);
      const account = n === null ? null : await load(g, accountById, n);
      return account?.type === 'Organization' ? accountNode(account) : null;
    },
    Team: async (g, id) => {
      const n = numericId(id);
      const found = n === null ? null : await orNull(orgs.getTeamById(g.ctx, g.actor, n));
      return found ? teamNode(found.team) : null;
    },
  },
  // Teams are what organizations keep from outsiders: upstream asks for read:org.
  scopes: {
    Team: ['read:org'],
    'Organization.teams': ['read:org'],
    'Organization.team': ['read:org'],
  },
};
