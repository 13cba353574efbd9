// The pull requests area in GraphQL: PullRequest with its commits, files, reviews,
// review comments and review requests; Repository.pullRequest(s), User.pullRequests;
// the pull request mutations. Names, types and descriptions as in
// @octokit/graphql-schema. PullRequest shares the issues area's interfaces (Comment,
// Labelable, Assignable, Lockable, Closable …) and joins its IssueOrPullRequest union.
export const pullsTypeDefs = /* GraphQL */ `
"""A repository pull request."""
type PullRequest implements Assignable & Closable & Comment & Labelable & Lockable & Node & Reactable & RepositoryNode & UniformResourceLocatable & Updatable & UpdatableComment {
  """Reason that the conversation was locked."""
  activeLockReason: LockReason
  """The number of additions in this pull request."""
  additions: Int!
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
  """Identifies the base Ref associated with the pull request."""
  baseRef: Ref
  """Identifies the name of the base Ref associated with the pull request, even if the ref has been deleted."""
  baseRefName: String!
  """Identifies the oid of the base ref associated with the pull request, even if the ref has been deleted."""
  baseRefOid: GitObjectID!
  """The repository associated with this pull request's base Ref."""
  baseRepository: Repository
  """The body as Markdown."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body rendered to text."""
  bodyText: String!
  """Whether or not the pull request is rebaseable."""
  canBeRebased: Boolean!
  """The number of changed files in this pull request."""
  changedFiles: Int!
  """\`true\` if the pull request is closed"""
  closed: Boolean!
  """Identifies the date and time when the object was closed."""
  closedAt: DateTime
  """A list of comments associated with the pull request."""
  comments(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Ordering options for issue comments returned from the connection."""
    orderBy: IssueCommentOrder
  ): IssueCommentConnection!
  """A list of commits present in this pull request's head branch not present in the base branch."""
  commits(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): PullRequestCommitConnection!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int @deprecated(reason: "\`databaseId\` will be removed because it does not support 64-bit signed integer identifiers. Use \`fullDatabaseId\` instead. Removal on 2024-07-01 UTC.")
  """The number of deletions in this pull request."""
  deletions: Int!
  """The actor who edited this pull request's body."""
  editor: Actor
  """Lists the files changed within this pull request."""
  files(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): PullRequestChangedFileConnection
  """Identifies the head Ref associated with the pull request."""
  headRef: Ref
  """Identifies the name of the head Ref associated with the pull request, even if the ref has been deleted."""
  headRefName: String!
  """Identifies the oid of the head ref associated with the pull request, even if the ref has been deleted."""
  headRefOid: GitObjectID!
  """The repository associated with this pull request's head Ref."""
  headRepository: Repository
  """The owner of the repository associated with this pull request's head Ref."""
  headRepositoryOwner: RepositoryOwner
  """The Node ID of the PullRequest object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """The head and base repositories are different."""
  isCrossRepository: Boolean!
  """Identifies if the pull request is a draft."""
  isDraft: Boolean!
  """A list of labels associated with the object."""
  labels(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Ordering options for labels returned from the connection."""
    orderBy: LabelOrder = {field: CREATED_AT, direction: ASC}
  ): LabelConnection
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """A list of latest reviews per user associated with the pull request that are not also pending review."""
  latestReviews(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): PullRequestReviewConnection
  """\`true\` if the pull request is locked"""
  locked: Boolean!
  """Indicates whether maintainers can modify the pull request."""
  maintainerCanModify: Boolean!
  """The commit that was created when this pull request was merged."""
  mergeCommit: Commit
  """Whether or not the pull request can be merged based on the existence of merge conflicts."""
  mergeable: MergeableState!
  """Detailed information about the current pull request merge state status."""
  mergeStateStatus: MergeStateStatus!
  """Whether or not the pull request was merged."""
  merged: Boolean!
  """The date and time that the pull request was merged."""
  mergedAt: DateTime
  """The actor who merged the pull request."""
  mergedBy: Actor
  """Identifies the milestone associated with the pull request."""
  milestone: Milestone
  """Identifies the pull request number."""
  number: Int!
  """The permalink to the pull request."""
  permalink: URI!
  """The commit that GitHub automatically generated to test if this pull request could be merged. This field will not return a value if the pull request is merged, or if the test merge commit is still being generated. See the \`mergeable\` field for more details on the mergeability of the pull request."""
  potentialMergeCommit: Commit
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
  """The repository associated with this node."""
  repository: Repository!
  """The HTTP path for this pull request."""
  resourcePath: URI!
  """The current status of this pull request with respect to code review."""
  reviewDecision: PullRequestReviewDecision
  """A list of review requests associated with the pull request."""
  reviewRequests(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ReviewRequestConnection
  """A list of reviews associated with the pull request."""
  reviews(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Filter by author of the review."""
    author: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """A list of states to filter the reviews."""
    states: [PullRequestReviewState!]
  ): PullRequestReviewConnection
  """Identifies the state of the pull request."""
  state: PullRequestState!
  """Identifies the pull request title."""
  title: String!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this pull request."""
  url: URI!
  """Indicates if the object can be closed by the viewer."""
  viewerCanClose: Boolean!
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
  """The latest review given from the viewer."""
  viewerLatestReview: PullRequestReview
}

"""The connection type for PullRequest."""
type PullRequestConnection {
  """A list of edges."""
  edges: [PullRequestEdge]
  """A list of nodes."""
  nodes: [PullRequest]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type PullRequestEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: PullRequest
}

"""The possible states of a pull request."""
enum PullRequestState {
  """A pull request that has been closed without being merged."""
  CLOSED
  """A pull request that has been closed by being merged."""
  MERGED
  """A pull request that is still open."""
  OPEN
}

"""Whether or not a PullRequest can be merged."""
enum MergeableState {
  """The pull request cannot be merged due to merge conflicts."""
  CONFLICTING
  """The pull request can be merged."""
  MERGEABLE
  """The mergeability of the pull request is still being calculated."""
  UNKNOWN
}

"""Represents a Git commit part of a pull request."""
type PullRequestCommit implements Node & UniformResourceLocatable {
  """The Git commit object"""
  commit: Commit!
  """The Node ID of the PullRequestCommit object"""
  id: ID!
  """The pull request this commit belongs to"""
  pullRequest: PullRequest!
  """The HTTP path for this pull request commit"""
  resourcePath: URI!
  """The HTTP URL for this pull request commit"""
  url: URI!
}

"""The connection type for PullRequestCommit."""
type PullRequestCommitConnection {
  """A list of edges."""
  edges: [PullRequestCommitEdge]
  """A list of nodes."""
  nodes: [PullRequestCommit]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type PullRequestCommitEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: PullRequestCommit
}

"""A file changed in a pull request."""
type PullRequestChangedFile {
  """The number of additions to the file."""
  additions: Int!
  """How the file was changed in this PullRequest"""
  changeType: PatchStatus!
  """The number of deletions to the file."""
  deletions: Int!
  """The path of the file."""
  path: String!
}

"""The connection type for PullRequestChangedFile."""
type PullRequestChangedFileConnection {
  """A list of edges."""
  edges: [PullRequestChangedFileEdge]
  """A list of nodes."""
  nodes: [PullRequestChangedFile]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type PullRequestChangedFileEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: PullRequestChangedFile
}

"""The possible types of patch statuses."""
enum PatchStatus {
  """The file was added. Git status 'A'."""
  ADDED
  """The file's type was changed. Git status 'T'."""
  CHANGED
  """The file was copied. Git status 'C'."""
  COPIED
  """The file was deleted. Git status 'D'."""
  DELETED
  """The file's contents were changed. Git status 'M'."""
  MODIFIED
  """The file was renamed. Git status 'R'."""
  RENAMED
}

"""A review object for a given pull request."""
type PullRequestReview implements Comment & Deletable & Node & Reactable & RepositoryNode & Updatable & UpdatableComment {
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
  """Can user react to this subject"""
  viewerCanReact: Boolean!
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the subject of the comment."""
  authorAssociation: CommentAuthorAssociation!
  """Identifies the pull request review body."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The body of this review rendered as plain text."""
  bodyText: String!
  """A list of review comments for the current pull request review."""
  comments(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): PullRequestReviewCommentConnection!
  """Identifies the commit associated with this pull request review."""
  commit: Commit
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int @deprecated(reason: "\`databaseId\` will be removed because it does not support 64-bit signed integer identifiers. Use \`fullDatabaseId\` instead. Removal on 2024-07-01 UTC.")
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the PullRequestReview object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """Identifies when the comment was published at."""
  publishedAt: DateTime
  """Identifies the pull request associated with this pull request review."""
  pullRequest: PullRequest!
  """The repository associated with this node."""
  repository: Repository!
  """The HTTP path permalink for this PullRequestReview."""
  resourcePath: URI!
  """Identifies the current state of the pull request review."""
  state: PullRequestReviewState!
  """Identifies when the Pull Request Review was submitted"""
  submittedAt: DateTime
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL permalink for this PullRequestReview."""
  url: URI!
  """Check if the current viewer can delete this object."""
  viewerCanDelete: Boolean!
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
  """Reasons why the current viewer can not update this comment."""
  viewerCannotUpdateReasons: [CommentCannotUpdateReason!]!
  """Did the viewer author this comment."""
  viewerDidAuthor: Boolean!
}

"""The connection type for PullRequestReview."""
type PullRequestReviewConnection {
  """A list of edges."""
  edges: [PullRequestReviewEdge]
  """A list of nodes."""
  nodes: [PullRequestReview]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type PullRequestReviewEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: PullRequestReview
}

"""A review comment associated with a given repository pull request."""
type PullRequestReviewComment implements Comment & Deletable & Node & Reactable & RepositoryNode & Updatable & UpdatableComment {
  """The actor who authored the comment."""
  author: Actor
  """Author's association with the subject of the comment."""
  authorAssociation: CommentAuthorAssociation!
  """The comment body of this review comment."""
  body: String!
  """The body rendered to HTML."""
  bodyHTML: HTML!
  """The comment body of this review comment rendered as plain text."""
  bodyText: String!
  """Identifies the commit associated with the comment."""
  commit: Commit
  """Identifies when the comment was created."""
  createdAt: DateTime!
  """Check if this comment was created via an email reply."""
  createdViaEmail: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int @deprecated(reason: "\`databaseId\` will be removed because it does not support 64-bit signed integer identifiers. Use \`fullDatabaseId\` instead. Removal on 2024-07-01 UTC.")
  """The diff hunk to which the comment applies."""
  diffHunk: String!
  """The actor who edited the comment."""
  editor: Actor
  """The Node ID of the PullRequestReviewComment object"""
  id: ID!
  """Check if this comment was edited and includes an edit with the creation data"""
  includesCreatedEdit: Boolean!
  """The moment the editor made the last edit"""
  lastEditedAt: DateTime
  """The end line number on the file to which the comment applies"""
  line: Int
  """Identifies the original commit associated with the comment."""
  originalCommit: Commit
  """The end line number on the file to which the comment applied when it was first created"""
  originalLine: Int
  """The start line number on the file to which the comment applied when it was first created"""
  originalStartLine: Int
  """Identifies when the comment body is outdated"""
  outdated: Boolean!
  """The path to which the comment applies."""
  path: String!
  """Identifies when the comment was published at."""
  publishedAt: DateTime
  """The pull request associated with this review comment."""
  pullRequest: PullRequest!
  """The pull request review associated with this review comment."""
  pullRequestReview: PullRequestReview
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
  """The comment this is a reply to."""
  replyTo: PullRequestReviewComment
  """The repository associated with this node."""
  repository: Repository!
  """The HTTP path permalink for this review comment."""
  resourcePath: URI!
  """The start line number on the file to which the comment applies"""
  startLine: Int
  """Identifies the state of the comment."""
  state: PullRequestReviewCommentState!
  """The level at which the comments in the corresponding thread are targeted, can be a diff line or a file"""
  subjectType: PullRequestReviewThreadSubjectType!
  """Identifies when the comment was last updated."""
  updatedAt: DateTime!
  """The HTTP URL permalink for this review comment."""
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

"""The connection type for PullRequestReviewComment."""
type PullRequestReviewCommentConnection {
  """A list of edges."""
  edges: [PullRequestReviewCommentEdge]
  """A list of nodes."""
  nodes: [PullRequestReviewComment]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type PullRequestReviewCommentEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: PullRequestReviewComment
}

"""The possible states of a pull request review comment."""
enum PullRequestReviewCommentState {
  """A comment that is part of a pending review"""
  PENDING
  """A comment that is part of a submitted review"""
  SUBMITTED
}

"""The possible subject types of a pull request review comment."""
enum PullRequestReviewThreadSubjectType {
  """A comment that has been made against the file of a pull request"""
  FILE
  """A comment that has been made against the line of a pull request"""
  LINE
}

"""The possible states of a pull request review."""
enum PullRequestReviewState {
  """A review allowing the pull request to merge."""
  APPROVED
  """A review blocking the pull request from merging."""
  CHANGES_REQUESTED
  """An informational review."""
  COMMENTED
  """A review that has been dismissed."""
  DISMISSED
  """A review that has not yet been submitted."""
  PENDING
}

"""The review status of a pull request."""
enum PullRequestReviewDecision {
  """The pull request has received an approving review."""
  APPROVED
  """Changes have been requested on the pull request."""
  CHANGES_REQUESTED
  """A review is required before the pull request can be merged."""
  REVIEW_REQUIRED
}

"""The possible events to perform on a pull request review."""
enum PullRequestReviewEvent {
  """Submit feedback and approve merging these changes."""
  APPROVE
  """Submit general feedback without explicit approval."""
  COMMENT
  """Dismiss review so it now longer effects merging."""
  DISMISS
  """Submit feedback that must be addressed before merging."""
  REQUEST_CHANGES
}

"""A request for a user to review a pull request."""
type ReviewRequest implements Node {
  """Whether this request was created for a code owner"""
  asCodeOwner: Boolean!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the ReviewRequest object"""
  id: ID!
  """Identifies the pull request associated with this review request."""
  pullRequest: PullRequest!
  """The reviewer that is requested."""
  requestedReviewer: RequestedReviewer
}

"""The connection type for ReviewRequest."""
type ReviewRequestConnection {
  """A list of edges."""
  edges: [ReviewRequestEdge]
  """A list of nodes."""
  nodes: [ReviewRequest]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type ReviewRequestEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: ReviewRequest
}

"""Represents available types of methods to use when merging a pull request."""
enum PullRequestMergeMethod {
  """Add all commits from the head branch to the base branch with a merge commit."""
  MERGE
  """Add all commits from the head branch onto the base branch individually."""
  REBASE
  """Combine all commits from the head branch into a single commit in the base branch."""
  SQUASH
}

"""The possible target states when updating a pull request."""
enum PullRequestUpdateState {
  """A pull request that has been closed without being merged."""
  CLOSED
  """A pull request that is still open."""
  OPEN
}

"""The possible sides of a diff."""
enum DiffSide {
  """The left side of the diff."""
  LEFT
  """The right side of the diff."""
  RIGHT
}

"""Autogenerated input type of CreatePullRequest"""
input CreatePullRequestInput {
  """The name of the branch you want your changes pulled into. This should be an existing branch on the current repository. You cannot update the base branch on a pull request to point to another repository."""
  baseRefName: String!
  """The contents of the pull request."""
  body: String
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Indicates whether this pull request should be a draft."""
  draft: Boolean = false
  """The name of the branch where your changes are implemented. For cross-repository pull requests in the same network, namespace \`head_ref_name\` with a user like this: \`username:branch\`."""
  headRefName: String!
  """The Node ID of the head repository."""
  headRepositoryId: ID
  """Indicates whether maintainers can modify the pull request."""
  maintainerCanModify: Boolean = true
  """The Node ID of the repository."""
  repositoryId: ID!
  """The title of the pull request."""
  title: String!
}

"""Autogenerated return type of CreatePullRequest."""
type CreatePullRequestPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The new pull request."""
  pullRequest: PullRequest
}

"""Autogenerated input type of UpdatePullRequest"""
input UpdatePullRequestInput {
  """An array of Node IDs for projects associated with this pull request."""
  projectIds: [ID!]
  """An array of Node IDs of users for this pull request."""
  assigneeIds: [ID!]
  """The name of the branch you want your changes pulled into. This should be an existing branch on the current repository."""
  baseRefName: String
  """The contents of the pull request."""
  body: String
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """An array of Node IDs of labels for this pull request."""
  labelIds: [ID!]
  """Indicates whether maintainers can modify the pull request."""
  maintainerCanModify: Boolean
  """The Node ID of the milestone for this pull request."""
  milestoneId: ID
  """The Node ID of the pull request."""
  pullRequestId: ID!
  """The target state of the pull request."""
  state: PullRequestUpdateState
  """The title of the pull request."""
  title: String
}

"""Autogenerated return type of UpdatePullRequest."""
type UpdatePullRequestPayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The updated pull request."""
  pullRequest: PullRequest
}

"""Autogenerated input type of MergePullRequest"""
input MergePullRequestInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Commit body to use for the merge commit; if omitted, a default message will be used"""
  commitBody: String
  """Commit headline to use for the merge commit; if omitted, a default message will be used."""
  commitHeadline: String
  """OID that the pull request head ref must match to allow merge; if omitted, no check is performed."""
  expectedHeadOid: GitObjectID
  """The merge method to use. If omitted, defaults to 'MERGE'"""
  mergeMethod: PullRequestMergeMethod = MERGE
  """ID of the pull request to be merged."""
  pullRequestId: ID!
}

"""Autogenerated return type of MergePullRequest."""
type MergePullRequestPayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that was merged."""
  pullRequest: PullRequest
}

"""Autogenerated input type of ClosePullRequest"""
input ClosePullRequestInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the pull request to be closed."""
  pullRequestId: ID!
}

"""Autogenerated return type of ClosePullRequest."""
type ClosePullRequestPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that was closed."""
  pullRequest: PullRequest
}

"""Autogenerated input type of ReopenPullRequest"""
input ReopenPullRequestInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the pull request to be reopened."""
  pullRequestId: ID!
}

"""Autogenerated return type of ReopenPullRequest."""
type ReopenPullRequestPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that was reopened."""
  pullRequest: PullRequest
}

"""Autogenerated input type of RequestReviews"""
input RequestReviewsInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the pull request to modify."""
  pullRequestId: ID!
  """The Node IDs of the team to request."""
  teamIds: [ID!]
  """Add users to the set rather than replace."""
  union: Boolean = false
  """The Node IDs of the user to request."""
  userIds: [ID!]
}

"""Autogenerated return type of RequestReviews."""
type RequestReviewsPayload {
  """Identifies the actor who performed the event."""
  actor: Actor
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that is getting requests."""
  pullRequest: PullRequest
  """The edge from the pull request to the requested reviewers."""
  requestedReviewersEdge: UserEdge
}

"""Autogenerated input type of AddPullRequestReview"""
input AddPullRequestReviewInput {
  """The contents of the review body comment."""
  body: String
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The review line comments.  **Upcoming Change on 2023-10-01 UTC** **Description:** \`comments\` will be removed. use the \`threads\` argument instead **Reason:** We are deprecating comment fields that use diff-relative positioning"""
  comments: [DraftPullRequestReviewComment]
  """The commit OID the review pertains to."""
  commitOID: GitObjectID
  """The event to perform on the pull request review."""
  event: PullRequestReviewEvent
  """The Node ID of the pull request to modify."""
  pullRequestId: ID!
  """The review line comment threads."""
  threads: [DraftPullRequestReviewThread]
}

"""Autogenerated return type of AddPullRequestReview."""
type AddPullRequestReviewPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The newly created pull request review."""
  pullRequestReview: PullRequestReview
  """The edge from the pull request's review connection."""
  reviewEdge: PullRequestReviewEdge
}

"""Specifies a review comment to be left with a Pull Request Review."""
input DraftPullRequestReviewComment {
  """Body of the comment to leave."""
  body: String!
  """Path to the file being commented on."""
  path: String!
  """Position in the file to leave a comment on."""
  position: Int!
}

"""Specifies a review comment thread to be left with a Pull Request Review."""
input DraftPullRequestReviewThread {
  """Body of the comment to leave."""
  body: String!
  """The line of the blob to which the thread refers. The end of the line range for multi-line comments."""
  line: Int!
  """Path to the file being commented on."""
  path: String!
  """The side of the diff on which the line resides. For multi-line comments, this is the side for the end of the line range."""
  side: DiffSide = RIGHT
  """The first line of the range to which the comment refers."""
  startLine: Int
  """The side of the diff on which the start line resides."""
  startSide: DiffSide = RIGHT
}

"""Autogenerated input type of SubmitPullRequestReview"""
input SubmitPullRequestReviewInput {
  """The text field to set on the Pull Request Review."""
  body: String
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The event to send to the Pull Request Review."""
  event: PullRequestReviewEvent!
  """The Pull Request ID to submit any pending reviews."""
  pullRequestId: ID
  """The Pull Request Review ID to submit."""
  pullRequestReviewId: ID
}

"""Autogenerated return type of SubmitPullRequestReview."""
type SubmitPullRequestReviewPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The submitted pull request review."""
  pullRequestReview: PullRequestReview
}

"""Autogenerated input type of MarkPullRequestReadyForReview"""
input MarkPullRequestReadyForReviewInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the pull request to be marked as ready for review."""
  pullRequestId: ID!
}

"""Autogenerated return type of MarkPullRequestReadyForReview."""
type MarkPullRequestReadyForReviewPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that is ready for review."""
  pullRequest: PullRequest
}

"""Autogenerated input type of ConvertPullRequestToDraft"""
input ConvertPullRequestToDraftInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """ID of the pull request to convert to draft"""
  pullRequestId: ID!
}

"""Autogenerated return type of ConvertPullRequestToDraft."""
type ConvertPullRequestToDraftPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The pull request that is now a draft."""
  pullRequest: PullRequest
}

extend type Repository {
  """Returns a single pull request from the current repository by number."""
  pullRequest(
    """The number for the pull request to be returned."""
    number: Int!
  ): PullRequest
  """A list of pull requests that have been opened in the repository."""
  pullRequests(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """The base ref name to filter the pull requests by."""
    baseRefName: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """The head ref name to filter the pull requests by."""
    headRefName: String
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """Returns the last _n_ elements from the list."""
    last: Int
    """Ordering options for pull requests returned from the connection."""
    orderBy: IssueOrder
    """A list of states to filter the pull requests by."""
    states: [PullRequestState!]
  ): PullRequestConnection!
}

extend type User {
  """A list of pull requests associated with this user."""
  pullRequests(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """The base ref name to filter the pull requests by."""
    baseRefName: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """The head ref name to filter the pull requests by."""
    headRefName: String
    """A list of label names to filter the pull requests by."""
    labels: [String!]
    """Returns the last _n_ elements from the list."""
    last: Int
    """Ordering options for pull requests returned from the connection."""
    orderBy: IssueOrder
    """A list of states to filter the pull requests by."""
    states: [PullRequestState!]
  ): PullRequestConnection!
}

extend type Mutation {
  """Adds a review to a Pull Request."""
  addPullRequestReview(
    """Parameters for AddPullRequestReview"""
    input: AddPullRequestReviewInput!
  ): AddPullRequestReviewPayload
  """Close a pull request."""
  closePullRequest(
    """Parameters for ClosePullRequest"""
    input: ClosePullRequestInput!
  ): ClosePullRequestPayload
  """Converts a pull request to draft"""
  convertPullRequestToDraft(
    """Parameters for ConvertPullRequestToDraft"""
    input: ConvertPullRequestToDraftInput!
  ): ConvertPullRequestToDraftPayload
  """Create a new pull request"""
  createPullRequest(
    """Parameters for CreatePullRequest"""
    input: CreatePullRequestInput!
  ): CreatePullRequestPayload
  """Marks a pull request ready for review."""
  markPullRequestReadyForReview(
    """Parameters for MarkPullRequestReadyForReview"""
    input: MarkPullRequestReadyForReviewInput!
  ): MarkPullRequestReadyForReviewPayload
  """Merge a pull request."""
  mergePullRequest(
    """Parameters for MergePullRequest"""
    input: MergePullRequestInput!
  ): MergePullRequestPayload
  """Reopen a pull request."""
  reopenPullRequest(
    """Parameters for ReopenPullRequest"""
    input: ReopenPullRequestInput!
  ): ReopenPullRequestPayload
  """Set review requests on a pull request."""
  requestReviews(
    """Parameters for RequestReviews"""
    input: RequestReviewsInput!
  ): RequestReviewsPayload
  """Submits a pending pull request review."""
  submitPullRequestReview(
    """Parameters for SubmitPullRequestReview"""
    input: SubmitPullRequestReviewInput!
  ): SubmitPullRequestReviewPayload
  """Update a pull request"""
  updatePullRequest(
    """Parameters for UpdatePullRequest"""
    input: UpdatePullRequestInput!
  ): UpdatePullRequestPayload
}

"""Types that can be requested reviewers."""
union RequestedReviewer = Team | User

extend union IssueOrPullRequest = PullRequest

extend union SearchResultItem = PullRequest

"""Detailed status information about a pull request merge."""
enum MergeStateStatus {
  """The head ref is out of date."""
  BEHIND
  """The merge is blocked."""
  BLOCKED
  """Mergeable and passing commit status."""
  CLEAN
  """The merge commit cannot be cleanly created."""
  DIRTY
  """Mergeable with passing commit status and pre-receive hooks."""
  HAS_HOOKS
  """The state cannot currently be determined."""
  UNKNOWN
  """Mergeable with non-passing commit status."""
  UNSTABLE
}
`;
