// GraphQL of closing keywords: the issues a pull request closes when it merges, and
// the pull requests that would close an issue.
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

extend type Issue {
  """List of open pull requests referenced from this issue"""
  closedByPullRequestsReferences(
    """Returns the elements in the list that come after the specified cursor."""
    after: String
    """Returns the elements in the list that come before the specified cursor."""
    before: String
    """Returns the first _n_ elements from the list."""
    first: Int
    """Include closed PRs in results"""
    includeClosedPrs: Boolean = false
    """Returns the last _n_ elements from the list."""
    last: Int
  ): PullRequestConnection
}
`;
