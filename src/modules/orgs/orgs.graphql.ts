// The organizations area in GraphQL: Organization, Team, memberships and teams as
// connections, organization(login:). Names, types and descriptions as in @octokit/graphql-schema.
export const orgsTypeDefs = /* GraphQL */ `
"""An account on GitHub, with one or more owners, that has repositories, members and teams."""
type Organization implements Actor & Node & UniformResourceLocatable {
  """A URL pointing to the organization's public avatar."""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int
  ): URI!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The organization's public profile description."""
  description: String
  """The organization's public email."""
  email: String
  """The Node ID of the Organization object"""
  id: ID!
  """Whether the organization has verified its profile email and website."""
  isVerified: Boolean!
  """The organization's public profile location."""
  location: String
  """The organization's login name."""
  login: String!
  """A list of users who are members of this organization."""
  membersWithRole(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): OrganizationMemberConnection!
  """The organization's public profile name."""
  name: String
  """The HTTP path for this organization."""
  resourcePath: URI!
  """Find an organization's team by its slug."""
  team(
    """The name or slug of the team to find."""
    slug: String!
  ): Team
  """A list of teams in this organization."""
  teams(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): TeamConnection!
  """The HTTP path listing organization's teams"""
  teamsResourcePath: URI!
  """The HTTP URL listing organization's teams"""
  teamsUrl: URI!
  """The organization's Twitter username."""
  twitterUsername: String
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this organization."""
  url: URI!
  """Organization is adminable by the viewer."""
  viewerCanAdminister: Boolean!
  """Viewer can create repositories on this organization"""
  viewerCanCreateRepositories: Boolean!
  """Viewer can create teams on this organization."""
  viewerCanCreateTeams: Boolean!
  """Viewer is an active member of this organization."""
  viewerIsAMember: Boolean!
  """The organization's public profile URL."""
  websiteUrl: URI
}

"""A list of organizations managed by an enterprise."""
type OrganizationConnection {
  """A list of edges."""
  edges: [OrganizationEdge]
  """A list of nodes."""
  nodes: [Organization]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type OrganizationEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Organization
}

"""A list of users who belong to the organization."""
type OrganizationMemberConnection {
  """A list of edges."""
  edges: [OrganizationMemberEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user within an organization."""
type OrganizationMemberEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: User
}

"""A team of users in an organization."""
type Team implements Node {
  """A URL pointing to the team's avatar."""
  avatarUrl(
    """The size in pixels of the resulting square image."""
    size: Int = 400
  ): URI
  """List of child teams belonging to this team"""
  childTeams(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): TeamConnection!
  """The slug corresponding to the organization and team."""
  combinedSlug: String!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The description of the team."""
  description: String
  """The Node ID of the Team object"""
  id: ID!
  """A list of users who are members of this team."""
  members(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Filter by team member role"""
    role: TeamMemberRole
  ): TeamMemberConnection!
  """The name of the team."""
  name: String!
  """The notification setting that the team has set."""
  notificationSetting: TeamNotificationSetting!
  """The organization that owns this team."""
  organization: Organization!
  """The parent team of the team."""
  parentTeam: Team
  """The level of privacy the team has."""
  privacy: TeamPrivacy!
  """The HTTP path for this team"""
  resourcePath: URI!
  """The slug corresponding to the team."""
  slug: String!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this team"""
  url: URI!
  """Team is adminable by the viewer."""
  viewerCanAdminister: Boolean!
}

"""The connection type for Team."""
type TeamConnection {
  """A list of edges."""
  edges: [TeamEdge]
  """A list of nodes."""
  nodes: [Team]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type TeamEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Team
}

"""The connection type for User."""
type TeamMemberConnection {
  """A list of edges."""
  edges: [TeamMemberEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user who is a member of a team."""
type TeamMemberEdge {
  """A cursor for use in pagination."""
  cursor: String!
  node: User!
  """The role the member has on the team."""
  role: TeamMemberRole!
}

"""The possible team privacy values."""
enum TeamPrivacy {
  """A secret team can only be seen by its members."""
  SECRET
  """A visible team can be seen and @mentioned by every member of the organization."""
  VISIBLE
}

"""The possible team member roles; either 'maintainer' or 'member'."""
enum TeamMemberRole {
  """A team maintainer has permission to add and remove team members."""
  MAINTAINER
  """A team member has no administrative permissions on the team."""
  MEMBER
}

"""The possible team notification values."""
enum TeamNotificationSetting {
  """Everyone will receive notifications when the team is @mentioned."""
  NOTIFICATIONS_ENABLED
  """No one will receive notifications."""
  NOTIFICATIONS_DISABLED
}

extend type User {
  """A list of organizations the user belongs to."""
  organizations(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): OrganizationConnection!
  """Find an organization by its login that the user belongs to."""
  organization(
    """The login of the organization to find."""
    login: String!
  ): Organization
}

extend union SearchResultItem = Organization

extend type Query {
  """Lookup a organization by login."""
  organization(
    """The organization's login."""
    login: String!
  ): Organization
}
`;
