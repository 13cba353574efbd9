// The permissions an app may ask for, with the levels each allows, and the events it may
// subscribe to: upstream's lists (the app-permissions schema of @octokit/openapi and the
// event names of @octokit/openapi-webhooks), copied here so validation needs no JSON
// of several megabytes at run time. `team_discussions` is no longer in that schema, but
// the spec names it for scoped tokens and upstream's webhook payloads still carry it.

export type PermissionLevel = 'read' | 'write' | 'admin';

export const PERMISSION_LEVELS: Readonly<Record<string, readonly PermissionLevel[]>> = {
  actions: ['read', 'write'],
  administration: ['read', 'write'],
  artifact_metadata: ['read', 'write'],
  attestations: ['read', 'write'],
  checks: ['read', 'write'],
  code_quality: ['read', 'write'],
  codespaces: ['read', 'write'],
  contents: ['read', 'write'],
  dependabot_secrets: ['read', 'write'],
  deployments: ['read', 'write'],
  discussions: ['read', 'write'],
  environments: ['read', 'write'],
  issues: ['read', 'write'],
  merge_queues: ['read', 'write'],
  metadata: ['read', 'write'],
  packages: ['read', 'write'],
  pages: ['read', 'write'],
  pull_requests: ['read', 'write'],
  repository_custom_properties: ['read', 'write'],
  repository_hooks: ['read', 'write'],
  repository_projects: ['read', 'write', 'admin'],
  secret_scanning_alerts: ['read', 'write'],
  secrets: ['read', 'write'],
  security_events: ['read', 'write'],
  single_file: ['read', 'write'],
  statuses: ['read', 'write'],
  vulnerability_alerts: ['read', 'write'],
  workflows: ['write'],
  custom_properties_for_organizations: ['read', 'write'],
  members: ['read', 'write'],
  organization_administration: ['read', 'write'],
  organization_custom_roles: ['read', 'write'],
  organization_custom_org_roles: ['read', 'write'],
  organization_custom_properties: ['read', 'write', 'admin'],
  organization_copilot_seat_management: ['read', 'write'],
  organization_copilot_agent_settings: ['read', 'write'],
  organization_announcement_banners: ['read', 'write'],
  organization_events: ['read'],
  organization_hooks: ['read', 'write'],
  organization_personal_access_tokens: ['read', 'write'],
  organization_personal_access_token_requests: ['read', 'write'],
  organization_plan: ['read'],
  organization_projects: ['read', 'write', 'admin'],
  organization_packages: ['read', 'write'],
  organization_secrets: ['read', 'write'],
  organization_self_hosted_runners: ['read', 'write'],
  organization_user_blocking: ['read', 'write'],
  email_addresses: ['read', 'write'],
  followers: ['read', 'write'],
  git_ssh_keys: ['read', 'write'],
  gpg_keys: ['read', 'write'],
  interaction_limits: ['read', 'write'],
  profile: ['write'],
  starring: ['read', 'write'],
  team_discussions: ['read', 'write'],
  enterprise_custom_properties_for_organizations: ['read', 'write', 'admin'],
};

/** Events an app subscribes to (installation events reach every app without asking). */
export const APP_EVENTS: ReadonlySet<string> = new Set([
  'branch_protection_configuration', 'branch_protection_rule', 'check_run', 'check_suite', 'code_scanning_alert', 'commit_comment',
  'create', 'custom_property', 'custom_property_values', 'delete', 'dependabot_alert', 'deploy_key',
  'deployment', 'deployment_protection_rule', 'deployment_review', 'deployment_status', 'discussion', 'discussion_comment',
  'fork', 'gollum', 'issue_comment', 'issue_dependencies', 'issues', 'label',
  'marketplace_purchase', 'member', 'membership', 'merge_group', 'milestone', 'org_block',
  'organization', 'package', 'page_build', 'personal_access_token_request', 'project', 'project_card',
  'project_column', 'projects_v2', 'projects_v2_item', 'projects_v2_status_update', 'public', 'pull_request',
  'pull_request_review', 'pull_request_review_comment', 'pull_request_review_thread', 'push', 'registry_package', 'release',
  'repository', 'repository_advisory', 'repository_dispatch', 'repository_import', 'repository_ruleset', 'repository_vulnerability_alert',
  'secret_scanning_alert', 'secret_scanning_alert_location', 'secret_scanning_scan', 'security_advisory', 'security_and_analysis', 'sponsorship',
  'star', 'status', 'sub_issues', 'team', 'team_add', 'watch',
  'workflow_dispatch', 'workflow_job', 'workflow_run',
]);

export type Permissions = Record<string, PermissionLevel>;

const RANK: Record<PermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/** Problems of a permissions object an app or a token asks for (names and levels upstream knows). */
export function permissionProblems(raw: unknown): string[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return ['permissions must be an object'];
  const problems: string[] = [];
  for (const [name, level] of Object.entries(raw as Record<string, unknown>)) {
    const allowed = PERMISSION_LEVELS[name];
    if (!allowed) problems.push(`${name} is not a known permission`);
    else if (typeof level !== 'string' || !allowed.includes(level as PermissionLevel)) problems.push(`${name} must be one of ${allowed.join(', ')}`);
  }
  return problems;
}

/** True when `granted` holds every entry of `asked` at the same or a higher level. */
export function permissionsCover(granted: Permissions, asked: Permissions): boolean {
  return Object.entries(asked).every(([name, level]) => granted[name] !== undefined && RANK[granted[name]] >= RANK[level]);
}

export function levelAtLeast(held: PermissionLevel | undefined, needed: PermissionLevel): boolean {
  return held !== undefined && RANK[held] >= RANK[needed];
}
