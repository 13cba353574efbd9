// Reactions in GraphQL: the Reactable interface every reactable subject implements
// (issues, issue comments, pull requests, reviews and review comments, releases, team
// discussions and their comments), Reaction, ReactionGroup and their connections, addReaction and
// removeReaction. Names, types and descriptions as in @octokit/graphql-schema; Reactor
// holds the members Wharf has (users and organizations).
export const reactionsTypeDefs = /* GraphQL */ `
"""Represents a subject that can be reacted on."""
interface Reactable {
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the Reactable object"""
  id: ID!
  """A list of reactions grouped by content left on the subject."""
  reactionGroups: [ReactionGroup!]
  """A list of Reactions left on the Issue."""
  reactions(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Allows filtering Reactions by emoji."""
    content: ReactionContent
    """Allows specifying the order in which reactions are returned."""
    orderBy: ReactionOrder
  ): ReactionConnection!
  """Can user react to this subject"""
  viewerCanReact: Boolean!
}

"""An emoji reaction to a particular piece of content."""
type Reaction implements Node {
  """Identifies the emoji reaction."""
  content: ReactionContent!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the Reaction object"""
  id: ID!
  """The reactable piece of content"""
  reactable: Reactable!
  """Identifies the user who created this reaction."""
  user: User
}

"""A group of emoji reactions to a particular piece of content."""
type ReactionGroup {
  """Identifies the emoji reaction."""
  content: ReactionContent!
  """Identifies when the reaction was created."""
  createdAt: DateTime
  """Reactors to the reaction subject with the emotion represented by this reaction group."""
  reactors(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ReactorConnection!
  """The subject that was reacted to."""
  subject: Reactable!
  """Users who have reacted to the reaction subject with the emotion represented by this reaction group"""
  users(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ReactingUserConnection!
  """Whether or not the authenticated user has left a reaction on the subject."""
  viewerHasReacted: Boolean!
}

"""Emojis that can be attached to Issues, Pull Requests and Comments."""
enum ReactionContent {
  """Represents the \`:+1:\` emoji."""
  THUMBS_UP
  """Represents the \`:-1:\` emoji."""
  THUMBS_DOWN
  """Represents the \`:laugh:\` emoji."""
  LAUGH
  """Represents the \`:hooray:\` emoji."""
  HOORAY
  """Represents the \`:confused:\` emoji."""
  CONFUSED
  """Represents the \`:heart:\` emoji."""
  HEART
  """Represents the \`:rocket:\` emoji."""
  ROCKET
  """Represents the \`:eyes:\` emoji."""
  EYES
}

"""Ways in which lists of reactions can be ordered upon return."""
input ReactionOrder {
  """The field in which to order reactions by."""
  field: ReactionOrderField!
  """The direction in which to order reactions by the specified field."""
  direction: OrderDirection!
}

"""A list of fields that reactions can be ordered by."""
enum ReactionOrderField {
  """Allows ordering a list of reactions by when they were created."""
  CREATED_AT
}

"""A list of reactions that have been left on the subject."""
type ReactionConnection {
  """A list of edges."""
  edges: [ReactionEdge]
  """A list of nodes."""
  nodes: [Reaction]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
  """Whether or not the authenticated user has left a reaction on the subject."""
  viewerHasReacted: Boolean!
}

"""An edge in a connection."""
type ReactionEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Reaction
}

"""Types that can be assigned to reactions."""
union Reactor = Organization | User

"""The connection type for Reactor."""
type ReactorConnection {
  """A list of edges."""
  edges: [ReactorEdge]
  """A list of nodes."""
  nodes: [Reactor]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents an author of a reaction."""
type ReactorEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The author of the reaction."""
  node: Reactor!
  """The moment when the user made the reaction."""
  reactedAt: DateTime!
}

"""The connection type for User."""
type ReactingUserConnection {
  """A list of edges."""
  edges: [ReactingUserEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user that's made a reaction."""
type ReactingUserEdge {
  """A cursor for use in pagination."""
  cursor: String!
  node: User!
  """The moment when the user made the reaction."""
  reactedAt: DateTime!
}

"""Autogenerated input type of AddReaction"""
input AddReactionInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the subject to modify."""
  subjectId: ID!
  """The name of the emoji to react with."""
  content: ReactionContent!
}

"""Autogenerated return type of AddReaction."""
type AddReactionPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The reaction object."""
  reaction: Reaction
  """The reaction groups for the subject."""
  reactionGroups: [ReactionGroup!]
  """The reactable subject."""
  subject: Reactable
}

"""Autogenerated input type of RemoveReaction"""
input RemoveReactionInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the subject to modify."""
  subjectId: ID!
  """The name of the emoji reaction to remove."""
  content: ReactionContent!
}

"""Autogenerated return type of RemoveReaction."""
type RemoveReactionPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The reaction object."""
  reaction: Reaction
  """The reaction groups for the subject."""
  reactionGroups: [ReactionGroup!]
  """The reactable subject."""
  subject: Reactable
}

extend type Mutation {
  """Adds a reaction to a subject."""
  addReaction(
    """Parameters for AddReaction"""
    input: AddReactionInput!
  ): AddReactionPayload
  """Removes a reaction from a subject."""
  removeReaction(
    """Parameters for RemoveReaction"""
    input: RemoveReactionInput!
  ): RemoveReactionPayload
}
`;
