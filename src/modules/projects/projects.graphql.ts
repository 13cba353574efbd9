// Classic project boards and their cards, and projects (beta) items, as upstream's
// schema has them, and where issues and pull requests show them (projectCards,
// projectItems), which gh asks for on every `issue view` and `pr view`.
/** project(number:) and projects on each owner of classic projects. */
const OWNER_FIELDS = /* GraphQL */ `
  """Find project by number."""
  project(
    """The project number to find."""
    number: Int!
  ): Project
  """A list of projects under the owner."""
  projects(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
    """Query to search projects by, currently only searching by name."""
    search: String
    """A list of states to filter the projects by."""
    states: [ProjectState!]
  ): ProjectConnection!
`;

export const projectsTypeDefs = /* GraphQL */ `
"""The possible archived states of a project card."""
enum ProjectCardArchivedState {
  """A project card that is archived"""
  ARCHIVED
  """A project card that is not archived"""
  NOT_ARCHIVED
}

"""State of the project; either 'open' or 'closed'"""
enum ProjectState {
  """The project is closed."""
  CLOSED
  """The project is open."""
  OPEN
}

"""Projects manage issues, pull requests and notes within a project owner."""
type Project implements Node {
  """The project's description body."""
  body: String
  """True if the object is closed (definition of closed may depend on type)"""
  closed: Boolean!
  """List of columns in the project"""
  columns(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ProjectColumnConnection!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """The actor who originally created the project."""
  creator: Actor
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the Project object"""
  id: ID!
  """The project's name."""
  name: String!
  """The project's number."""
  number: Int!
  """The HTTP path for this project"""
  resourcePath: URI!
  """Whether the project is open or closed."""
  state: ProjectState!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
  """The HTTP URL for this project"""
  url: URI!
  """Check if the current viewer can update this object."""
  viewerCanUpdate: Boolean!
}

"""The connection type for Project."""
type ProjectConnection {
  """A list of edges."""
  edges: [ProjectEdge]
  """A list of nodes."""
  nodes: [Project]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type ProjectEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: Project
}

"""The connection type for ProjectColumn."""
type ProjectColumnConnection {
  """A list of edges."""
  edges: [ProjectColumnEdge]
  """A list of nodes."""
  nodes: [ProjectColumn]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type ProjectColumnEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: ProjectColumn
}

"""A column inside a project."""
type ProjectColumn implements Node {
  """List of cards in the column"""
  cards(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """A list of archived states to filter the cards by"""
    archivedStates: [ProjectCardArchivedState] = [ARCHIVED, NOT_ARCHIVED]
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ProjectCardConnection!
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the ProjectColumn object"""
  id: ID!
  """The project column's name."""
  name: String!
  """The project that contains this column."""
  project: Project!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
}

"""Types that can be inside Project Cards."""
union ProjectCardItem = Issue | PullRequest

"""A card in a project."""
type ProjectCard implements Node {
  """The project column this card is associated under."""
  column: ProjectColumn
  """The card content item"""
  content: ProjectCardItem
  """Identifies the date and time when the object was created."""
  createdAt: DateTime!
  """The actor who created this card"""
  creator: Actor
  """Identifies the primary key from the database."""
  databaseId: Int
  """The Node ID of the ProjectCard object"""
  id: ID!
  """Whether the card is archived"""
  isArchived: Boolean!
  """The card note"""
  note: String
  """The project that contains this card."""
  project: Project!
  """Identifies the date and time when the object was last updated."""
  updatedAt: DateTime!
}

"""The connection type for ProjectCard."""
type ProjectCardConnection {
  """A list of edges."""
  edges: [ProjectCardEdge]
  """A list of nodes."""
  nodes: [ProjectCard]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type ProjectCardEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: ProjectCard
}

"""New projects that manage issues, pull requests and drafts using tables and boards."""
type ProjectV2 implements Node {
  """The Node ID of the ProjectV2 object"""
  id: ID!
  """The project's number."""
  number: Int!
  """The project's name."""
  title: String!
}

"""An item within a Project."""
type ProjectV2Item implements Node {
  """The Node ID of the ProjectV2Item object"""
  id: ID!
  """Whether the item is archived."""
  isArchived: Boolean!
  """The project that contains this item."""
  project: ProjectV2!
}

"""The connection type for ProjectV2Item."""
type ProjectV2ItemConnection {
  """A list of edges."""
  edges: [ProjectV2ItemEdge]
  """A list of nodes."""
  nodes: [ProjectV2Item]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
  """Identifies the total count of items in the connection."""
  totalCount: Int!
}

"""An edge in a connection."""
type ProjectV2ItemEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: ProjectV2Item
}
` + ['Issue', 'PullRequest'].map((type) => /* GraphQL */ `
extend type ${type} {
  """List of project cards associated with this ${type === 'Issue' ? 'issue' : 'pull request'}."""
  projectCards(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """A list of archived states to filter the cards by"""
    archivedStates: [ProjectCardArchivedState] = [ARCHIVED, NOT_ARCHIVED]
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ProjectCardConnection!
  """List of project items associated with this ${type === 'Issue' ? 'issue' : 'pull request'}."""
  projectItems(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Include archived items."""
    includeArchived: Boolean = true
    """Returns the last _n_ elements from the list."""
    last: Int
  ): ProjectV2ItemConnection!
}
`).join('') + ['Organization', 'Repository', 'User'].map((type) => `
extend type ${type} {${OWNER_FIELDS}}
`).join('');
