// GraphQL of closing keywords: the issues a pull request closes when it merges.
export const closingTypeDefs = /* GraphQL */ `
extend type PullRequest {
  """List of issues that may be closed by this pull request"""
  closingIssuesReferences(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Returns the last _n_ elements from the list."""
    last: Int
  ): IssueConnection
}
`;
