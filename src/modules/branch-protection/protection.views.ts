// Branch protection → API representation (upstream's protected-branch record and its
// sub-resources). Pure.
import type { Urls } from '../../urls.ts';
import { appRecord } from '../apps/apps.views.ts';
import { encodePath, repoUrls } from '../git-data/git-data.views.ts';
import { organizationSimple, team } from '../orgs/orgs.views.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { BranchRules, ProtectionRule, PullRequestReviews, StatusChecks } from './protection.model.ts';
import type { Protection } from './protection.service.ts';

export function protectionUrl(urls: Urls, p: Protection): string {
  return `${repoUrls(urls, p.repo).api}/branches/${encodePath(p.rule.pattern)}/protection`;
}

/** Where the protection of `branch` is read and managed (the branch's name, whatever pattern covers it). */
export function branchProtectionUrl(urls: Urls, repo: Repo, branch: string): string {
  return `${repoUrls(urls, repo).api}/branches/${encodePath(branch)}/protection`;
}

/** Whom required checks bind, as upstream summarizes it: no one without checks, everyone when admins are included. */
function enforcementLevel(r: BranchRules | null): string {
  if (!r?.requiredStatusChecks) return 'off';
  return r.enforceAdmins ? 'everyone' : 'non_admins';
}

export function statusChecksView(base: string, c: StatusChecks, rules: BranchRules | null) {
  return {
    url: `${base}/required_status_checks`,
    enforcement_level: enforcementLevel(rules),
    strict: c.strict,
    contexts: c.checks.map((x) => x.context),
    contexts_url: `${base}/required_status_checks/contexts`,
    checks: c.checks.map((x) => ({ context: x.context, app_id: x.appId })),
  };
}

export function restrictionsView(urls: Urls, base: string, p: Protection) {
  const url = `${base}/restrictions`;
  return {
    url, users_url: `${url}/users`, teams_url: `${url}/teams`, apps_url: `${url}/apps`,
    users: restrictedUsersView(urls, p),
    teams: restrictedTeamsView(urls, p),
    // Upstream's restriction policy types an app's description as a string, never
    // null (the apps list itself answers the integration record, where null is allowed).
    apps: p.apps.map((presented) => {
      const a = appRecord(presented, urls);
      return { ...a, description: a.description ?? '', owner: a.owner && restrictionAppOwner(urls, a.owner, p.appOwnerOrgs) };
    }),
  };
}

/**
 * An app's owner in a restriction policy, upstream's shape: an organization's with its
 * addresses and description. A user has none of those; upstream's schema types them as
 * strings, so a user's are empty ('' as for a missing description).
 */
function restrictionAppOwner(urls: Urls, owner: ReturnType<typeof simpleUser>, orgs: Protection['appOwnerOrgs']) {
  const org = orgs.get(owner.id);
  const o = org ? organizationSimple(org.account, org.settings.description, urls) : null;
  return {
    ...owner,
    hooks_url: o?.hooks_url ?? '', issues_url: o?.issues_url ?? '', members_url: o?.members_url ?? '',
    public_members_url: o?.public_members_url ?? '', description: o?.description ?? '',
  };
}

/** One list of restrictions/{users,teams,apps}, in the rule's order. */
export function restrictedUsersView(urls: Urls, p: Protection) {
  return p.users.map((u) => simpleUser(u, urls));
}

export function restrictedTeamsView(urls: Urls, p: Protection) {
  return p.teams.map((t) => team(t.team, t.parent, t.orgLogin, urls));
}

export function restrictedAppsView(urls: Urls, p: Protection) {
  return p.apps.map((a) => appRecord(a, urls));
}

export function reviewsView(base: string, p: Protection) {
  return reviewsOf(base, p.rule.rules.requiredPullRequestReviews!);
}

function reviewsOf(base: string, r: PullRequestReviews) {
  return {
    url: `${base}/required_pull_request_reviews`,
    dismiss_stale_reviews: r.dismissStaleReviews,
    require_code_owner_reviews: r.requireCodeOwnerReviews,
    required_approving_review_count: r.requiredApprovingReviewCount,
    require_last_push_approval: r.requireLastPushApproval,
  };
}

export function flagView(base: string, name: 'enforce_admins' | 'required_signatures', enabled: boolean) {
  return { url: `${base}/${name}`, enabled };
}

/** The switches of a rule, as every protection record shows them (an unprotected branch's: what no rule means). */
function switchesView(base: string, r: BranchRules | null) {
  return {
    required_signatures: flagView(base, 'required_signatures', r?.requiredSignatures ?? false),
    enforce_admins: flagView(base, 'enforce_admins', r?.enforceAdmins ?? false),
    required_linear_history: { enabled: r?.requiredLinearHistory ?? false },
    // Without a rule anyone who may push may force-push and delete.
    allow_force_pushes: { enabled: r ? r.allowForcePushes : true },
    allow_deletions: { enabled: r ? r.allowDeletions : true },
    block_creations: { enabled: r?.blockCreations ?? false },
    required_conversation_resolution: { enabled: r?.requiredConversationResolution ?? false },
    lock_branch: { enabled: r?.lockBranch ?? false },
    allow_fork_syncing: { enabled: r?.allowForkSyncing ?? false },
  };
}

/** GET and PUT …/protection: the whole rule, for the repository's admins. */
export function protectionView(urls: Urls, p: Protection) {
  const base = protectionUrl(urls, p);
  const r = p.rule.rules;
  return {
    url: base,
    enabled: true,
    name: p.branch,
    protection_url: branchProtectionUrl(urls, p.repo, p.branch),
    ...(r.requiredStatusChecks ? { required_status_checks: statusChecksView(base, r.requiredStatusChecks, r) } : {}),
    ...(r.requiredPullRequestReviews ? { required_pull_request_reviews: reviewsView(base, p) } : {}),
    ...(r.restrictions ? { restrictions: restrictionsView(urls, base, p) } : {}),
    ...switchesView(base, r),
  };
}

/**
 * The protection of a branch inside a branch record (lists and GET …/branches/{branch}),
 * for anyone who reads the repository: no restrictions, whose users and teams are the
 * admins' to read. An unprotected branch shows what no rule means.
 */
export function branchProtectionView(urls: Urls, repo: Repo, branch: string, rule: ProtectionRule | null) {
  const url = branchProtectionUrl(urls, repo, branch);
  const r = rule?.rules ?? null;
  const reviews = r?.requiredPullRequestReviews;
  return {
    url,
    enabled: rule !== null,
    name: branch,
    protection_url: url,
    required_status_checks: statusChecksView(url, r?.requiredStatusChecks ?? { strict: false, checks: [] }, r),
    ...(reviews ? { required_pull_request_reviews: reviewsOf(url, reviews) } : {}),
    ...switchesView(url, r),
  };
}
