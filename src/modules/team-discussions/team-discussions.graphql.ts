// Team discussions in GraphQL: TeamDiscussion, TeamDiscussionComment and Team's
// discussion(number:) and discussions. Names, types, descriptions and deprecations as in
// @octokit/graphql-schema (upstream deprecates team discussions; Wharf keeps them, as REST does).
export const teamDiscussionsTypeDefs = /* GraphQL */ `
"""A team discussion."""
type TeamDiscussion implements Comment & Deletable & Node & Reactable & UniformResourceLocatable & Updatable & UpdatableComment {
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the discussion's team."""
  authorAssociation: CommentAuthorAssociation! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The body as Markdown."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body rendered to text."""
  bodyText: String!
  """Identifies the discussion body hash."""
  bodyVersion: String! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """A list of comments on this discussion."""
  comments(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """When provided, filters the connection such that results begin with the comment with this number."""
    fromComment: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: TeamDiscussionCommentOrder
  ): TeamDiscussionCommentConnection! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The HTTP path for discussion comments"""
  commentsResourcePath: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The HTTP URL for discussion comments"""
  commentsUrl: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the TeamDiscussion object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """Whether or not the discussion is pinned."""
  isPinned: Boolean! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Whether or not the discussion is only visible to team members and organization owners."""
  isPrivate: Boolean! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """Identifies the discussion within its team."""
  number: Int! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies when the comment was published at."""
  publishedAt: DateTime
  """A list of reactions grouped by content left on the subject."""
  reactionGroups: [ReactionGroup!]
  """A list of Reactions left on the Issue."""
  reactions(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Allows filtering Reactions by emoji."""
    content: ReactionContent
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Allows specifying the order in which reactions are returned."""
    orderBy: ReactionOrder
  ): ReactionConnection!
  """The HTTP path for this discussion"""
  resourcePath: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The team that defines the context of this discussion."""
  team: Team! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The title of the discussion"""
  title: String! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this discussion"""
  url: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Check if the current viewer can delete this object."""
  viewerCanDelete: Boolean!
  """Whether or not the current viewer can pin this discussion."""
  viewerCanPin: Boolean! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Can user react to this subject"""
  viewerCanReact: Boolean!
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
  """Reasons why the current viewer can not update this comment."""
  viewerCannotUpdateReasons: [CommentCannotUpdateReason!]!
  """Did the viewer author this comment."""
  viewerDidAuthor: Boolean!
}

"""A comment on a team discussion."""
type TeamDiscussionComment implements Comment & Deletable & Node & Reactable & UniformResourceLocatable & Updatable & UpdatableComment {
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the comment's team."""
  authorAssociation: CommentAuthorAssociation! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The body as Markdown."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body rendered to text."""
  bodyText: String!
  """The current version of the body content."""
  bodyVersion: String! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The discussion this comment is about."""
  discussion: TeamDiscussion! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the TeamDiscussionComment object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """Identifies the comment number."""
  number: Int! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies when the comment was published at."""
  publishedAt: DateTime
  """A list of reactions grouped by content left on the subject."""
  reactionGroups: [ReactionGroup!]
  """A list of Reactions left on the Issue."""
  reactions(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Allows filtering Reactions by emoji."""
    content: ReactionContent
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Allows specifying the order in which reactions are returned."""
    orderBy: ReactionOrder
  ): ReactionConnection!
  """The HTTP path for this comment"""
  resourcePath: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this comment"""
  url: URI! @deprecated(reason: "The Team Discussions feature is deprecated in favor of Organization Discussions. Follow the guide at https://github.blog/changelog/2023-02-08-sunset-notice-team-discussions/ to find a suitable replacement. Removal on 2024-07-01 UTC.")
  """Check if the current viewer can delete this object."""
  viewerCanDelete: Boolean!
  """Can user react to this subject"""
  viewerCanReact: Boolean!
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
  """Reasons why the current viewer can not update this comment."""
  viewerCannotUpdateReasons: [CommentCannotUpdateReason!]!
  """Did the viewer author this comment."""
  viewerDidAuthor: Boolean!
}

"""The connection type for TeamDiscussion."""
type TeamDiscussionConnection {
  """A list of edges."""
  edges: [TeamDiscussionEdge]
  """A list of nodes."""
  nodes: [TeamDiscussion]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type TeamDiscussionEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: TeamDiscussion
}

"""The connection type for TeamDiscussionComment."""
type TeamDiscussionCommentConnection {
  """A list of edges."""
  edges: [TeamDiscussionCommentEdge]
  """A list of nodes."""
  nodes: [TeamDiscussionComment]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type TeamDiscussionCommentEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: TeamDiscussionComment
}

"""Ways in which team discussion connections can be ordered."""
input TeamDiscussionOrder {
  """The direction in which to order nodes."""
  direction: OrderDirection!
  """The field by which to order nodes."""
  field: TeamDiscussionOrderField!
}

"""Properties by which team discussion connections can be ordered."""
enum TeamDiscussionOrderField {
  """Allows chronological ordering of team discussions."""
  CREATED_AT
}

"""Ways in which team discussion comment connections can be ordered."""
input TeamDiscussionCommentOrder {
  """The direction in which to order nodes."""
  direction: OrderDirection!
  """The field by which to order nodes."""
  field: TeamDiscussionCommentOrderField!
}

"""Properties by which team discussion comment connections can be ordered."""
enum TeamDiscussionCommentOrderField {
  """Allows sequential ordering of team discussion comments (which is equivalent to chronological ordering)."""
  NUMBER
}

extend type Team {
  """Find a team discussion by its number."""
  discussion(
    """The sequence number of the discussion to find."""
    number: Int!
  ): TeamDiscussion
  """A list of team discussions."""
  discussions(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """If provided, filters discussions according to whether or not they are pinned."""
    isPinned: Boolean
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: TeamDiscussionOrder
  ): TeamDiscussionConnection!
  """The HTTP path for team discussions"""
  discussionsResourcePath: URI!
  """The HTTP URL for team discussions"""
  discussionsUrl: URI!
}
`;
