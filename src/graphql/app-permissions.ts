// The app permission each GraphQL field needs from an installation token or a
// user-to-server token, in one place, as app-permission-table.ts is for REST: reads by
// the type of record a field belongs to or returns (connections and edges count as their
// records), mutations by name. Checked before anything runs (cost.ts); a field whose need
// the token's permissions do not meet is refused as upstream refuses it: FORBIDDEN,
// "Resource not accessible by integration". Repository reach is checked as on REST
// (repos.access), by the resolvers.
import type { AppPermissionNeed } from '../http/types.ts';

const read = (name: string) => ({ [name]: 'read' as const });
const write = (name: string) => ({ [name]: 'write' as const });
/** Records of issues and pull requests alike (comments, labels, reactions): either permission. */
const ISSUE_OR_PULL_READ: AppPermissionNeed = [read('issues'), read('pull_requests')];
const ISSUE_OR_PULL_WRITE: AppPermissionNeed = [write('issues'), write('pull_requests')];

/** Reads, by record type; a type not named here needs no permission (users, organizations, metadata, payloads). */
const TYPE_NEEDS: Readonly<Record<string, AppPermissionNeed>> = {
  Repository: read('metadata'), Language: read('metadata'), License: {}, LicenseRule: {},
  BranchProtectionRule: read('administration'),
  // Rulesets are the repository's settings, as on REST (…/rulesets): administration.
  RepositoryRuleset: read('administration'), RepositoryRule: read('administration'), RepositoryRulesetBypassActor: read('administration'),
  Ref: read('contents'), Commit: read('contents'), Tree: read('contents'), TreeEntry: read('contents'), Blob: read('contents'),
  Tag: read('contents'), Release: read('contents'), ReleaseAsset: read('contents'),
  Issue: read('issues'), IssueComment: ISSUE_OR_PULL_READ, Label: ISSUE_OR_PULL_READ, Milestone: ISSUE_OR_PULL_READ,
  Reaction: ISSUE_OR_PULL_READ, ReactionGroup: ISSUE_OR_PULL_READ,
  PullRequest: read('pull_requests'), PullRequestCommit: read('pull_requests'), PullRequestChangedFile: read('pull_requests'),
  PullRequestReview: read('pull_requests'), PullRequestReviewComment: read('pull_requests'), ReviewRequest: read('pull_requests'),
  PullRequestReviewThread: read('pull_requests'), AutoMergeRequest: read('pull_requests'),
  Deployment: read('deployments'), DeploymentStatus: read('deployments'),
  StatusContext: read('statuses'), StatusCheckRollup: read('statuses'), CheckSuite: read('checks'), CheckRun: read('checks'),
  Workflow: read('actions'), WorkflowRun: read('actions'),
  Project: [read('repository_projects'), read('organization_projects')], ProjectColumn: [read('repository_projects'), read('organization_projects')],
  ProjectCard: [read('repository_projects'), read('organization_projects')],
  ProjectV2: read('organization_projects'), ProjectV2Item: read('organization_projects'),
  Team: read('members'),
  // Team discussions: team_discussions, as on REST (src/http/app-permission-table.ts).
  TeamDiscussion: read('team_discussions'), TeamDiscussionComment: read('team_discussions'),
};

/** Mutations, by name; one not named here is closed to apps. */
const MUTATION_NEEDS: Readonly<Record<string, AppPermissionNeed>> = {
  createRepository: write('administration'),
  createRef: write('contents'), updateRef: write('contents'), deleteRef: write('contents'), createCommitOnBranch: write('contents'),
  createIssue: write('issues'), updateIssue: write('issues'), closeIssue: write('issues'), reopenIssue: write('issues'),
  addComment: ISSUE_OR_PULL_WRITE, updateIssueComment: ISSUE_OR_PULL_WRITE, deleteIssueComment: ISSUE_OR_PULL_WRITE,
  minimizeComment: ISSUE_OR_PULL_WRITE, unminimizeComment: ISSUE_OR_PULL_WRITE,
  addAssigneesToAssignable: ISSUE_OR_PULL_WRITE, removeAssigneesFromAssignable: ISSUE_OR_PULL_WRITE,
  addLabelsToLabelable: ISSUE_OR_PULL_WRITE, removeLabelsFromLabelable: ISSUE_OR_PULL_WRITE,
  lockLockable: ISSUE_OR_PULL_WRITE, unlockLockable: ISSUE_OR_PULL_WRITE,
  addReaction: ISSUE_OR_PULL_WRITE, removeReaction: ISSUE_OR_PULL_WRITE,
  createPullRequest: write('pull_requests'), updatePullRequest: write('pull_requests'), closePullRequest: write('pull_requests'),
  reopenPullRequest: write('pull_requests'), convertPullRequestToDraft: write('pull_requests'),
  markPullRequestReadyForReview: write('pull_requests'), requestReviews: write('pull_requests'),
  addPullRequestReview: write('pull_requests'), submitPullRequestReview: write('pull_requests'),
  mergePullRequest: write('contents'),
  resolveReviewThread: write('pull_requests'), unresolveReviewThread: write('pull_requests'),
  enablePullRequestAutoMerge: write('pull_requests'), disablePullRequestAutoMerge: write('pull_requests'),
  // A repository's rulesets or an organization's: the administration of the one or the other.
  createRepositoryRuleset: [write('administration'), write('organization_administration')],
  updateRepositoryRuleset: [write('administration'), write('organization_administration')],
  deleteRepositoryRuleset: [write('administration'), write('organization_administration')],
};

const recordOf = (typeName: string) => typeName.replace(/(Connection|Edge)$/, '');

/** What a field needs: its mutation's entry, or the needs of the record it belongs to and the record it returns. */
export function appFieldNeeds(parentType: string, fieldName: string, returnType: string, mutationType: string | null): AppPermissionNeed[] {
  if (parentType === mutationType) return [MUTATION_NEEDS[fieldName] ?? 'none'];
  const needs: AppPermissionNeed[] = [];
  for (const t of [parentType, recordOf(returnType)]) {
    const need = TYPE_NEEDS[t];
    if (need !== undefined) needs.push(need);
  }
  return needs;
}

export const GRAPHQL_TYPE_NEEDS = TYPE_NEEDS;
export const GRAPHQL_MUTATION_NEEDS = MUTATION_NEEDS;
