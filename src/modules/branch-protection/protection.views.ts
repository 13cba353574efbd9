// Branch protection → API representation (upstream's protected-branch record and its
// sub-resources). Pure.
import type { Urls } from '../../urls.ts';
import { appRecord } from '../apps/apps.views.ts';
import { encodePath, repoUrls } from '../git-data/git-data.views.ts';
import { team } from '../orgs/orgs.views.ts';
import { simpleUser } from '../users/users.views.ts';
import type { StatusChecks } from './protection.model.ts';
import type { Protection } from './protection.service.ts';

export function protectionUrl(urls: Urls, p: Protection): string {
  return `${repoUrls(urls, p.repo).api}/branches/${encodePath(p.rule.pattern)}/protection`;
}

export function statusChecksView(base: string, c: StatusChecks) {
  return {
    url: `${base}/required_status_checks`,
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
    apps: restrictedAppsView(urls, p).map((a) => ({ ...a, description: a.description ?? '' })),
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
  const r = p.rule.rules.requiredPullRequestReviews!;
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

export function protectionView(urls: Urls, p: Protection) {
  const base = protectionUrl(urls, p);
  const r = p.rule.rules;
  return {
    url: base,
    ...(r.requiredStatusChecks ? { required_status_checks: statusChecksView(base, r.requiredStatusChecks) } : {}),
    ...(r.requiredPullRequestReviews ? { required_pull_request_reviews: reviewsView(base, p) } : {}),
    ...(r.restrictions ? { restrictions: restrictionsView(urls, base, p) } : {}),
    required_signatures: flagView(base, 'required_signatures', r.requiredSignatures),
    enforce_admins: flagView(base, 'enforce_admins', r.enforceAdmins),
    required_linear_history: { enabled: r.requiredLinearHistory },
    allow_force_pushes: { enabled: r.allowForcePushes },
    allow_deletions: { enabled: r.allowDeletions },
    block_creations: { enabled: r.blockCreations },
    required_conversation_resolution: { enabled: r.requiredConversationResolution },
    lock_branch: { enabled: r.lockBranch },
    allow_fork_syncing: { enabled: r.allowForkSyncing },
  };
}
