// The search module's GraphQL part: SearchResultItemConnection.codeCount, the number
// of files code search finds for the same query (upstream has no CODE search type, but
// counts code for any search), and SearchResultItemEdge.textMatches, the matches REST's
// text-match media type gives for the same item. A query code search cannot run (no
// keyword, an unreachable repo:, out of time) counts none.
import type { GraphQLContext } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { DomainError } from '../../domain/errors.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import { searchCode } from './index-search.service.ts';
import { SearchTimedOut } from './search-budget.ts';
import { parseQuery } from './search-query.ts';
import { MAX_RESULTS } from './search.service.ts';
import { textMatch } from './search.views.ts';

const typeDefs = /* GraphQL */ `
extend type SearchResultItemEdge {
  """Text matches on the result found."""
  textMatches: [TextMatch]
}

"""A text match within a search result."""
type TextMatch {
  """The specific text fragment within the property matched on."""
  fragment: String!
  """Highlights within the matched fragment."""
  highlights: [TextMatchHighlight!]!
  """The property matched on."""
  property: String!
}

"""Represents a single highlight in a search result match."""
type TextMatchHighlight {
  """The indice in the fragment where the matched text begins."""
  beginIndice: Int!
  """The indice in the fragment where the matched text ends."""
  endIndice: Int!
  """The text matched."""
  text: String!
}
`;

interface Connection {
  searchQuery?: string;
  edges?: (Edge | null)[];
}

interface Edge {
  node?: unknown;
  searchQuery?: string;
}

/** The nodes search returns, as far as their text goes (issues and pull requests carry their issue). */
type SearchedNode =
  | { __typename: 'Issue' | 'PullRequest'; issue: IssueRecord }
  | { __typename: 'Repository'; repo: Repo }
  | { __typename: 'User' | 'Organization'; account: Account };

async function codeCount(conn: Connection, _args: unknown, g: GraphQLContext): Promise<number> {
  if (!conn.searchQuery) return 0;
  try {
    const q = parseQuery(conn.searchQuery);
    // Qualifiers code search does not know (is:issue, sort:…) are passed over, as in REST.
    const found = await searchCode(g.ctx, g.actor, q, undefined, undefined, { offset: 0, perPage: 0 });
    return Math.min(found.total, MAX_RESULTS);
  } catch (err) {
    if (err instanceof DomainError || err instanceof SearchTimedOut) return 0;
    throw err;
  }
}

/** The properties REST's text matches read for the item, in its order (search.routes.ts). */
function propertiesOf(node: SearchedNode): Record<string, string | null> {
  switch (node.__typename) {
    case 'Issue': case 'PullRequest': return { title: node.issue.title, body: node.issue.body };
    case 'Repository': return { name: node.repo.name, description: node.repo.description };
    default: {
      const a = node.account;
      // A private address never shows, not even as a match.
      return { login: a.login, name: a.name, ...(a.emailPrivate ? {} : { email: a.email }) };
    }
  }
}

function textMatches(edge: Edge) {
  const node = edge.node as SearchedNode | null | undefined;
  if (!edge.searchQuery || !node) return [];
  const keywords = parseQuery(edge.searchQuery).keywords;
  return Object.entries(propertiesOf(node)).flatMap(([property, text]) => {
    const m = textMatch('', node.__typename, property, text, keywords);
    return m ? [{
      fragment: m.fragment, property,
      highlights: m.matches.map((h) => ({ text: h.text, beginIndice: h.indices[0] ?? 0, endIndice: h.indices[1] ?? 0 })),
    }] : [];
  });
}

export const searchGraphQL: GraphQLModule = {
  name: 'search',
  typeDefs,
  resolvers: {
    SearchResultItemConnection: {
      codeCount,
      // Each edge carries the query, for its text matches.
      edges: (conn: Connection) => conn.edges?.map((e) => (e ? { ...e, searchQuery: conn.searchQuery } : e)) ?? null,
    },
    SearchResultItemEdge: { textMatches },
  },
};
