// Deployments in GraphQL: Deployment, DeploymentStatus and Repository.deployments.
// Names, types and descriptions as in @octokit/graphql-schema.
export const deploymentsTypeDefs = /* GraphQL */ `
"""Represents triggered deployment instance."""
type Deployment implements Node {
  """Identifies the commit sha of the deployment."""
  commit: Commit
  """Identifies the oid of the deployment commit, even if the commit has been deleted."""
  commitOid: String!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the actor who triggered the deployment."""
  creator: Actor!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The deployment description."""
  description: String
  """The latest environment to which this deployment was made."""
  environment: String
  """The Node ID of the Deployment object"""
  id: ID!
  """The latest environment to which this deployment was made."""
  latestEnvironment: String
  """The latest status of this deployment."""
  latestStatus: DeploymentStatus
  """The original environment to which this deployment was made."""
  originalEnvironment: String
  """Extra information that a deployment system might need."""
  payload: String
  """Identifies the Ref of the deployment, if the deployment was created by ref."""
  ref: Ref
  """Identifies the repository associated with the deployment."""
  repository: Repository!
  """The current state of the deployment."""
  state: DeploymentState
  """A list of statuses associated with the deployment."""
  statuses(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): DeploymentStatusConnection
  """The deployment task."""
  task: String
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
}

"""The connection type for Deployment."""
type DeploymentConnection {
  """A list of edges."""
  edges: [DeploymentEdge]
  """A list of nodes."""
  nodes: [Deployment]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type DeploymentEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Deployment
}

"""Ordering options for deployment connections"""
input DeploymentOrder {
  """The field to order deployments by."""
  field: DeploymentOrderField!
  """The ordering direction."""
  direction: OrderDirection!
}

"""Properties by which deployment connections can be ordered."""
enum DeploymentOrderField {
  """Order collection by creation time"""
  CREATED_AT
}

"""The possible states in which a deployment can be."""
enum DeploymentState {
  """The pending deployment was not updated after 30 minutes."""
  ABANDONED
  """The deployment is currently active."""
  ACTIVE
  """An inactive transient deployment."""
  DESTROYED
  """The deployment experienced an error."""
  ERROR
  """The deployment has failed."""
  FAILURE
  """The deployment is inactive."""
  INACTIVE
  """The deployment is in progress."""
  IN_PROGRESS
  """The deployment is pending."""
  PENDING
  """The deployment has queued"""
  QUEUED
  """The deployment was successful."""
  SUCCESS
  """The deployment is waiting."""
  WAITING
}

"""Describes the status of a given deployment attempt."""
type DeploymentStatus implements Node {
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the actor who triggered the deployment."""
  creator: Actor!
  """Identifies the deployment associated with status."""
  deployment: Deployment!
  """Identifies the description of the deployment."""
  description: String
  """Identifies the environment of the deployment at the time of this deployment status"""
  environment: String
  """Identifies the environment URL of the deployment."""
  environmentUrl: URI
  """The Node ID of the DeploymentStatus object"""
  id: ID!
  """Identifies the log URL of the deployment."""
  logUrl: URI
  """Identifies the current state of the deployment."""
  state: DeploymentStatusState!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
}

"""The connection type for DeploymentStatus."""
type DeploymentStatusConnection {
  """A list of edges."""
  edges: [DeploymentStatusEdge]
  """A list of nodes."""
  nodes: [DeploymentStatus]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type DeploymentStatusEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: DeploymentStatus
}

"""The possible states for a deployment status."""
enum DeploymentStatusState {
  """The deployment experienced an error."""
  ERROR
  """The deployment has failed."""
  FAILURE
  """The deployment is inactive."""
  INACTIVE
  """The deployment is in progress."""
  IN_PROGRESS
  """The deployment is pending."""
  PENDING
  """The deployment is queued"""
  QUEUED
  """The deployment was successful."""
  SUCCESS
  """The deployment is waiting."""
  WAITING
}

extend type Repository {
  """Deployments associated with the repository"""
  deployments(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Environments to list deployments for"""
    environments: [String!]
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Ordering options for deployments returned from the connection."""
    orderBy: DeploymentOrder = {field: CREATED_AT, direction: ASC}
  ): DeploymentConnection!
}
`;
