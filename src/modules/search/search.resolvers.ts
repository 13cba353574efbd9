// The search module's GraphQL part: SearchResultItemConnection.codeCount, the number
// of files code search finds for the same query (upstream has no CODE search type, but
// counts code for any search). A query code search cannot run (no keyword, an
// unreachable repo:) counts none.
import type { GraphQLContext } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { DomainError } from '../../domain/errors.ts';
import { searchCode } from './index-search.service.ts';
import { parseQuery } from './search-query.ts';
import { MAX_RESULTS } from './search.service.ts';

async function codeCount(conn: { searchQuery?: string }, _args: unknown, g: GraphQLContext): Promise<number> {
  if (!conn.searchQuery) return 0;
  try {
    const q = parseQuery(conn.searchQuery);
    // Qualifiers code search does not know (is:issue, sort:…) are passed over, as in REST.
    const found = await searchCode(g.ctx, g.actor, q, undefined, undefined, { offset: 0, perPage: 0 });
    return Math.min(found.total, MAX_RESULTS);
  } catch (err) {
    if (err instanceof DomainError) return 0;
    throw err;
  }
}

export const searchGraphQL: GraphQLModule = {
  name: 'search',
  typeDefs: '',
  resolvers: {
    SearchResultItemConnection: { codeCount },
  },
};
