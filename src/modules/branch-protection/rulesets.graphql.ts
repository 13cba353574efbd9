// Rulesets in GraphQL: RepositoryRuleset (node(id:) resolves the REST node_id, a
// repository's or an organization's), its source, Repository.ruleset(databaseId:) and
// Repository.rulesets (with the organization's covering ones unless includeParents is
// false), Organization.ruleset and Organization.rulesets (owners only). Names, types and
// descriptions as in @octokit/graphql-schema; RuleSource lacks Enterprise (Wharf has
// none). Its rules and bypass actors are rulesets-rules.graphql's, the mutations
// rulesets-mutations.graphql's.
export const rulesetsTypeDefs = /* GraphQL */ `
"""The level of enforcement for a rule or ruleset."""
enum RuleEnforcement {
  """Rules will be enforced"""
  ACTIVE
  """Do not evaluate or enforce rules"""
  DISABLED
  """Allow admins to test rules before enforcing them. Admins can view insights on the Rule Insights page (\`evaluate\` is only available with GitHub Enterprise)."""
  EVALUATE
}

"""The targets supported for rulesets."""
enum RepositoryRulesetTarget {
  """Branch"""
  BRANCH
  """Push"""
  PUSH
  """Tag"""
  TAG
}

"""Parameters to be used for the ref_name condition"""
type RefNameConditionTarget {
  """Array of ref names or patterns to exclude. The condition will not pass if any of these patterns match."""
  exclude: [String!]!
  """Array of ref names or patterns to include. One of these patterns must match for the condition to pass. Also accepts \`~DEFAULT_BRANCH\` to include the default branch or \`~ALL\` to include all branches."""
  include: [String!]!
}

"""Set of conditions that determine if a ruleset will evaluate"""
type RepositoryRuleConditions {
  """Configuration for the ref_name condition"""
  refName: RefNameConditionTarget
}

"""A repository ruleset."""
type RepositoryRuleset implements Node {
  """The set of conditions that must evaluate to true for this ruleset to apply"""
  conditions: RepositoryRuleConditions!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The enforcement level of this ruleset"""
  enforcement: RuleEnforcement!
  """The Node ID of the RepositoryRuleset object"""
  id: ID!
  """Name of the ruleset."""
  name: String!
  """Source of ruleset."""
  source: RuleSource!
  """Target of the ruleset."""
  target: RepositoryRulesetTarget
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
}

"""Types which can have \`RepositoryRule\` objects."""
union RuleSource = Organization | Repository

"""The connection type for RepositoryRuleset."""
type RepositoryRulesetConnection {
  """A list of edges."""
  edges: [RepositoryRulesetEdge]
  """A list of nodes."""
  nodes: [RepositoryRuleset]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryRulesetEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: RepositoryRuleset
}

extend type Repository {
  """Returns a single ruleset from the current repository by ID."""
  ruleset(
    """The ID of the ruleset to be returned."""
    databaseId: Int!
    """Include rulesets configured at higher levels that apply to this repository"""
    includeParents: Boolean = true
  ): RepositoryRuleset
  """A list of rulesets for this repository."""
  rulesets(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Return rulesets configured at higher levels that apply to this repository"""
    includeParents: Boolean = true
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryRulesetConnection
}

extend type Organization {
  """Returns a single ruleset from the current organization by ID."""
  ruleset(
    """The ID of the ruleset to be returned."""
    databaseId: Int!
  ): RepositoryRuleset
  """A list of rulesets for this organization."""
  rulesets(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Return rulesets configured at higher levels that apply to this organization"""
    includeParents: Boolean = true
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryRulesetConnection
}
`;
