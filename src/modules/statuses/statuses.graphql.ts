// A commit's statuses as GraphQL shows them: the status check rollup of a commit (the
// latest status of each context, and the latest check run of each name) with its
// combined state, which gh reads for `pr view`, `pr checks` and `pr status`.
export const statusesTypeDefs = /* GraphQL */ `
"""The possible commit status states."""
enum StatusState {
  """Status is errored."""
  ERROR
  """Status is expected."""
  EXPECTED
  """Status is failing."""
  FAILURE
  """Status is pending."""
  PENDING
  """Status is successful."""
  SUCCESS
}

"""Represents an individual commit status context"""
type StatusContext implements Node {
  """The avatar of the OAuth application or the user that created the status"""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int = 40
  ): URI
  """This commit this status context is attached to."""
  commit: Commit
  """The name of this status context."""
  context: String!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """The actor who created this status context."""
  creator: Actor
  """The description for this status context."""
  description: String
  """The Node ID of the StatusContext object"""
  id: ID!
  """Whether this is required to pass before merging for a specific pull request."""
  isRequired(
    """The id of the pull request this is required for"""
    pullRequestId: ID
    """The number of the pull request this is required for"""
    pullRequestNumber: Int
  ): Boolean!
  """The state of this status context."""
  state: StatusState!
  """The URL for this status context."""
  targetUrl: URI
}

"""Types that can be inside a StatusCheckRollup context."""
union StatusCheckRollupContext = CheckRun | StatusContext

"""An edge in a connection."""
type StatusCheckRollupContextEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: StatusCheckRollupContext
}

"""The connection type for StatusCheckRollupContext."""
type StatusCheckRollupContextConnection {
  """The number of check runs in this rollup."""
  checkRunCount: Int!
  """A list of edges."""
  edges: [StatusCheckRollupContextEdge]
  """A list of nodes."""
  nodes: [StatusCheckRollupContext]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """The number of status contexts in this rollup."""
  statusContextCount: Int!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents the rollup for both the check runs and status for a commit."""
type StatusCheckRollup implements Node {
  """The commit the status and check runs are attached to."""
  commit: Commit
  """A list of status contexts and check runs for this commit."""
  contexts(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): StatusCheckRollupContextConnection!
  """The Node ID of the StatusCheckRollup object"""
  id: ID!
  """The combined status for the commit."""
  state: StatusState!
}

extend type Commit {
  """Check and Status rollup information for this commit."""
  statusCheckRollup: StatusCheckRollup
}
`;
