// Check runs and the suites and workflow runs they belong to, as upstream's schema has
// them: a commit's status rollup holds check runs beside statuses, and gh asks for
// their fields on every `pr view` and `pr checks`. Wharf has no Actions workflows, so
// WorkflowRun and Workflow never resolve.
export const checksTypeDefs = /* GraphQL */ `
"""The possible states for a check suite or run status."""
enum CheckStatusState {
  """The check suite or run has been completed."""
  COMPLETED
  """The check suite or run is in progress."""
  IN_PROGRESS
  """The check suite or run is in pending state."""
  PENDING
  """The check suite or run has been queued."""
  QUEUED
  """The check suite or run has been requested."""
  REQUESTED
  """The check suite or run is in waiting state."""
  WAITING
}

"""The possible states for a check suite or run conclusion."""
enum CheckConclusionState {
  """The check suite or run requires action."""
  ACTION_REQUIRED
  """The check suite or run has been cancelled."""
  CANCELLED
  """The check suite or run has failed."""
  FAILURE
  """The check suite or run was neutral."""
  NEUTRAL
  """The check suite or run was skipped."""
  SKIPPED
  """The check suite or run was marked stale."""
  STALE
  """The check suite or run has failed at startup."""
  STARTUP_FAILURE
  """The check suite or run has succeeded."""
  SUCCESS
  """The check suite or run has timed out."""
  TIMED_OUT
}

"""A workflow contains meta information about an Actions workflow file."""
type Workflow implements Node {
  """The Node ID of the Workflow object"""
  id: ID!
  """The name of the workflow."""
  name: String!
}

"""A workflow run."""
type WorkflowRun implements Node {
  """The check suite this workflow run belongs to."""
  checkSuite: CheckSuite!
  """The Node ID of the WorkflowRun object"""
  id: ID!
  """The workflow executed in this workflow run."""
  workflow: Workflow!
}

"""A check suite."""
type CheckSuite implements Node {
  """The conclusion of this check suite."""
  conclusion: CheckConclusionState
  """The Node ID of the CheckSuite object"""
  id: ID!
  """The status of this check suite."""
  status: CheckStatusState!
  """The workflow run associated with this check suite."""
  workflowRun: WorkflowRun
}

"""A check run."""
type CheckRun implements Node {
  """The check suite that this run is a part of."""
  checkSuite: CheckSuite!
  """Identifies the date and time when the check run was completed."""
  completedAt: DateTime
  """The conclusion of the check run."""
  conclusion: CheckConclusionState
  """The URL from which to find full details of the check run on the integrator's site."""
  detailsUrl: URI
  """The Node ID of the CheckRun object"""
  id: ID!
  """Whether this is required to pass before merging for a specific pull request."""
  isRequired(
    """The id of the pull request this is required for"""
    pullRequestId: ID
    """The number of the pull request this is required for"""
    pullRequestNumber: Int
  ): Boolean!
  """The name of the check for this check run."""
  name: String!
  """Identifies the date and time when the check run was started."""
  startedAt: DateTime
  """The current status of the check run."""
  status: CheckStatusState!
}
`;
