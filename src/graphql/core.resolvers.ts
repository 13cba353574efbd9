// Resolvers of the core roots: node(id:), nodes(ids:), rateLimit, meta, search.
// node and search dispatch to what the modules registered (schema.ts).
import { createHash } from 'node:crypto';
import { isoSeconds } from '../domain/clock.ts';
import { offsetConnection, type ConnectionArgs } from './connection.ts';
import type { GraphQLContext, Typed } from './context.ts';
import { GraphQLApiError, notFound } from './errors.ts';
import type { GraphQLModule, SearchHandler } from './module.ts';
import { decodeNodeId, type NodeResolver } from './node-id.ts';
import { coreTypeDefs } from './core.graphql.ts';

export interface Registry {
  nodes: ReadonlyMap<string, NodeResolver>;
  search: ReadonlyMap<string, SearchHandler>;
}

/** Upstream answers at most 1,000 results of a search. */
const MAX_SEARCH_RESULTS = 1000;

/** SearchType value → the count field of SearchResultItemConnection that reports it. */
const COUNT_FIELD: Record<string, string> = {
  ISSUE: 'issueCount', REPOSITORY: 'repositoryCount', USER: 'userCount', DISCUSSION: 'discussionCount',
};

async function resolveNode(registry: Registry, g: GraphQLContext, id: string): Promise<Typed> {
  const decoded = decodeNodeId(id);
  const resolver = decoded ? registry.nodes.get(decoded.type) : undefined;
  const found = resolver ? await resolver(g, decoded!.id) : null;
  if (!found) throw notFound(`Could not resolve to a node with the global id of '${id}'.`);
  return found;
}

// Wharf is not GitHub: the services sha names this server's build of the schema.
const SERVICES_SHA = createHash('sha1').update('wharf graphql v4').digest('hex');

export function coreModule(registry: Registry): GraphQLModule {
  return {
    name: 'core',
    typeDefs: coreTypeDefs,
    resolvers: {
      Query: {
        node: (_: unknown, args: { id: string }, g: GraphQLContext) => resolveNode(registry, g, args.id),
        nodes: (_: unknown, args: { ids: string[] }, g: GraphQLContext) => {
          if (args.ids.length > 100) throw new GraphQLApiError('EXCESSIVE_PAGINATION', `You may not request more than 100 ids, but you requested ${args.ids.length}.`);
          // Each id on its own: one that does not resolve is null with its error, the others answer.
          return Promise.all(args.ids.map((id) => Promise.resolve(resolveNode(registry, g, id)).catch((err: unknown) => err)));
        },
        rateLimit: (_: unknown, _args: unknown, g: GraphQLContext) => ({
          limit: g.rate.limit,
          cost: g.rate.cost,
          nodeCount: g.rate.nodeCount,
          used: Math.min(g.rate.used, g.rate.limit),
          remaining: Math.max(0, g.rate.limit - g.rate.used),
          resetAt: isoSeconds(new Date(g.rate.resetAt * 1000)),
        }),
        meta: (_: unknown, _args: unknown, g: GraphQLContext) => {
          const ranges = g.ctx.config.metaRanges;
          return {
            gitHubServicesSha: SERVICES_SHA,
            gitIpAddresses: ranges.git,
            hookIpAddresses: ranges.hooks,
            importerIpAddresses: ranges.importer,
            pagesIpAddresses: ranges.pages,
            // Git over HTTP and the API take tokens only; an account password is never checked.
            isPasswordAuthenticationVerifiable: false,
          };
        },
        search: async (_: unknown, args: ConnectionArgs & { query: string; type: string }, g: GraphQLContext) => {
          const handler = registry.search.get(args.type);
          const connection = await offsetConnection(args, async (offset, limit) => {
            if (!handler) return { items: [], total: 0 };
            const shown = Math.max(0, Math.min(limit, MAX_SEARCH_RESULTS - offset));
            const page = await handler(g, args.query, { offset, limit: shown });
            return { items: page.items, total: Math.min(page.total, MAX_SEARCH_RESULTS) };
          });
          const counts: Record<string, number> = { codeCount: 0, discussionCount: 0, issueCount: 0, repositoryCount: 0, userCount: 0, wikiCount: 0 };
          const field = COUNT_FIELD[args.type];
          if (field) counts[field] = connection.totalCount;
          // The query goes along for counts a module resolves itself (codeCount: the search module).
          return { ...connection, ...counts, searchQuery: args.query };
        },
      },
    },
  };
}
