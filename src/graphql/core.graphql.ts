// The core of the schema: scalars, Node, pagination, the roots every module extends
// (Query, Mutation, SearchType, SearchResultItem), rateLimit, meta and search.
// Names, types and descriptions as in @octokit/graphql-schema.
export const coreTypeDefs = /* GraphQL */ `
"""An ISO-8601 encoded UTC date string."""
scalar DateTime

"""An RFC 3986, RFC 3987, and RFC 6570 (level 4) compliant URI string."""
scalar URI

"""A string containing HTML code."""
scalar HTML

"""A Git object ID."""
scalar GitObjectID

"""An object with an ID."""
interface Node {
  """ID of the object."""
  id: ID!
}

"""Represents a type that can be retrieved by a URL."""
interface UniformResourceLocatable {
  """The HTML path to this resource."""
  resourcePath: URI!
  """The URL to this resource."""
  url: URI!
}

"""Information about pagination in a connection."""
type PageInfo {
  """When paginating forwards, the cursor to continue."""
  endCursor: String
  """When paginating forwards, are there more items?"""
  hasNextPage: Boolean!
  """When paginating backwards, are there more items?"""
  hasPreviousPage: Boolean!
  """When paginating backwards, the cursor to continue."""
  startCursor: String
}

"""Possible directions in which to order a list of items when provided an \`orderBy\` argument."""
enum OrderDirection {
  """Specifies an ascending order for a given \`orderBy\` argument."""
  ASC
  """Specifies a descending order for a given \`orderBy\` argument."""
  DESC
}

"""Represents the client's rate limit."""
type RateLimit {
  """The point cost for the current query counting against the rate limit."""
  cost: Int!
  """The maximum number of points the client is permitted to consume in a 60 minute window."""
  limit: Int!
  """The maximum number of nodes this query may return"""
  nodeCount: Int!
  """The number of points remaining in the current rate limit window."""
  remaining: Int!
  """The time at which the current rate limit window resets in UTC epoch seconds."""
  resetAt: DateTime!
  """The number of points used in the current rate limit window."""
  used: Int!
}

"""Represents information about the GitHub instance."""
type GitHubMetadata {
  """Returns a String that's a SHA of \`github-services\`"""
  gitHubServicesSha: GitObjectID!
  """IP addresses that users connect to for git operations"""
  gitIpAddresses: [String!]
  """IP addresses that service hooks are sent from"""
  hookIpAddresses: [String!]
  """IP addresses that the importer connects from"""
  importerIpAddresses: [String!]
  """Whether or not users are verified"""
  isPasswordAuthenticationVerifiable: Boolean!
  """IP addresses for GitHub Pages' A records"""
  pagesIpAddresses: [String!]
}

"""A list of results that matched against a search query."""
type SearchResultItemConnection {
  """The total number of pieces of code that matched the search query."""
  codeCount: Int!
  """The total number of discussions that matched the search query."""
  discussionCount: Int!
  """A list of edges."""
  edges: [SearchResultItemEdge]
  """The total number of issues that matched the search query."""
  issueCount: Int!
  """A list of nodes."""
  nodes: [SearchResultItem]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """The total number of repositories that matched the search query."""
  repositoryCount: Int!
  """The total number of users that matched the search query."""
  userCount: Int!
  """The total number of wiki pages that matched the search query."""
  wikiCount: Int!
}

"""An edge in a connection."""
type SearchResultItemEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: SearchResultItem
}

"""The query root of GitHub's GraphQL interface."""
type Query {
  """Fetches an object given its ID."""
  node(
    """ID of the object."""
    id: ID!
  ): Node
  """Lookup nodes by a list of IDs."""
  nodes(
    """The list of node IDs."""
    ids: [ID!]!
  ): [Node]!
  """The client's rate limit information."""
  rateLimit(
    """If true, calculate the cost for the query without evaluating it"""
    dryRun: Boolean = false
  ): RateLimit
  """Return information about the GitHub instance"""
  meta: GitHubMetadata!
  """Perform a search across resources, returning a maximum of 1,000 results."""
  search(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """The search string to look for."""
    query: String!
    """The types of search items to search within."""
    type: SearchType!
  ): SearchResultItemConnection!
}

"""Represents the individual results of a search (each module adds its values)."""
enum SearchType

"""The results of a search (each module adds its types)."""
union SearchResultItem

"""The root query for implementing GraphQL mutations (each module adds its mutations)."""
type Mutation
`;
