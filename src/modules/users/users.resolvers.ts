// GraphQL resolvers of the users area, on the users service.
import { hasScope } from '../../domain/actor.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { notFound } from '../../graphql/errors.ts';
import { defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { parseQuery, sortQualifier } from '../search/search-query.ts';
import * as search from '../search/search.service.ts';
import { usersTypeDefs } from './users.graphql.ts';
import type { Account } from './users.model.ts';
import * as users from './users.service.ts';

/** A user or an organization as a GraphQL object (organizations add their fields in the orgs area). */
export interface AccountNode {
  __typename: 'User' | 'Organization';
  account: Account;
}

export function accountNode(account: Account): AccountNode {
  // Wharf's schema has no Bot type yet: an app's bot account shows as a User there.
  return { __typename: account.type === 'Bot' ? 'User' : account.type, account };
}

/** Accounts by id, batched per request. */
export const accountById = defineMapLoader('accountById', (g, ids: readonly number[]) => users.accountsByIds(g.ctx, ids));

/** The fields users and organizations share (Actor, RepositoryOwner, UniformResourceLocatable). */
export const accountFields = {
  id: (a: AccountNode) => encodeNodeId(a.account.type, a.account.id),
  databaseId: (a: AccountNode) => a.account.id,
  login: (a: AccountNode) => a.account.login,
  name: (a: AccountNode) => a.account.name,
  location: (a: AccountNode) => a.account.location,
  twitterUsername: (a: AccountNode) => a.account.twitterUsername,
  websiteUrl: (a: AccountNode) => a.account.blog,
  createdAt: (a: AccountNode) => a.account.createdAt,
  updatedAt: (a: AccountNode) => a.account.updatedAt,
  avatarUrl: (a: AccountNode, args: { size?: number | null }, g: GraphQLContext) =>
    `${g.ctx.urls.avatar(a.account.id)}${args.size ? `&s=${args.size}` : ''}`,
  resourcePath: (a: AccountNode) => `/${a.account.login}`,
  url: (a: AccountNode, _args: unknown, g: GraphQLContext) => g.ctx.urls.html(a.account.login),
};

const userFields = {
  ...accountFields,
  bio: (a: AccountNode) => a.account.bio,
  company: (a: AccountNode) => a.account.company,
  /** The public address; the viewer sees their own with a token that may read it, as REST's GET /user does. */
  email: (a: AccountNode, _args: unknown, g: GraphQLContext) => {
    const own = a.account.id === g.user.id && (g.actor.method === 'basic' || hasScope(g.actor, 'user', 'read:user', 'user:email'));
    return (own || !a.account.emailPrivate ? a.account.email : null) ?? '';
  },
  isHireable: (a: AccountNode) => a.account.hireable === true,
  isSiteAdmin: (a: AccountNode) => a.account.siteAdmin,
  isViewer: (a: AccountNode, _args: unknown, g: GraphQLContext) => a.account.id === g.user.id,
};

export const usersGraphQL: GraphQLModule = {
  name: 'users',
  typeDefs: usersTypeDefs,
  resolvers: {
    Query: {
      viewer: async (_: unknown, _args: unknown, g: GraphQLContext) => accountNode(await users.getOwnAccount(g.ctx, g.actor)),
      user: async (_: unknown, args: { login: string }, g: GraphQLContext) => {
        const account = await users.findAccount(g.ctx, args.login);
        if (!account || account.type !== 'User') throw notFound(`Could not resolve to a User with the login of '${args.login}'.`);
        return accountNode(account);
      },
    },
    User: userFields,
  },
  nodes: {
    User: async (g, id) => {
      const n = numericId(id);
      const account = n === null ? null : await load(g, accountById, n);
      return account?.type === 'User' ? accountNode(account) : null;
    },
  },
  search: {
    // Through the search service: the same qualifiers as GET /search/users.
    USER: async (g, query, page) => {
      const q = parseQuery(query);
      const { sort, order } = sortQualifier(q, search.USER_SORTS);
      const found = await search.searchUsers(g.ctx, q, sort, order, { offset: page.offset, perPage: page.limit });
      return { items: found.items.map(accountNode), total: found.total };
    },
  },
};
