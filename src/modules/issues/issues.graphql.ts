// The issues area in GraphQL: Issue, IssueComment, Label, Milestone and the interfaces
// they share with pull requests (Comment, Labelable, Assignable, Lockable, Closable,
// Updatable, UpdatableComment, Deletable, RepositoryNode), the issue lists of
// repositories, labels, milestones and users, ISSUE search results and the issue
// mutations. Names, types and descriptions as in @octokit/graphql-schema.
// IssueOrPullRequest starts with Issue alone: the pulls area adds PullRequest to it
// (`extend union IssueOrPullRequest = PullRequest`), as it adds PullRequest to SearchResultItem.
export const issuesTypeDefs = /* GraphQL */ `
"""Represents a comment."""
interface Comment {
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the subject of the comment."""
  authorAssociation: CommentAuthorAssociation!
  """The body as Markdown."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body rendered to text."""
  bodyText: String!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the Comment object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """Identifies when the comment was published at."""
  publishedAt: DateTime
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """Did the viewer author this comment."""
  viewerDidAuthor: Boolean!
}

"""An object that can have labels assigned to it."""
interface Labelable {
  """A list of labels associated with the object."""
  labels(
    """Ordering options for labels returned from the connection."""
    orderBy: LabelOrder = {field: CREATED_AT, direction: ASC}
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): LabelConnection
}

"""An object that can have users assigned to it."""
interface Assignable {
  """A list of Users assigned to this object."""
  assignees(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): UserConnection!
}

"""An object that can be locked."""
interface Lockable {
  """Reason that the conversation was locked."""
  activeLockReason: LockReason
  """\`true\` if the object is locked"""
  locked: Boolean!
}

"""An object that can be closed"""
interface Closable {
  """Indicates if the object is closed (definition of closed may depend on type)"""
  closed: Boolean!
  """Identifies the date and time when the object was closed."""
  closedAt: DateTime
  """Indicates if the object can be closed by the viewer."""
  viewerCanClose: Boolean!
  """Indicates if the object can be reopened by the viewer."""
  viewerCanReopen: Boolean!
}

"""Entities that can be updated."""
interface Updatable {
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
}

"""Comments that can be updated."""
interface UpdatableComment {
  """Reasons why the current viewer can not update this comment."""
  viewerCannotUpdateReasons: [CommentCannotUpdateReason!]!
}

"""Entities that can be deleted."""
interface Deletable {
  """Check if the current viewer can delete this object."""
  viewerCanDelete: Boolean!
}

"""Represents a object that belongs to a repository."""
interface RepositoryNode {
  """The repository associated with this node."""
  repository: Repository!
}

"""An Issue is a place to discuss ideas, enhancements, tasks, and bugs for a project."""
type Issue implements Assignable & Closable & Comment & Deletable & Labelable & Lockable & Node & Reactable & RepositoryNode & UniformResourceLocatable & Updatable & UpdatableComment {
  """Reason that the conversation was locked."""
  activeLockReason: LockReason
  """A list of Users assigned to this object."""
  assignees(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): UserConnection!
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the subject of the comment."""
  authorAssociation: CommentAuthorAssociation!
  """Identifies the body of the issue."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The http path for this issue body"""
  bodyResourcePath: URI!
  """Identifies the body of the issue rendered to text."""
  bodyText: String!
  """The http URL for this issue body"""
  bodyUrl: URI!
  """Indicates if the object is closed (definition of closed may depend on type)"""
  closed: Boolean!
  """Identifies the date and time when the object was closed."""
  closedAt: DateTime
  """A list of comments associated with the Issue."""
  comments(
    """Ordering options for issue comments returned from the connection."""
    orderBy: IssueCommentOrder
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueCommentConnection!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the Issue object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """A list of labels associated with the object."""
  labels(
    """Ordering options for labels returned from the connection."""
    orderBy: LabelOrder = {field: CREATED_AT, direction: ASC}
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): LabelConnection
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """\`true\` if the object is locked"""
  locked: Boolean!
  """Identifies the milestone associated with the issue."""
  milestone: Milestone
  """Identifies the issue number."""
  number: Int!
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
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Allows filtering Reactions by emoji."""
    content: ReactionContent
    """Allows specifying the order in which reactions are returned."""
    orderBy: ReactionOrder
  ): ReactionConnection!
  """The repository associated with this node."""
  repository: Repository!
  """The HTTP path for this issue"""
  resourcePath: URI!
  """Identifies the state of the issue."""
  state: IssueState!
  """Identifies the reason for the issue state."""
  stateReason: IssueStateReason
  """Identifies the issue title."""
  title: String!
  """Identifies the issue title rendered to HTML."""
  titleHTML: String!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this issue"""
  url: URI!
  """Indicates if the object can be closed by the viewer."""
  viewerCanClose: Boolean!
  """Check if the current viewer can delete this object."""
  viewerCanDelete: Boolean!
  """Can user react to this subject"""
  viewerCanReact: Boolean!
  """Indicates if the object can be reopened by the viewer."""
  viewerCanReopen: Boolean!
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
  """Reasons why the current viewer can not update this comment."""
  viewerCannotUpdateReasons: [CommentCannotUpdateReason!]!
  """Did the viewer author this comment."""
  viewerDidAuthor: Boolean!
}

"""Represents a comment on an Issue."""
type IssueComment implements Comment & Deletable & Node & Reactable & RepositoryNode & Updatable & UpdatableComment {
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the subject of the comment."""
  authorAssociation: CommentAuthorAssociation!
  """The body as Markdown."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body rendered to text."""
  bodyText: String!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the IssueComment object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """Identifies the issue associated with the comment."""
  issue: Issue!
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
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
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Allows filtering Reactions by emoji."""
    content: ReactionContent
    """Allows specifying the order in which reactions are returned."""
    orderBy: ReactionOrder
  ): ReactionConnection!
  """The repository associated with this node."""
  repository: Repository!
  """The HTTP path for this issue comment"""
  resourcePath: URI!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this issue comment"""
  url: URI!
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

"""A label for categorizing Issues, Pull Requests, Milestones, or Discussions with a given Repository."""
type Label implements Node {
  """Identifies the label color."""
  color: String!
  """Identifies the date and time when the label was created."""
  createdAt: DateTime
  """A brief description of this label."""
  description: String
  """The Node ID of the Label object"""
  id: ID!
  """Indicates whether or not this is a default label."""
  isDefault: Boolean!
  """A list of issues associated with this label."""
  issues(
    """Ordering options for issues returned from the connection."""
    orderBy: IssueOrder
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """A list of states to filter the issues by."""
    states: [IssueState!]
    """Filtering options for issues returned from the connection."""
    filterBy: IssueFilters
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueConnection!
  """Identifies the label name."""
  name: String!
  """The repository associated with this label."""
  repository: Repository!
  """The HTTP path for this label."""
  resourcePath: URI!
  """Identifies the date and time when the label was last updated."""
  updatedAt: DateTime
  """The HTTP URL for this label."""
  url: URI!
}

"""Represents a Milestone object on a given repository."""
type Milestone implements Closable & Node & UniformResourceLocatable {
  """Indicates if the object is closed (definition of closed may depend on type)"""
  closed: Boolean!
  """Identifies the date and time when the object was closed."""
  closedAt: DateTime
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the actor who created the milestone."""
  creator: Actor
  """Identifies the description of the milestone."""
  description: String
  """Identifies the due date of the milestone."""
  dueOn: DateTime
  """The Node ID of the Milestone object"""
  id: ID!
  """A list of issues associated with the milestone."""
  issues(
    """Ordering options for issues returned from the connection."""
    orderBy: IssueOrder
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """A list of states to filter the issues by."""
    states: [IssueState!]
    """Filtering options for issues returned from the connection."""
    filterBy: IssueFilters
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueConnection!
  """Identifies the number of the milestone."""
  number: Int!
  """Identifies the percentage complete for the milestone"""
  progressPercentage: Float!
  """The repository associated with this milestone."""
  repository: Repository!
  """The HTTP path for this milestone"""
  resourcePath: URI!
  """Identifies the state of the milestone."""
  state: MilestoneState!
  """Identifies the title of the milestone."""
  title: String!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this milestone"""
  url: URI!
  """Indicates if the object can be closed by the viewer."""
  viewerCanClose: Boolean!
  """Indicates if the object can be reopened by the viewer."""
  viewerCanReopen: Boolean!
}

"""The connection type for Issue."""
type IssueConnection {
  """A list of edges."""
  edges: [IssueEdge]
  """A list of nodes."""
  nodes: [Issue]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type IssueEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Issue
}

"""The connection type for IssueComment."""
type IssueCommentConnection {
  """A list of edges."""
  edges: [IssueCommentEdge]
  """A list of nodes."""
  nodes: [IssueComment]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type IssueCommentEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: IssueComment
}

"""The connection type for Label."""
type LabelConnection {
  """A list of edges."""
  edges: [LabelEdge]
  """A list of nodes."""
  nodes: [Label]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type LabelEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Label
}

"""The connection type for Milestone."""
type MilestoneConnection {
  """A list of edges."""
  edges: [MilestoneEdge]
  """A list of nodes."""
  nodes: [Milestone]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type MilestoneEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Milestone
}

"""Used for return value of Repository.issueOrPullRequest."""
union IssueOrPullRequest = Issue

"""The possible states of an issue."""
enum IssueState {
  """An issue that is still open"""
  OPEN
  """An issue that has been closed"""
  CLOSED
}

"""The possible state reasons of an issue."""
enum IssueStateReason {
  """An issue that has been reopened"""
  REOPENED
  """An issue that has been closed as not planned"""
  NOT_PLANNED
  """An issue that has been closed as completed"""
  COMPLETED
}

"""The possible state reasons of a closed issue."""
enum IssueClosedStateReason {
  """An issue that has been closed as completed"""
  COMPLETED
  """An issue that has been closed as not planned"""
  NOT_PLANNED
}

"""The possible reasons that an issue or pull request was locked."""
enum LockReason {
  """The issue or pull request was locked because the conversation was off-topic."""
  OFF_TOPIC
  """The issue or pull request was locked because the conversation was too heated."""
  TOO_HEATED
  """The issue or pull request was locked because the conversation was resolved."""
  RESOLVED
  """The issue or pull request was locked because the conversation was spam."""
  SPAM
}

"""Ways in which lists of issues can be ordered upon return."""
input IssueOrder {
  """The field in which to order issues by."""
  field: IssueOrderField!
  """The direction in which to order issues by the specified field."""
  direction: OrderDirection!
}

"""Properties by which issue connections can be ordered."""
enum IssueOrderField {
  """Order issues by creation time"""
  CREATED_AT
  """Order issues by update time"""
  UPDATED_AT
  """Order issues by comment count"""
  COMMENTS
}

"""Ways in which to filter lists of issues."""
input IssueFilters {
  """List issues assigned to given name. Pass in \`null\` for issues with no assigned user, and \`*\` for issues assigned to any user."""
  assignee: String
  """List issues created by given name."""
  createdBy: String
  """List issues where the list of label names exist on the issue."""
  labels: [String!]
  """List issues where the given name is mentioned in the issue."""
  mentioned: String
  """List issues by given milestone argument. If an string representation of an integer is passed, it should refer to a milestone by its database ID. Pass in \`null\` for issues with no milestone, and \`*\` for issues that are assigned to any milestone."""
  milestone: String
  """List issues by given milestone argument. If an string representation of an integer is passed, it should refer to a milestone by its number field. Pass in \`null\` for issues with no milestone, and \`*\` for issues that are assigned to any milestone."""
  milestoneNumber: String
  """List issues that have been updated at or after the given date."""
  since: DateTime
  """List issues filtered by the list of states given."""
  states: [IssueState!]
  """List issues subscribed to by viewer."""
  viewerSubscribed: Boolean = false
}

"""A comment author association with repository."""
enum CommentAuthorAssociation {
  """Author is a member of the organization that owns the repository."""
  MEMBER
  """Author is the owner of the repository."""
  OWNER
  """Author is a placeholder for an unclaimed user."""
  MANNEQUIN
  """Author has been invited to collaborate on the repository."""
  COLLABORATOR
  """Author has previously committed to the repository."""
  CONTRIBUTOR
  """Author has not previously committed to the repository."""
  FIRST_TIME_CONTRIBUTOR
  """Author has not previously committed to GitHub."""
  FIRST_TIMER
  """Author has no association with the repository."""
  NONE
}

"""The possible errors that will prevent a user from updating a comment."""
enum CommentCannotUpdateReason {
  """Unable to create comment because repository is archived."""
  ARCHIVED
  """You must be the author or have write access to this repository to update this comment."""
  INSUFFICIENT_ACCESS
  """Unable to create comment because issue is locked."""
  LOCKED
  """You must be logged in to update this comment."""
  LOGIN_REQUIRED
  """Repository is under maintenance."""
  MAINTENANCE
  """At least one email address must be verified to update this comment."""
  VERIFIED_EMAIL_REQUIRED
  """You cannot update this comment"""
  DENIED
}

"""The possible states of a milestone."""
enum MilestoneState {
  """A milestone that is still open."""
  OPEN
  """A milestone that has been closed."""
  CLOSED
}

"""Ways in which lists of labels can be ordered upon return."""
input LabelOrder {
  """The field in which to order labels by."""
  field: LabelOrderField!
  """The direction in which to order labels by the specified field."""
  direction: OrderDirection!
}

"""Properties by which label connections can be ordered."""
enum LabelOrderField {
  """Order labels by name """
  NAME
  """Order labels by creation time"""
  CREATED_AT
}

"""Ordering options for milestone connections."""
input MilestoneOrder {
  """The field to order milestones by."""
  field: MilestoneOrderField!
  """The ordering direction."""
  direction: OrderDirection!
}

"""Properties by which milestone connections can be ordered."""
enum MilestoneOrderField {
  """Order milestones by when they are due."""
  DUE_DATE
  """Order milestones by when they were created."""
  CREATED_AT
  """Order milestones by when they were last updated."""
  UPDATED_AT
  """Order milestones by their number."""
  NUMBER
}

"""Ways in which lists of issue comments can be ordered upon return."""
input IssueCommentOrder {
  """The field in which to order issue comments by."""
  field: IssueCommentOrderField!
  """The direction in which to order issue comments by the specified field."""
  direction: OrderDirection!
}

"""Properties by which issue comment connections can be ordered."""
enum IssueCommentOrderField {
  """Order issue comments by update time"""
  UPDATED_AT
}

"""Autogenerated input type of CreateIssue"""
input CreateIssueInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the repository."""
  repositoryId: ID!
  """The title for the issue."""
  title: String!
  """The body for the issue description."""
  body: String
  """The Node ID for the user assignee for this issue."""
  assigneeIds: [ID!]
  """The Node ID of the milestone for this issue."""
  milestoneId: ID
  """An array of Node IDs of labels for this issue."""
  labelIds: [ID!]
  """The name of an issue template in the repository, assigns labels and assignees from the template to the issue"""
  issueTemplate: String
}

"""Autogenerated return type of CreateIssue."""
type CreateIssuePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The new issue."""
  issue: Issue
}

"""Autogenerated input type of UpdateIssue"""
input UpdateIssueInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The ID of the Issue to modify."""
  id: ID!
  """The title for the issue."""
  title: String
  """The body for the issue description."""
  body: String
  """An array of Node IDs of users for this issue."""
  assigneeIds: [ID!]
  """The Node ID of the milestone for this issue."""
  milestoneId: ID
  """An array of Node IDs of labels for this issue."""
  labelIds: [ID!]
  """The desired issue state."""
  state: IssueState
}

"""Autogenerated return type of UpdateIssue."""
type UpdateIssuePayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The issue."""
  issue: Issue
}

"""Autogenerated input type of CloseIssue"""
input CloseIssueInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the issue to be closed."""
  issueId: ID!
  """The reason the issue is to be closed."""
  stateReason: IssueClosedStateReason
}

"""Autogenerated return type of CloseIssue."""
type CloseIssuePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The issue that was closed."""
  issue: Issue
}

"""Autogenerated input type of ReopenIssue"""
input ReopenIssueInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the issue to be opened."""
  issueId: ID!
}

"""Autogenerated return type of ReopenIssue."""
type ReopenIssuePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The issue that was opened."""
  issue: Issue
}

"""Autogenerated input type of AddComment"""
input AddCommentInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the subject to modify."""
  subjectId: ID!
  """The contents of the comment."""
  body: String!
}

"""Autogenerated return type of AddComment."""
type AddCommentPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The edge from the subject's comment connection."""
  commentEdge: IssueCommentEdge
  """The subject"""
  subject: Node
}

"""Autogenerated input type of UpdateIssueComment"""
input UpdateIssueCommentInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The ID of the IssueComment to modify."""
  id: ID!
  """The updated text of the comment."""
  body: String!
}

"""Autogenerated return type of UpdateIssueComment."""
type UpdateIssueCommentPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The updated comment."""
  issueComment: IssueComment
}

"""Autogenerated input type of DeleteIssueComment"""
input DeleteIssueCommentInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The ID of the comment to delete."""
  id: ID!
}

"""Autogenerated return type of DeleteIssueComment."""
type DeleteIssueCommentPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
}

"""Autogenerated input type of AddLabelsToLabelable"""
input AddLabelsToLabelableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The id of the labelable object to add labels to."""
  labelableId: ID!
  """The ids of the labels to add."""
  labelIds: [ID!]!
}

"""Autogenerated return type of AddLabelsToLabelable."""
type AddLabelsToLabelablePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The item that was labeled."""
  labelable: Labelable
}

"""Autogenerated input type of RemoveLabelsFromLabelable"""
input RemoveLabelsFromLabelableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The id of the Labelable to remove labels from."""
  labelableId: ID!
  """The ids of labels to remove."""
  labelIds: [ID!]!
}

"""Autogenerated return type of RemoveLabelsFromLabelable."""
type RemoveLabelsFromLabelablePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Labelable the labels were removed from."""
  labelable: Labelable
}

"""Autogenerated input type of AddAssigneesToAssignable"""
input AddAssigneesToAssignableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The id of the assignable object to add assignees to."""
  assignableId: ID!
  """The id of users to add as assignees."""
  assigneeIds: [ID!]!
}

"""Autogenerated return type of AddAssigneesToAssignable."""
type AddAssigneesToAssignablePayload {
  """The item that was assigned."""
  assignable: Assignable
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
}

"""Autogenerated input type of RemoveAssigneesFromAssignable"""
input RemoveAssigneesFromAssignableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The id of the assignable object to remove assignees from."""
  assignableId: ID!
  """The id of users to remove as assignees."""
  assigneeIds: [ID!]!
}

"""Autogenerated return type of RemoveAssigneesFromAssignable."""
type RemoveAssigneesFromAssignablePayload {
  """The item that was unassigned."""
  assignable: Assignable
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
}

"""Autogenerated input type of LockLockable"""
input LockLockableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the item to be locked."""
  lockableId: ID!
  """A reason for why the item will be locked."""
  lockReason: LockReason
}

"""Autogenerated return type of LockLockable."""
type LockLockablePayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The item that was locked."""
  lockedRecord: Lockable
}

"""Autogenerated input type of UnlockLockable"""
input UnlockLockableInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the item to be unlocked."""
  lockableId: ID!
}

"""Autogenerated return type of UnlockLockable."""
type UnlockLockablePayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The item that was unlocked."""
  unlockedRecord: Lockable
}

extend type Repository {
  """A list of users that can be assigned to issues in this repository."""
  assignableUsers(
    """Filters users with query on user name and login."""
    query: String
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): UserConnection!
  """Returns a single issue from the current repository by number."""
  issue(
    """The number for the issue to be returned."""
    number: Int!
  ): Issue
  """Returns a single issue-like object from the current repository by number."""
  issueOrPullRequest(
    """The number for the issue to be returned."""
    number: Int!
  ): IssueOrPullRequest
  """A list of issues that have been opened in the repository."""
  issues(
    """Ordering options for issues returned from the connection."""
    orderBy: IssueOrder
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """A list of states to filter the issues by."""
    states: [IssueState!]
    """Filtering options for issues returned from the connection."""
    filterBy: IssueFilters
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueConnection!
  """Returns a single label by name"""
  label(
    """Label name"""
    name: String!
  ): Label
  """A list of labels associated with the repository."""
  labels(
    """Ordering options for labels returned from the connection."""
    orderBy: LabelOrder = {field: CREATED_AT, direction: ASC}
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """If provided, searches labels by name and description."""
    query: String
  ): LabelConnection
  """Returns a single milestone from the current repository by number."""
  milestone(
    """The number for the milestone to be returned."""
    number: Int!
  ): Milestone
  """A list of milestones associated with the repository."""
  milestones(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Filter by the state of the milestones."""
    states: [MilestoneState!]
    """Ordering options for milestones."""
    orderBy: MilestoneOrder
    """Filters milestones with a query on the title"""
    query: String
  ): MilestoneConnection
}

extend type User {
  """A list of issues associated with this user."""
  issues(
    """Ordering options for issues returned from the connection."""
    orderBy: IssueOrder
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """A list of states to filter the issues by."""
    states: [IssueState!]
    """Filtering options for issues returned from the connection."""
    filterBy: IssueFilters
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueConnection!
}

extend type Mutation {
  """Adds assignees to an assignable object."""
  addAssigneesToAssignable(
    """Parameters for AddAssigneesToAssignable"""
    input: AddAssigneesToAssignableInput!
  ): AddAssigneesToAssignablePayload
  """Adds a comment to an Issue or Pull Request."""
  addComment(
    """Parameters for AddComment"""
    input: AddCommentInput!
  ): AddCommentPayload
  """Adds labels to a labelable object."""
  addLabelsToLabelable(
    """Parameters for AddLabelsToLabelable"""
    input: AddLabelsToLabelableInput!
  ): AddLabelsToLabelablePayload
  """Close an issue."""
  closeIssue(
    """Parameters for CloseIssue"""
    input: CloseIssueInput!
  ): CloseIssuePayload
  """Creates a new issue."""
  createIssue(
    """Parameters for CreateIssue"""
    input: CreateIssueInput!
  ): CreateIssuePayload
  """Deletes an IssueComment object."""
  deleteIssueComment(
    """Parameters for DeleteIssueComment"""
    input: DeleteIssueCommentInput!
  ): DeleteIssueCommentPayload
  """Lock a lockable object"""
  lockLockable(
    """Parameters for LockLockable"""
    input: LockLockableInput!
  ): LockLockablePayload
  """Removes assignees from an assignable object."""
  removeAssigneesFromAssignable(
    """Parameters for RemoveAssigneesFromAssignable"""
    input: RemoveAssigneesFromAssignableInput!
  ): RemoveAssigneesFromAssignablePayload
  """Removes labels from a Labelable object."""
  removeLabelsFromLabelable(
    """Parameters for RemoveLabelsFromLabelable"""
    input: RemoveLabelsFromLabelableInput!
  ): RemoveLabelsFromLabelablePayload
  """Reopen a issue."""
  reopenIssue(
    """Parameters for ReopenIssue"""
    input: ReopenIssueInput!
  ): ReopenIssuePayload
  """Unlock a lockable object"""
  unlockLockable(
    """Parameters for UnlockLockable"""
    input: UnlockLockableInput!
  ): UnlockLockablePayload
  """Updates an Issue."""
  updateIssue(
    """Parameters for UpdateIssue"""
    input: UpdateIssueInput!
  ): UpdateIssuePayload
  """Updates an IssueComment object."""
  updateIssueComment(
    """Parameters for UpdateIssueComment"""
    input: UpdateIssueCommentInput!
  ): UpdateIssueCommentPayload
}

extend enum SearchType {
  """Returns results matching issues in repositories."""
  ISSUE
}

extend union SearchResultItem = Issue
`;
