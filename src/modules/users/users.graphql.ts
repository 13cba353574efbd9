// The users area in GraphQL: User, the Actor interface, viewer and user(login:), USER
// search results. Names, types and descriptions as in @octokit/graphql-schema.
export const usersTypeDefs = /* GraphQL */ `
"""Represents an object which can take actions on GitHub. Typically a User or Bot."""
interface Actor {
  """A URL pointing to the actor's public avatar."""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int
  ): URI!
  """The username of the actor."""
  login: String!
  """The HTTP path for this actor."""
  resourcePath: URI!
  """The HTTP URL for this actor."""
  url: URI!
}

"""A user is an individual's account on GitHub that owns repositories and can make new content."""
type User implements Actor & Node & UniformResourceLocatable {
  """A URL pointing to the user's public avatar."""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int
  ): URI!
  """The user's public profile bio."""
  bio: String
  """The user's public profile company."""
  company: String
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The user's publicly visible profile email."""
  email: String!
  """The Node ID of the User object"""
  id: ID!
  """Whether or not the user has marked themselves as for hire."""
  isHireable: Boolean!
  """Whether or not this user is a site administrator."""
  isSiteAdmin: Boolean!
  """Whether or not this user is the viewing user."""
  isViewer: Boolean!
  """The user's public profile location."""
  location: String
  """The username used to login."""
  login: String!
  """The user's public profile name."""
  name: String
  """The HTTP path for this user"""
  resourcePath: URI!
  """The user's Twitter username."""
  twitterUsername: String
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this user"""
  url: URI!
  """A URL pointing to the user's public website/blog."""
  websiteUrl: URI
}

"""A list of users."""
type UserConnection {
  """A list of edges."""
  edges: [UserEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user."""
type UserEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: User
}

extend enum SearchType {
  """Returns results matching users and organizations on GitHub."""
  USER
}

extend union SearchResultItem = User

extend type Query {
  """The currently authenticated user."""
  viewer: User!
  """Lookup a user by login."""
  user(
    """The user's login."""
    login: String!
  ): User
}
`;
