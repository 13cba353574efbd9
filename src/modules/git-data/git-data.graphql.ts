// The git data area in GraphQL: refs and git objects (Commit with its history, Tree,
// Blob, Tag), Repository.refs/ref/object/defaultBranchRef, and the createRef,
// updateRef, deleteRef and createCommitOnBranch mutations. Names, types and
// descriptions as in @octokit/graphql-schema.
export const gitDataTypeDefs = /* GraphQL */ `
"""An ISO-8601 encoded date string. Unlike the DateTime type, GitTimestamp is not converted in UTC."""
scalar GitTimestamp

"""A (potentially binary) string encoded using base64."""
scalar Base64String

"""Represents a Git object."""
interface GitObject {
  """An abbreviated version of the Git object ID"""
  abbreviatedOid: String!
  """The HTTP path for this Git object"""
  commitResourcePath: URI!
  """The HTTP URL for this Git object"""
  commitUrl: URI!
  """The Node ID of the GitObject object"""
  id: ID!
  """The Git object ID"""
  oid: GitObjectID!
  """The Repository the Git object belongs to"""
  repository: Repository!
}

"""Represents an actor in a Git commit (ie. an author or committer)."""
type GitActor {
  """A URL pointing to the author's public avatar."""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int
  ): URI!
  """The timestamp of the Git action (authoring or committing)."""
  date: GitTimestamp
  """The email in the Git commit."""
  email: String
  """The name in the Git commit."""
  name: String
  """The GitHub user corresponding to the email field. Null if no such user exists."""
  user: User
}

"""
A branch protection rule (classic protection of a branch name or pattern), which gh's
pr status asks about through Ref.branchProtectionRule.
"""
type BranchProtectionRule implements Node {
  """The Node ID of the BranchProtectionRule object"""
  id: ID!
  """Identifies the protection rule pattern."""
  pattern: String!
  """Number of approving reviews required to update matching branches."""
  requiredApprovingReviewCount: Int
  """Whether the most recent push must be approved by someone other than the person who pushed it."""
  requireLastPushApproval: Boolean!
  """Are approving reviews required to update matching branches."""
  requiresApprovingReviews: Boolean!
  """Are branches required to be up to date before merging."""
  requiresStrictStatusChecks: Boolean!
}

"""Represents a Git reference."""
type Ref implements Node {
  """Branch protection rules for this ref"""
  branchProtectionRule: BranchProtectionRule
  """The Node ID of the Ref object"""
  id: ID!
  """The ref name."""
  name: String!
  """The ref's prefix, such as \`refs/heads/\` or \`refs/tags/\`."""
  prefix: String!
  """The repository the ref belongs to."""
  repository: Repository!
  """The object the ref points to. Returns null when object does not exist."""
  target: GitObject
}

"""The connection type for Ref."""
type RefConnection {
  """A list of edges."""
  edges: [RefEdge]
  """A list of nodes."""
  nodes: [Ref]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type RefEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Ref
}

"""Ways in which lists of git refs can be ordered upon return."""
input RefOrder {
  """The field in which to order refs by."""
  field: RefOrderField!
  """The direction in which to order refs by the specified field."""
  direction: OrderDirection!
}

"""Properties by which ref connections can be ordered."""
enum RefOrderField {
  """Order refs by their alphanumeric name"""
  ALPHABETICAL
}

"""Represents a Git commit."""
type Commit implements GitObject & Node & UniformResourceLocatable {
  """An abbreviated version of the Git object ID"""
  abbreviatedOid: String!
  """The number of additions in this commit."""
  additions: Int!
  """Authorship details of the commit."""
  author: GitActor
  """Check if the committer and the author match."""
  authoredByCommitter: Boolean!
  """The datetime when this commit was authored."""
  authoredDate: DateTime!
  """The number of changed files in this commit."""
  changedFilesIfAvailable: Int
  """The HTTP path for this Git object"""
  commitResourcePath: URI!
  """The HTTP URL for this Git object"""
  commitUrl: URI!
  """The datetime when this commit was committed."""
  committedDate: DateTime!
  """Committer details of the commit."""
  committer: GitActor
  """The number of deletions in this commit."""
  deletions: Int!
  """The linear commit history starting from (and including) this commit, in the same order as \`git log\`."""
  history(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """If non-null, filters history to only show commits touching files under this path."""
    path: String
    """If non-null, filters history to only show commits with matching authorship."""
    author: CommitAuthor
    """Allows specifying a beginning time or date for fetching commits. Unexpected results may be returned for dates not between 1970-01-01 and 2099-12-13 (inclusive)."""
    since: GitTimestamp
    """Allows specifying an ending time or date for fetching commits. Unexpected results may be returned for dates not between 1970-01-01 and 2099-12-13 (inclusive)."""
    until: GitTimestamp
  ): CommitHistoryConnection!
  """The Node ID of the Commit object"""
  id: ID!
  """The Git commit message"""
  message: String!
  """The Git commit message body"""
  messageBody: String!
  """The Git commit message headline"""
  messageHeadline: String!
  """The Git object ID"""
  oid: GitObjectID!
  """The parents of a commit."""
  parents(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): CommitConnection!
  """The Repository this commit belongs to"""
  repository: Repository!
  """The HTTP path for this commit"""
  resourcePath: URI!
  """Commit's root Tree"""
  tree: Tree!
  """The HTTP path for the tree of this commit"""
  treeResourcePath: URI!
  """The HTTP URL for the tree of this commit"""
  treeUrl: URI!
  """The HTTP URL for this commit"""
  url: URI!
}

"""The connection type for Commit."""
type CommitConnection {
  """A list of edges."""
  edges: [CommitEdge]
  """A list of nodes."""
  nodes: [Commit]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type CommitEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Commit
}

"""The connection type for Commit."""
type CommitHistoryConnection {
  """A list of edges."""
  edges: [CommitEdge]
  """A list of nodes."""
  nodes: [Commit]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Specifies an author for filtering Git commits."""
input CommitAuthor {
  """ID of a User to filter by. If non-null, only commits authored by this user will be returned. This field takes precedence over emails."""
  id: ID
  """Email addresses to filter by. Commits authored by any of the specified email addresses will be returned."""
  emails: [String!]
}

"""Represents a Git tree."""
type Tree implements GitObject & Node {
  """An abbreviated version of the Git object ID"""
  abbreviatedOid: String!
  """The HTTP path for this Git object"""
  commitResourcePath: URI!
  """The HTTP URL for this Git object"""
  commitUrl: URI!
  """A list of tree entries."""
  entries: [TreeEntry!]
  """The Node ID of the Tree object"""
  id: ID!
  """The Git object ID"""
  oid: GitObjectID!
  """The Repository the Git object belongs to"""
  repository: Repository!
}

"""Represents a Git tree entry."""
type TreeEntry {
  """The extension of the file"""
  extension: String
  """Whether or not this tree entry is generated"""
  isGenerated: Boolean!
  """Entry file mode."""
  mode: Int!
  """Entry file name."""
  name: String!
  """Entry file name. (Base64-encoded)"""
  nameRaw: Base64String!
  """Entry file object."""
  object: GitObject
  """Entry file Git object ID."""
  oid: GitObjectID!
  """The full path of the file."""
  path: String
  """The full path of the file. (Base64-encoded)"""
  pathRaw: Base64String
  """The Repository the tree entry belongs to"""
  repository: Repository!
  """Entry byte size"""
  size: Int!
  """Entry file type."""
  type: String!
}

"""Represents a Git blob."""
type Blob implements GitObject & Node {
  """An abbreviated version of the Git object ID"""
  abbreviatedOid: String!
  """Byte size of Blob object"""
  byteSize: Int!
  """The HTTP path for this Git object"""
  commitResourcePath: URI!
  """The HTTP URL for this Git object"""
  commitUrl: URI!
  """The Node ID of the Blob object"""
  id: ID!
  """Indicates whether the Blob is binary or text. Returns null if unable to determine the encoding."""
  isBinary: Boolean
  """Indicates whether the contents is truncated"""
  isTruncated: Boolean!
  """The Git object ID"""
  oid: GitObjectID!
  """The Repository the Git object belongs to"""
  repository: Repository!
  """UTF8 text data or null if the Blob is binary"""
  text: String
}

"""Represents a Git tag."""
type Tag implements GitObject & Node {
  """An abbreviated version of the Git object ID"""
  abbreviatedOid: String!
  """The HTTP path for this Git object"""
  commitResourcePath: URI!
  """The HTTP URL for this Git object"""
  commitUrl: URI!
  """The Node ID of the Tag object"""
  id: ID!
  """The Git tag message."""
  message: String
  """The Git tag name."""
  name: String!
  """The Git object ID"""
  oid: GitObjectID!
  """The Repository the Git object belongs to"""
  repository: Repository!
  """Details about the tag author."""
  tagger: GitActor
  """The Git object the tag points to."""
  target: GitObject!
}

"""Autogenerated input type of CreateRef"""
input CreateRefInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the Repository to create the Ref in."""
  repositoryId: ID!
  """The fully qualified name of the new Ref (ie: \`refs/heads/my_new_branch\`)."""
  name: String!
  """The GitObjectID that the new Ref shall target. Must point to a commit."""
  oid: GitObjectID!
}

"""Autogenerated return type of CreateRef."""
type CreateRefPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The newly created ref."""
  ref: Ref
}

"""Autogenerated input type of UpdateRef"""
input UpdateRefInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the Ref to be updated."""
  refId: ID!
  """The GitObjectID that the Ref shall be updated to target."""
  oid: GitObjectID!
  """Permit updates of branch Refs that are not fast-forwards?"""
  force: Boolean = false
}

"""Autogenerated return type of UpdateRef."""
type UpdateRefPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The updated Ref."""
  ref: Ref
}

"""Autogenerated input type of DeleteRef"""
input DeleteRefInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Node ID of the Ref to be deleted."""
  refId: ID!
}

"""Autogenerated return type of DeleteRef."""
type DeleteRefPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
}

"""Autogenerated input type of CreateCommitOnBranch"""
input CreateCommitOnBranchInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The Ref to be updated. Must be a branch."""
  branch: CommittableBranch!
  """A description of changes to files in this commit."""
  fileChanges: FileChanges
  """The commit message the be included with the commit."""
  message: CommitMessage!
  """The git commit oid expected at the head of the branch prior to the commit"""
  expectedHeadOid: GitObjectID!
}

"""A git ref for a commit to be appended to."""
input CommittableBranch {
  """The Node ID of the Ref to be updated."""
  id: ID
  """The nameWithOwner of the repository to commit to."""
  repositoryNameWithOwner: String
  """The unqualified name of the branch to append the commit to."""
  branchName: String
}

"""A description of a set of changes to a file tree to be made as part of a git commit, modeled as zero or more file \`additions\` and zero or more file \`deletions\`."""
input FileChanges {
  """Files to delete."""
  deletions: [FileDeletion!] = []
  """File to add or change."""
  additions: [FileAddition!] = []
}

"""A command to add a file at the given path with the given contents as part of a commit. Any existing file at that that path will be replaced."""
input FileAddition {
  """The path in the repository where the file will be located"""
  path: String!
  """The base64 encoded contents of the file"""
  contents: Base64String!
}

"""A command to delete the file at the given path as part of a commit."""
input FileDeletion {
  """The path to delete"""
  path: String!
}

"""A message to include with a new commit"""
input CommitMessage {
  """The headline of the message."""
  headline: String!
  """The body of the message."""
  body: String
}

"""Autogenerated return type of CreateCommitOnBranch."""
type CreateCommitOnBranchPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The new commit."""
  commit: Commit
  """The ref which has been updated to point to the new commit."""
  ref: Ref
}

extend type Repository {
  """Fetch a list of refs from the repository"""
  refs(
    """Filters refs with query on name"""
    query: String
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """A ref name prefix like \`refs/heads/\`, \`refs/tags/\`, etc."""
    refPrefix: String!
    """DEPRECATED: use orderBy. The ordering direction."""
    direction: OrderDirection
    """Ordering options for refs returned from the connection."""
    orderBy: RefOrder
  ): RefConnection
  """Fetch a given ref from the repository"""
  ref(
    """The ref to retrieve. Fully qualified matches are checked in order (\`refs/heads/master\`) before falling back onto checks for short name matches (\`master\`)."""
    qualifiedName: String!
  ): Ref
  """A Git object in the repository"""
  object(
    """The Git object ID"""
    oid: GitObjectID
    """A Git revision expression suitable for rev-parse"""
    expression: String
  ): GitObject
  """The Ref associated with the repository's default branch."""
  defaultBranchRef: Ref
  """Returns whether or not this repository is empty."""
  isEmpty: Boolean!
}

extend type Mutation {
  """Create a new Git Ref."""
  createRef(
    """Parameters for CreateRef"""
    input: CreateRefInput!
  ): CreateRefPayload
  """Update a Git Ref."""
  updateRef(
    """Parameters for UpdateRef"""
    input: UpdateRefInput!
  ): UpdateRefPayload
  """Delete a Git Ref."""
  deleteRef(
    """Parameters for DeleteRef"""
    input: DeleteRefInput!
  ): DeleteRefPayload
  """Appends a commit to the given branch as the authenticated user."""
  createCommitOnBranch(
    """Parameters for CreateCommitOnBranch"""
    input: CreateCommitOnBranchInput!
  ): CreateCommitOnBranchPayload
}
`;
