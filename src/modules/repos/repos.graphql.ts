// The repositories area in GraphQL: Repository and the interfaces it shares with
// upstream (RepositoryOwner, RepositoryInfo, Starrable, Subscribable), stars, watchers,
// forks, collaborators, licenses, repository(owner:, name:), createRepository and
// REPOSITORY search results. Names, types and descriptions as in @octokit/graphql-schema.
export const reposTypeDefs = /* GraphQL */ `
"""Git SSH string"""
scalar GitSSHRemote

"""Represents an owner of a Repository."""
interface RepositoryOwner {
  """A URL pointing to the owner's public avatar."""
  avatarUrl(
    """The size of the resulting square image."""
    size: Int
  ): URI!
  """The Node ID of the RepositoryOwner object"""
  id: ID!
  """The username used to login."""
  login: String!
  """A list of repositories that the user owns."""
  repositories(
    """If non-null, filters repositories according to privacy."""
    privacy: RepositoryPrivacy
    """If non-null, filters repositories according to visibility. Cannot be combined with the privacy argument."""
    visibility: RepositoryVisibility
    """Ordering options for repositories returned from the connection"""
    orderBy: RepositoryOrder
    """Array of viewer's affiliation options for repositories returned from the connection."""
    affiliations: [RepositoryAffiliation]
    """Array of owner's affiliation options for repositories returned from the connection."""
    ownerAffiliations: [RepositoryAffiliation] = [OWNER, COLLABORATOR]
    """If non-null, filters repositories according to whether they have issues enabled"""
    hasIssuesEnabled: Boolean
    """If non-null, filters repositories according to whether they are archived and not maintained"""
    isArchived: Boolean
    """If non-null, filters repositories according to whether they are forks of another repository"""
    isFork: Boolean
    """If non-null, filters repositories according to whether they have been locked"""
    isLocked: Boolean
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryConnection!
  """Find Repository."""
  repository(
    """Name of Repository to find."""
    name: String!
    """Follow repository renames. If disabled, a repository referenced by its old name will return an error."""
    followRenames: Boolean = true
  ): Repository
  """The HTTP URL for the owner."""
  resourcePath: URI!
  """The HTTP URL for the owner."""
  url: URI!
}

"""A subset of repository info."""
interface RepositoryInfo {
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """The description of the repository."""
  description: String
  """Returns how many forks there are of this repository in the whole network."""
  forkCount: Int!
  """Indicates if the repository has the Discussions feature enabled."""
  hasDiscussionsEnabled: Boolean!
  """Indicates if the repository has issues feature enabled."""
  hasIssuesEnabled: Boolean!
  """Indicates if the repository has the Projects feature enabled."""
  hasProjectsEnabled: Boolean!
  """Indicates if the repository has wiki feature enabled."""
  hasWikiEnabled: Boolean!
  """The repository's URL."""
  homepageUrl: URI
  """Indicates if the repository is unmaintained."""
  isArchived: Boolean!
  """Identifies if the repository is a fork."""
  isFork: Boolean!
  """Indicates if a repository is either owned by an organization, or is a private fork of an organization repository."""
  isInOrganization: Boolean!
  """Indicates if the repository has been locked or not."""
  isLocked: Boolean!
  """Identifies if the repository is a mirror."""
  isMirror: Boolean!
  """Identifies if the repository is private or internal."""
  isPrivate: Boolean!
  """Identifies if the repository is a template that can be used to generate new repositories."""
  isTemplate: Boolean!
  """The license associated with the repository"""
  licenseInfo: License
  """The repository's original mirror URL."""
  mirrorUrl: URI
  """The name of the repository."""
  name: String!
  """The repository's name with owner."""
  nameWithOwner: String!
  """The User owner of the repository."""
  owner: RepositoryOwner!
  """Identifies the date and time when the repository was last pushed to."""
  pushedAt: DateTime
  """The HTTP path for this repository"""
  resourcePath: URI!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this repository"""
  url: URI!
  """Indicates the repository's visibility level."""
  visibility: RepositoryVisibility!
}

"""Things that can be starred."""
interface Starrable {
  """The Node ID of the Starrable object"""
  id: ID!
  """Returns a count of how many stargazers there are on this object"""
  stargazerCount: Int!
  """A list of users who have starred this starrable."""
  stargazers(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: StarOrder
  ): StargazerConnection!
  """Returns a boolean indicating whether the viewing user has starred this starrable."""
  viewerHasStarred: Boolean!
}

"""Entities that can be subscribed to for web and email notifications."""
interface Subscribable {
  """The Node ID of the Subscribable object"""
  id: ID!
  """Check if the viewer is able to change their subscription status for the repository."""
  viewerCanSubscribe: Boolean!
  """Identifies if the viewer is watching, not watching, or ignoring the subscribable entity."""
  viewerSubscription: SubscriptionState
}

"""A repository contains the content for a project."""
type Repository implements Node & RepositoryInfo & Starrable & Subscribable & UniformResourceLocatable {
  """Whether or not a pull request head branch that is behind its base branch can always be updated even if it is not required to be up to date before merging."""
  allowUpdateBranch: Boolean!
  """Whether or not Auto-merge can be enabled on pull requests in this repository."""
  autoMergeAllowed: Boolean!
  """A list of collaborators associated with the repository."""
  collaborators(
    """Collaborators affiliation level with a repository."""
    affiliation: CollaboratorAffiliation
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryCollaboratorConnection
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """Whether or not branches are automatically deleted when merged in this repository."""
  deleteBranchOnMerge: Boolean!
  """The description of the repository."""
  description: String
  """The number of kilobytes this repository occupies on disk."""
  diskUsage: Int
  """Returns how many forks there are of this repository in the whole network."""
  forkCount: Int!
  """Whether this repository allows forks."""
  forkingAllowed: Boolean!
  """A list of direct forked repositories."""
  forks(
    """Ordering options for repositories returned from the connection"""
    orderBy: RepositoryOrder
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryConnection!
  """Indicates if the repository has the Discussions feature enabled."""
  hasDiscussionsEnabled: Boolean!
  """Indicates if the repository has issues feature enabled."""
  hasIssuesEnabled: Boolean!
  """Indicates if the repository has the Projects feature enabled."""
  hasProjectsEnabled: Boolean!
  """Indicates if the repository has wiki feature enabled."""
  hasWikiEnabled: Boolean!
  """The repository's URL."""
  homepageUrl: URI
  """The Node ID of the Repository object"""
  id: ID!
  """Indicates if the repository is unmaintained."""
  isArchived: Boolean!
  """Returns whether or not this repository disabled."""
  isDisabled: Boolean!
  """Identifies if the repository is a fork."""
  isFork: Boolean!
  """Indicates if a repository is either owned by an organization, or is a private fork of an organization repository."""
  isInOrganization: Boolean!
  """Indicates if the repository has been locked or not."""
  isLocked: Boolean!
  """Identifies if the repository is a mirror."""
  isMirror: Boolean!
  """Identifies if the repository is private or internal."""
  isPrivate: Boolean!
  """Identifies if the repository is a template that can be used to generate new repositories."""
  isTemplate: Boolean!
  """The license associated with the repository"""
  licenseInfo: License
  """Whether or not PRs are merged with a merge commit on this repository."""
  mergeCommitAllowed: Boolean!
  """How the default commit message will be generated when merging a pull request."""
  mergeCommitMessage: MergeCommitMessage!
  """How the default commit title will be generated when merging a pull request."""
  mergeCommitTitle: MergeCommitTitle!
  """The repository's original mirror URL."""
  mirrorUrl: URI
  """The name of the repository."""
  name: String!
  """The repository's name with owner."""
  nameWithOwner: String!
  """The User owner of the repository."""
  owner: RepositoryOwner!
  """The repository parent, if this is a fork."""
  parent: Repository
  """The primary language of the repository's code."""
  primaryLanguage: Language
  """A list containing a breakdown of the language composition of the repository."""
  languages(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: LanguageOrder
  ): LanguageConnection
  """Identifies the date and time when the repository was last pushed to."""
  pushedAt: DateTime
  """Whether or not rebase-merging is enabled on this repository."""
  rebaseMergeAllowed: Boolean!
  """The HTTP path for this repository"""
  resourcePath: URI!
  """Whether or not squash-merging is enabled on this repository."""
  squashMergeAllowed: Boolean!
  """How the default commit message will be generated when squash merging a pull request."""
  squashMergeCommitMessage: SquashMergeCommitMessage!
  """How the default commit title will be generated when squash merging a pull request."""
  squashMergeCommitTitle: SquashMergeCommitTitle!
  """The SSH URL to clone this repository"""
  sshUrl: GitSSHRemote!
  """Returns a count of how many stargazers there are on this object"""
  stargazerCount: Int!
  """A list of users who have starred this starrable."""
  stargazers(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: StarOrder
  ): StargazerConnection!
  """The repository from which this repository was generated, if any."""
  templateRepository: Repository
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this repository"""
  url: URI!
  """Indicates whether the viewer has admin permissions on this repository."""
  viewerCanAdminister: Boolean!
  """Check if the viewer is able to change their subscription status for the repository."""
  viewerCanSubscribe: Boolean!
  """Returns a boolean indicating whether the viewing user has starred this starrable."""
  viewerHasStarred: Boolean!
  """The users permission level on the repository. Will return null if authenticated as an GitHub App."""
  viewerPermission: RepositoryPermission
  """Identifies if the viewer is watching, not watching, or ignoring the subscribable entity."""
  viewerSubscription: SubscriptionState
  """Indicates the repository's visibility level."""
  visibility: RepositoryVisibility!
  """A list of users watching the repository."""
  watchers(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): UserConnection!
  """Whether contributors are required to sign off on web-based commits in this repository."""
  webCommitSignoffRequired: Boolean!
}

"""A list of repositories owned by the subject."""
type RepositoryConnection {
  """A list of edges."""
  edges: [RepositoryEdge]
  """A list of nodes."""
  nodes: [Repository]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Repository
}

"""The connection type for Repository."""
type StarredRepositoryConnection {
  """A list of edges."""
  edges: [StarredRepositoryEdge]
  """Is the list of stars for this user truncated? This is true for users that have many stars."""
  isOverLimit: Boolean!
  """A list of nodes."""
  nodes: [Repository]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a starred repository."""
type StarredRepositoryEdge {
  """A cursor for use in pagination."""
  cursor: String!
  node: Repository!
  """Identifies when the item was starred."""
  starredAt: DateTime!
}

"""The connection type for User."""
type StargazerConnection {
  """A list of edges."""
  edges: [StargazerEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user that's starred a repository."""
type StargazerEdge {
  """A cursor for use in pagination."""
  cursor: String!
  node: User!
  """Identifies when the item was starred."""
  starredAt: DateTime!
}

"""The connection type for User."""
type RepositoryCollaboratorConnection {
  """A list of edges."""
  edges: [RepositoryCollaboratorEdge]
  """A list of nodes."""
  nodes: [User]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""Represents a user who is a collaborator of a repository."""
type RepositoryCollaboratorEdge {
  """A cursor for use in pagination."""
  cursor: String!
  node: User!
  """The permission the user has on the repository."""
  permission: RepositoryPermission!
}

"""Ordering options for repository connections"""
input RepositoryOrder {
  """The field to order repositories by."""
  field: RepositoryOrderField!
  """The ordering direction."""
  direction: OrderDirection!
}

"""Properties by which repository connections can be ordered."""
enum RepositoryOrderField {
  """Order repositories by creation time"""
  CREATED_AT
  """Order repositories by update time"""
  UPDATED_AT
  """Order repositories by push time"""
  PUSHED_AT
  """Order repositories by name"""
  NAME
  """Order repositories by number of stargazers"""
  STARGAZERS
}

"""Ways in which star connections can be ordered."""
input StarOrder {
  """The field in which to order nodes by."""
  field: StarOrderField!
  """The direction in which to order nodes."""
  direction: OrderDirection!
}

"""Properties by which star connections can be ordered."""
enum StarOrderField {
  """Allows ordering a list of stars by when they were created."""
  STARRED_AT
}

"""The repository's visibility level."""
enum RepositoryVisibility {
  """The repository is visible only to those with explicit access."""
  PRIVATE
  """The repository is visible to everyone."""
  PUBLIC
  """The repository is visible only to users in the same business."""
  INTERNAL
}

"""The privacy of a repository"""
enum RepositoryPrivacy {
  """Public"""
  PUBLIC
  """Private"""
  PRIVATE
}

"""The affiliation of a user to a repository"""
enum RepositoryAffiliation {
  """Repositories that are owned by the authenticated user."""
  OWNER
  """Repositories that the user has been added to as a collaborator."""
  COLLABORATOR
  """Repositories that the user has access to through being a member of an organization. This includes every repository on every team that the user is on."""
  ORGANIZATION_MEMBER
}

"""The access level to a repository"""
enum RepositoryPermission {
  """Can read, clone, and push to this repository. Can also manage issues, pull requests, and repository settings, including adding collaborators"""
  ADMIN
  """Can read, clone, and push to this repository. They can also manage issues, pull requests, and some repository settings"""
  MAINTAIN
  """Can read, clone, and push to this repository. Can also manage issues and pull requests"""
  WRITE
  """Can read and clone this repository. Can also manage issues and pull requests"""
  TRIAGE
  """Can read and clone this repository. Can also open and comment on issues and pull requests"""
  READ
}

"""The possible states of a subscription."""
enum SubscriptionState {
  """The User is only notified when participating or @mentioned."""
  UNSUBSCRIBED
  """The User is notified of all conversations."""
  SUBSCRIBED
  """The User is never notified."""
  IGNORED
}

"""Collaborators affiliation level with a subject."""
enum CollaboratorAffiliation {
  """All outside collaborators of an organization-owned subject."""
  OUTSIDE
  """All collaborators with permissions to an organization-owned subject, regardless of organization membership status."""
  DIRECT
  """All collaborators the authenticated user can see."""
  ALL
}

"""The possible default commit messages for merges."""
enum MergeCommitMessage {
  """Default to the pull request's title."""
  PR_TITLE
  """Default to the pull request's body."""
  PR_BODY
  """Default to a blank commit message."""
  BLANK
}

"""The possible default commit titles for merges."""
enum MergeCommitTitle {
  """Default to the pull request's title."""
  PR_TITLE
  """Default to the classic title for a merge message (e.g., Merge pull request #123 from branch-name)."""
  MERGE_MESSAGE
}

"""The possible default commit messages for squash merges."""
enum SquashMergeCommitMessage {
  """Default to the pull request's body."""
  PR_BODY
  """Default to the branch's commit messages."""
  COMMIT_MESSAGES
  """Default to a blank commit message."""
  BLANK
}

"""The possible default commit titles for squash merges."""
enum SquashMergeCommitTitle {
  """Default to the pull request's title."""
  PR_TITLE
  """Default to the commit's title (if only one commit) or the pull request's title (when more than one commit)."""
  COMMIT_OR_PR_TITLE
}

"""A repository's open source license"""
type License implements Node {
  """The full text of the license"""
  body: String!
  """The conditions set by the license"""
  conditions: [LicenseRule]!
  """A human-readable description of the license"""
  description: String
  """Whether the license should be featured"""
  featured: Boolean!
  """Whether the license should be displayed in license pickers"""
  hidden: Boolean!
  """The Node ID of the License object"""
  id: ID!
  """Instructions on how to implement the license"""
  implementation: String
  """The lowercased SPDX ID of the license"""
  key: String!
  """The limitations set by the license"""
  limitations: [LicenseRule]!
  """The license full name specified by <https://spdx.org/licenses>"""
  name: String!
  """Customary short name if applicable (e.g, GPLv3)"""
  nickname: String
  """The permissions set by the license"""
  permissions: [LicenseRule]!
  """Whether the license is a pseudo-license placeholder (e.g., other, no-license)"""
  pseudoLicense: Boolean!
  """Short identifier specified by <https://spdx.org/licenses>"""
  spdxId: String
  """URL to the license on <https://choosealicense.com>"""
  url: URI
}

"""Describes a License's conditions, permissions, and limitations"""
type LicenseRule {
  """A description of the rule"""
  description: String!
  """The machine-readable rule key"""
  key: String!
  """The human-readable rule label"""
  label: String!
}

"""A list of languages associated with the parent."""
type LanguageConnection {
  """A list of edges."""
  edges: [LanguageEdge]
  """A list of nodes."""
  nodes: [Language]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
  """The total size in bytes of files written in that language."""
  totalSize: Int!
}

"""Represents the language of a repository."""
type LanguageEdge {
  cursor: String!
  node: Language!
  """The number of bytes of code written in the language."""
  size: Int!
}

"""Ordering options for language connections."""
input LanguageOrder {
  """The ordering direction."""
  direction: OrderDirection!
  """The field to order languages by."""
  field: LanguageOrderField!
}

"""Properties by which language connections can be ordered."""
enum LanguageOrderField {
  """Order languages by the size of all files containing the language"""
  SIZE
}

"""Represents a given language found in repositories."""
type Language implements Node {
  """The color defined for the current language."""
  color: String
  """The Node ID of the Language object"""
  id: ID!
  """The name of the current language."""
  name: String!
}

"""Autogenerated input type of CreateRepository"""
input CreateRepositoryInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The name of the new repository."""
  name: String!
  """The ID of the owner for the new repository."""
  ownerId: ID
  """A short description of the new repository."""
  description: String
  """Indicates the repository's visibility level."""
  visibility: RepositoryVisibility!
  """Whether this repository should be marked as a template such that anyone who can access it can create new repositories with the same files and directory structure."""
  template: Boolean = false
  """The URL for a web page about this repository."""
  homepageUrl: URI
  """Indicates if the repository should have the wiki feature enabled."""
  hasWikiEnabled: Boolean = false
  """Indicates if the repository should have the issues feature enabled."""
  hasIssuesEnabled: Boolean = true
  """When an organization is specified as the owner, this ID identifies the team that should be granted access to the new repository."""
  teamId: ID
}

"""Autogenerated return type of CreateRepository."""
type CreateRepositoryPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """The new repository."""
  repository: Repository
}

extend type User implements RepositoryOwner {
  """A list of repositories that the user owns."""
  repositories(
    """If non-null, filters repositories according to privacy."""
    privacy: RepositoryPrivacy
    """If non-null, filters repositories according to visibility. Cannot be combined with the privacy argument."""
    visibility: RepositoryVisibility
    """Ordering options for repositories returned from the connection"""
    orderBy: RepositoryOrder
    """Array of viewer's affiliation options for repositories returned from the connection."""
    affiliations: [RepositoryAffiliation]
    """Array of owner's affiliation options for repositories returned from the connection."""
    ownerAffiliations: [RepositoryAffiliation] = [OWNER, COLLABORATOR]
    """If non-null, filters repositories according to whether they have issues enabled"""
    hasIssuesEnabled: Boolean
    """If non-null, filters repositories according to whether they are archived and not maintained"""
    isArchived: Boolean
    """If non-null, filters repositories according to whether they are forks of another repository"""
    isFork: Boolean
    """If non-null, filters repositories according to whether they have been locked"""
    isLocked: Boolean
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryConnection!
  """Find Repository."""
  repository(
    """Name of Repository to find."""
    name: String!
    """Follow repository renames. If disabled, a repository referenced by its old name will return an error."""
    followRenames: Boolean = true
  ): Repository
  """Repositories the user has starred."""
  starredRepositories(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Order for connection"""
    orderBy: StarOrder
  ): StarredRepositoryConnection!
  """A list of repositories the given user is watching."""
  watching(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryConnection!
}

extend type Organization implements RepositoryOwner {
  """A list of repositories that the user owns."""
  repositories(
    """If non-null, filters repositories according to privacy."""
    privacy: RepositoryPrivacy
    """If non-null, filters repositories according to visibility. Cannot be combined with the privacy argument."""
    visibility: RepositoryVisibility
    """Ordering options for repositories returned from the connection"""
    orderBy: RepositoryOrder
    """Array of viewer's affiliation options for repositories returned from the connection."""
    affiliations: [RepositoryAffiliation]
    """Array of owner's affiliation options for repositories returned from the connection."""
    ownerAffiliations: [RepositoryAffiliation] = [OWNER, COLLABORATOR]
    """If non-null, filters repositories according to whether they have issues enabled"""
    hasIssuesEnabled: Boolean
    """If non-null, filters repositories according to whether they are archived and not maintained"""
    isArchived: Boolean
    """If non-null, filters repositories according to whether they are forks of another repository"""
    isFork: Boolean
    """If non-null, filters repositories according to whether they have been locked"""
    isLocked: Boolean
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryConnection!
  """Find Repository."""
  repository(
    """Name of Repository to find."""
    name: String!
    """Follow repository renames. If disabled, a repository referenced by its old name will return an error."""
    followRenames: Boolean = true
  ): Repository
}

extend enum SearchType {
  """Returns results matching repositories."""
  REPOSITORY
}

extend union SearchResultItem = Repository

extend type Query {
  """Lookup a given repository by the owner and repository name."""
  repository(
    """The login field of a user or organization"""
    owner: String!
    """The name of the repository"""
    name: String!
    """Follow repository renames. If disabled, a repository referenced by its old name will return an error."""
    followRenames: Boolean = true
  ): Repository
  """Lookup a repository owner (ie. either a User or an Organization) by login."""
  repositoryOwner(
    """The username to lookup the owner by."""
    login: String!
  ): RepositoryOwner
  """Look up an open source license by its key"""
  license(
    """The license's downcased SPDX ID"""
    key: String!
  ): License
  """Return a list of known open source licenses"""
  licenses: [License]!
}

extend type Mutation {
  """Create a new repository."""
  createRepository(
    """Parameters for CreateRepository"""
    input: CreateRepositoryInput!
  ): CreateRepositoryPayload
}
`;
