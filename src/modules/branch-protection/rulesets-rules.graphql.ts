// A ruleset's rules and bypass actors in GraphQL: RepositoryRuleset.rules (each rule
// with its parameters, one type per rule kind of the RuleParameters union) and
// RepositoryRuleset.bypassActors. Names, types and descriptions as in
// @octokit/graphql-schema. App is upstream's app record with the fields Wharf's apps
// have (a bypass actor is an app or a team); Wharf serves no other field that returns one.
export const rulesetRulesTypeDefs = /* GraphQL */ `
"""A repository rule."""
type RepositoryRule implements Node {
  """The Node ID of the RepositoryRule object"""
  id: ID!

  """The parameters for this rule."""
  parameters: RuleParameters

  """The repository ruleset associated with this rule configuration"""
  repositoryRuleset: RepositoryRuleset

  """The type of rule."""
  type: RepositoryRuleType!
}

"""Types which can be parameters for \`RepositoryRule\` objects."""
union RuleParameters = BranchNamePatternParameters | CodeScanningParameters | CommitAuthorEmailPatternParameters | CommitMessagePatternParameters | CommitterEmailPatternParameters | FileExtensionRestrictionParameters | FilePathRestrictionParameters | MaxFilePathLengthParameters | MaxFileSizeParameters | MergeQueueParameters | PullRequestParameters | RequiredDeploymentsParameters | RequiredStatusChecksParameters | TagNamePatternParameters | UpdateParameters | WorkflowsParameters

"""Parameters to be used for the branch_name_pattern rule"""
type BranchNamePatternParameters {
  """How this rule will appear to users."""
  name: String

  """If true, the rule will fail if the pattern matches."""
  negate: Boolean!

  """The operator to use for matching."""
  operator: String!

  """The pattern to match with."""
  pattern: String!
}

"""
Choose which tools must provide code scanning results before the reference is
updated. When configured, code scanning must be enabled and have results for
both the commit and the reference being updated.
"""
type CodeScanningParameters {
  """Tools that must provide code scanning results for this rule to pass."""
  codeScanningTools: [CodeScanningTool!]!
}

"""A tool that must provide code scanning results for this rule to pass."""
type CodeScanningTool {
  """
  The severity level at which code scanning results that raise alerts block a
  reference update. For more information on alert severity levels, see "[About code scanning alerts](\${externalDocsUrl}/code-security/code-scanning/managing-code-scanning-alerts/about-code-scanning-alerts#about-alert-severity-and-security-severity-levels)."
  """
  alertsThreshold: String!

  """
  The severity level at which code scanning results that raise security alerts
  block a reference update. For more information on security severity levels,
  see "[About code scanning alerts](\${externalDocsUrl}/code-security/code-scanning/managing-code-scanning-alerts/about-code-scanning-alerts#about-alert-severity-and-security-severity-levels)."
  """
  securityAlertsThreshold: String!

  """The name of a code scanning tool"""
  tool: String!
}

"""Parameters to be used for the commit_author_email_pattern rule"""
type CommitAuthorEmailPatternParameters {
  """How this rule will appear to users."""
  name: String

  """If true, the rule will fail if the pattern matches."""
  negate: Boolean!

  """The operator to use for matching."""
  operator: String!

  """The pattern to match with."""
  pattern: String!
}

"""Parameters to be used for the commit_message_pattern rule"""
type CommitMessagePatternParameters {
  """How this rule will appear to users."""
  name: String

  """If true, the rule will fail if the pattern matches."""
  negate: Boolean!

  """The operator to use for matching."""
  operator: String!

  """The pattern to match with."""
  pattern: String!
}

"""Parameters to be used for the committer_email_pattern rule"""
type CommitterEmailPatternParameters {
  """How this rule will appear to users."""
  name: String

  """If true, the rule will fail if the pattern matches."""
  negate: Boolean!

  """The operator to use for matching."""
  operator: String!

  """The pattern to match with."""
  pattern: String!
}

"""
Prevent commits that include files with specified file extensions from being pushed to the commit graph.
"""
type FileExtensionRestrictionParameters {
  """
  The file extensions that are restricted from being pushed to the commit graph.
  """
  restrictedFileExtensions: [String!]!
}

"""
Prevent commits that include changes in specified file paths from being pushed to the commit graph.
"""
type FilePathRestrictionParameters {
  """
  The file paths that are restricted from being pushed to the commit graph.
  """
  restrictedFilePaths: [String!]!
}

"""
Prevent commits that include file paths that exceed a specified character limit from being pushed to the commit graph.
"""
type MaxFilePathLengthParameters {
  """The maximum amount of characters allowed in file paths"""
  maxFilePathLength: Int!
}

"""
Prevent commits that exceed a specified file size limit from being pushed to the commit graph.
"""
type MaxFileSizeParameters {
  """
  The maximum file size allowed in megabytes. This limit does not apply to Git Large File Storage (Git LFS).
  """
  maxFileSize: Int!
}

"""Merges must be performed via a merge queue."""
type MergeQueueParameters {
  """
  Maximum time for a required status check to report a conclusion. After this
  much time has elapsed, checks that have not reported a conclusion will be
  assumed to have failed
  """
  checkResponseTimeoutMinutes: Int!

  """
  When set to ALLGREEN, the merge commit created by merge queue for each PR in
  the group must pass all required checks to merge. When set to HEADGREEN, only
  the commit at the head of the merge group, i.e. the commit containing changes
  from all of the PRs in the group, must pass its required checks to merge.
  """
  groupingStrategy: MergeQueueGroupingStrategy!

  """
  Limit the number of queued pull requests requesting checks and workflow runs at the same time.
  """
  maxEntriesToBuild: Int!

  """The maximum number of PRs that will be merged together in a group."""
  maxEntriesToMerge: Int!

  """Method to use when merging changes from queued pull requests."""
  mergeMethod: MergeQueueMergeMethod!

  """The minimum number of PRs that will be merged together in a group."""
  minEntriesToMerge: Int!

  """
  The time merge queue should wait after the first PR is added to the queue for
  the minimum group size to be met. After this time has elapsed, the minimum
  group size will be ignored and a smaller group will be merged.
  """
  minEntriesToMergeWaitMinutes: Int!
}

"""
When set to ALLGREEN, the merge commit created by merge queue for each PR in the
group must pass all required checks to merge. When set to HEADGREEN, only the
commit at the head of the merge group, i.e. the commit containing changes from
all of the PRs in the group, must pass its required checks to merge.
"""
enum MergeQueueGroupingStrategy {
  """
  The merge commit created by merge queue for each PR in the group must pass all required checks to merge
  """
  ALLGREEN

  """
  Only the commit at the head of the merge group must pass its required checks to merge.
  """
  HEADGREEN
}

"""Method to use when merging changes from queued pull requests."""
enum MergeQueueMergeMethod {
  """Merge commit"""
  MERGE

  """Rebase and merge"""
  REBASE

  """Squash and merge"""
  SQUASH
}

"""
Require all commits be made to a non-target branch and submitted via a pull request before they can be merged.
"""
type PullRequestParameters {
  """
  Array of allowed merge methods. Allowed values include \`merge\`, \`squash\`, and
  \`rebase\`. At least one option must be enabled.
  """
  allowedMergeMethods: [String!]

  """
  New, reviewable commits pushed will dismiss previous pull request review approvals.
  """
  dismissStaleReviewsOnPush: Boolean!

  """
  Require an approving review in pull requests that modify files that have a designated code owner.
  """
  requireCodeOwnerReview: Boolean!

  """
  Whether the most recent reviewable push must be approved by someone other than the person who pushed it.
  """
  requireLastPushApproval: Boolean!

  """
  The number of approving reviews that are required before a pull request can be merged.
  """
  requiredApprovingReviewCount: Int!

  """
  All conversations on code must be resolved before a pull request can be merged.
  """
  requiredReviewThreadResolution: Boolean!
}

"""
Choose which environments must be successfully deployed to before refs can be pushed into a ref that matches this rule.
"""
type RequiredDeploymentsParameters {
  """
  The environments that must be successfully deployed to before branches can be merged.
  """
  requiredDeploymentEnvironments: [String!]!
}

"""
Choose which status checks must pass before the ref is updated. When enabled,
commits must first be pushed to another ref where the checks pass.
"""
type RequiredStatusChecksParameters {
  """
  Allow repositories and branches to be created if a check would otherwise prohibit it.
  """
  doNotEnforceOnCreate: Boolean!

  """Status checks that are required."""
  requiredStatusChecks: [StatusCheckConfiguration!]!

  """
  Whether pull requests targeting a matching branch must be tested with the
  latest code. This setting will not take effect unless at least one status
  check is enabled.
  """
  strictRequiredStatusChecksPolicy: Boolean!
}

"""Required status check"""
type StatusCheckConfiguration {
  """The status check context name that must be present on the commit."""
  context: String!

  """
  The optional integration ID that this status check must originate from.
  """
  integrationId: Int
}

"""Parameters to be used for the tag_name_pattern rule"""
type TagNamePatternParameters {
  """How this rule will appear to users."""
  name: String

  """If true, the rule will fail if the pattern matches."""
  negate: Boolean!

  """The operator to use for matching."""
  operator: String!

  """The pattern to match with."""
  pattern: String!
}

"""Only allow users with bypass permission to update matching refs."""
type UpdateParameters {
  """Branch can pull changes from its upstream repository"""
  updateAllowsFetchAndMerge: Boolean!
}

"""
Require all changes made to a targeted branch to pass the specified workflows before they can be merged.
"""
type WorkflowsParameters {
  """
  Allow repositories and branches to be created if a check would otherwise prohibit it.
  """
  doNotEnforceOnCreate: Boolean!

  """Workflows that must pass for this rule to pass."""
  workflows: [WorkflowFileReference!]!
}

"""A workflow that must run for this rule to pass"""
type WorkflowFileReference {
  """The path to the workflow file"""
  path: String!

  """The ref (branch or tag) of the workflow file to use"""
  ref: String

  """The ID of the repository where the workflow is defined"""
  repositoryId: Int!

  """The commit SHA of the workflow file to use"""
  sha: String
}

"""The rule types supported in rulesets"""
enum RepositoryRuleType {
  """Authorization"""
  AUTHORIZATION

  """Branch name pattern"""
  BRANCH_NAME_PATTERN

  """
  Choose which tools must provide code scanning results before the reference is
  updated. When configured, code scanning must be enabled and have results for
  both the commit and the reference being updated.
  """
  CODE_SCANNING

  """Committer email pattern"""
  COMMITTER_EMAIL_PATTERN

  """Commit author email pattern"""
  COMMIT_AUTHOR_EMAIL_PATTERN

  """Commit message pattern"""
  COMMIT_MESSAGE_PATTERN

  """Only allow users with bypass permission to create matching refs."""
  CREATION

  """Only allow users with bypass permissions to delete matching refs."""
  DELETION

  """
  Prevent commits that include files with specified file extensions from being pushed to the commit graph.
  """
  FILE_EXTENSION_RESTRICTION

  """
  Prevent commits that include changes in specified file paths from being pushed to the commit graph.
  """
  FILE_PATH_RESTRICTION

  """Branch is read-only. Users cannot push to the branch."""
  LOCK_BRANCH

  """
  Prevent commits that include file paths that exceed a specified character limit from being pushed to the commit graph.
  """
  MAX_FILE_PATH_LENGTH

  """
  Prevent commits that exceed a specified file size limit from being pushed to the commit graph.
  """
  MAX_FILE_SIZE

  """Max ref updates"""
  MAX_REF_UPDATES

  """Merges must be performed via a merge queue."""
  MERGE_QUEUE

  """Merge queue locked ref"""
  MERGE_QUEUE_LOCKED_REF

  """Prevent users with push access from force pushing to refs."""
  NON_FAST_FORWARD

  """
  Require all commits be made to a non-target branch and submitted via a pull request before they can be merged.
  """
  PULL_REQUEST

  """
  Choose which environments must be successfully deployed to before refs can be pushed into a ref that matches this rule.
  """
  REQUIRED_DEPLOYMENTS

  """Prevent merge commits from being pushed to matching refs."""
  REQUIRED_LINEAR_HISTORY

  """
  When enabled, all conversations on code must be resolved before a pull request
  can be merged into a branch that matches this rule.
  """
  REQUIRED_REVIEW_THREAD_RESOLUTION

  """Commits pushed to matching refs must have verified signatures."""
  REQUIRED_SIGNATURES

  """
  Choose which status checks must pass before the ref is updated. When enabled,
  commits must first be pushed to another ref where the checks pass.
  """
  REQUIRED_STATUS_CHECKS

  """
  Require all commits be made to a non-target branch and submitted via a pull
  request and required workflow checks to pass before they can be merged.
  """
  REQUIRED_WORKFLOW_STATUS_CHECKS

  """Secret scanning"""
  SECRET_SCANNING

  """Tag"""
  TAG

  """Tag name pattern"""
  TAG_NAME_PATTERN

  """Only allow users with bypass permission to update matching refs."""
  UPDATE

  """
  Require all changes made to a targeted branch to pass the specified workflows before they can be merged.
  """
  WORKFLOWS

  """Workflow files cannot be modified."""
  WORKFLOW_UPDATES
}

"""The connection type for RepositoryRule."""
type RepositoryRuleConnection {
  """A list of edges."""
  edges: [RepositoryRuleEdge]

  """A list of nodes."""
  nodes: [RepositoryRule]

  """Information to aid in pagination."""
  pageInfo: PageInfo!

  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryRuleEdge {
  """A cursor for use in pagination."""
  cursor: String!

  """The item at the end of the edge."""
  node: RepositoryRule
}

"""
A team or app that has the ability to bypass a rules defined on a ruleset
"""
type RepositoryRulesetBypassActor implements Node {
  """The actor that can bypass rules."""
  actor: BypassActor

  """The mode for the bypass actor"""
  bypassMode: RepositoryRulesetBypassActorBypassMode

  """This actor represents the ability for a deploy key to bypass"""
  deployKey: Boolean!

  """This actor represents the ability for an enterprise owner to bypass"""
  enterpriseOwner: Boolean!

  """The Node ID of the RepositoryRulesetBypassActor object"""
  id: ID!

  """This actor represents the ability for an organization owner to bypass"""
  organizationAdmin: Boolean!

  """
  If the actor is a repository role, the repository role's ID that can bypass
  """
  repositoryRoleDatabaseId: Int

  """
  If the actor is a repository role, the repository role's name that can bypass
  """
  repositoryRoleName: String

  """Identifies the ruleset associated with the allowed actor"""
  repositoryRuleset: RepositoryRuleset
}

"""Types that can represent a repository ruleset bypass actor."""
union BypassActor = App | Team

"""The bypass mode for a specific actor on a ruleset."""
enum RepositoryRulesetBypassActorBypassMode {
  """The actor can always bypass rules"""
  ALWAYS

  """The actor can only bypass rules via a pull request"""
  PULL_REQUEST
}

"""The connection type for RepositoryRulesetBypassActor."""
type RepositoryRulesetBypassActorConnection {
  """A list of edges."""
  edges: [RepositoryRulesetBypassActorEdge]

  """A list of nodes."""
  nodes: [RepositoryRulesetBypassActor]

  """Information to aid in pagination."""
  pageInfo: PageInfo!

  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type RepositoryRulesetBypassActorEdge {
  """A cursor for use in pagination."""
  cursor: String!

  """The item at the end of the edge."""
  node: RepositoryRulesetBypassActor
}

"""A GitHub App."""
type App implements Node {
  """The client ID of the app."""
  clientId: String
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The description of the app."""
  description: String
  """The Node ID of the App object"""
  id: ID!
  """The name of the app."""
  name: String!
  """A slug based on the name of the app for use in URLs."""
  slug: String!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The URL to the app's homepage."""
  url: URI!
}

extend type RepositoryRuleset {
  """The actors that can bypass this ruleset"""
  bypassActors(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): RepositoryRulesetBypassActorConnection
  """List of rules."""
  rules(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """The type of rule."""
    type: RepositoryRuleType
  ): RepositoryRuleConnection
}
`;
