// Table types. Booleans are stored as integers 0/1 in both dialects and
// timestamps as 'YYYY-MM-DDTHH:MM:SSZ' text, so one set of queries serves both.
import type { Generated } from 'kysely';

export type Bool = number;

export interface UsersTable {
  id: Generated<number>;
  login: string;
  login_lower: string;
  type: 'User' | 'Organization' | 'Bot';
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  email_private: Bool;
  bio: string | null;
  twitter_username: string | null;
  hireable: Bool | null;
  site_admin: Bool;
  suspended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrganizationsTable {
  id: number;
  description: string | null;
  billing_email: string | null;
  default_repository_permission: 'read' | 'write' | 'admin' | 'none';
  members_can_create_repositories: Bool;
  members_can_create_public_repositories: Bool;
  members_can_create_private_repositories: Bool;
  members_can_create_internal_repositories: Bool;
  has_organization_projects: Bool;
  has_repository_projects: Bool;
  web_commit_signoff_required: Bool;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  token_last_eight: string;
  scopes: string;
  note: string | null;
  note_url: string | null;
  kind: 'personal' | 'impersonation' | 'oauth';
  oauth_app_id: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OauthAppsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  url: string | null;
  callback_url: string | null;
  client_id: string;
  client_secret_hash: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserPasswordsTable {
  user_id: number;
  /** scrypt$N$r$p$salt$hash (base64); never selected outside the sign-in check. */
  password_hash: string;
  updated_at: string;
}

export interface WebSessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface OauthGrantsTable {
  id: Generated<number>;
  user_id: number;
  oauth_app_id: number;
  scopes: string;
  created_at: string;
  updated_at: string;
}

export interface OauthCodesTable {
  code_hash: string;
  oauth_app_id: number;
  user_id: number;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  expires_at: string;
}

export interface OauthDeviceCodesTable {
  id: Generated<number>;
  device_code_hash: string;
  user_code: string;
  /** The client: an OAuth app's id or (GitHub Apps' device flow) an app's, exactly one of the two. */
  oauth_app_id: number | null;
  app_id: number | null;
  scopes: string;
  state: 'pending' | 'approved' | 'denied';
  user_id: number | null;
  interval_seconds: number;
  /** Epoch milliseconds of the latest poll (slow_down is measured against it). */
  last_polled_at: number | null;
  expires_at: string;
}

export interface RateLimitsTable {
  bucket: string;
  reset_at: number;
  used: number;
}

export interface LoginFailuresTable {
  login_lower: string;
  window_ends_at: number;
  failures: number;
}

export interface OrgMembershipsTable {
  org_id: number;
  user_id: number;
  role: 'admin' | 'member';
  state: 'active' | 'pending';
  public: Bool;
  created_at: string;
  updated_at: string;
}

export interface TeamsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  slug: string;
  description: string | null;
  privacy: 'secret' | 'closed';
  permission: string;
  notification_setting: 'notifications_enabled' | 'notifications_disabled';
  parent_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: 'member' | 'maintainer';
  created_at: string;
}

export type Visibility = 'public' | 'private' | 'internal';

export interface RepositoriesTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  name_lower: string;
  description: string | null;
  homepage: string | null;
  visibility: Visibility;
  parent_id: number | null;
  source_id: number | null;
  template_id: number | null;
  default_branch: string;
  topics: string;
  license_key: string | null;
  language: string | null;
  size_kb: number;
  squash_merge_commit_title: string;
  squash_merge_commit_message: string;
  merge_commit_title: string;
  merge_commit_message: string;
  pushed_at: string | null;
  created_at: string;
  updated_at: string;
  is_fork: Bool;
  is_template: Bool;
  has_issues: Bool;
  has_projects: Bool;
  has_wiki: Bool;
  has_downloads: Bool;
  has_discussions: Bool;
  has_pages: Bool;
  archived: Bool;
  disabled: Bool;
  allow_squash_merge: Bool;
  allow_merge_commit: Bool;
  allow_rebase_merge: Bool;
  allow_auto_merge: Bool;
  allow_update_branch: Bool;
  allow_forking: Bool;
  delete_branch_on_merge: Bool;
  web_commit_signoff_required: Bool;
  /** 1 while an organization or user migration holds the repository locked (0033). */
  migration_locked: Generated<Bool>;
}

export interface RepositoryRedirectsTable {
  full_name_lower: string;
  repository_id: number;
}

export interface StarsTable {
  user_id: number;
  repository_id: number;
  created_at: string;
}

export interface SubscriptionsTable {
  user_id: number;
  repository_id: number;
  subscribed: Bool;
  ignored: Bool;
  reason: string | null;
  created_at: string;
}

export interface CollaboratorsTable {
  repository_id: number;
  user_id: number;
  /** The effective base role: pull, triage, push, maintain or admin. */
  permission: string;
  /** The custom repository role granted, if any (its base role is in `permission`). */
  custom_role_id: number | null;
  created_at: string;
}

export interface RepositoryInvitationsTable {
  id: Generated<number>;
  repository_id: number;
  invitee_id: number;
  inviter_id: number;
  permission: string;
  custom_role_id: number | null;
  created_at: string;
}

export interface CustomRepositoryRolesTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  name_lower: string;
  description: string | null;
  base_role: 'read' | 'triage' | 'write' | 'maintain';
  /** JSON array of additional permission names. */
  permissions: string;
  created_at: string;
  updated_at: string;
}

export interface RepositoryInvitationQuotasTable {
  repository_id: number;
  /** JSON array of the timestamps of invitations sent in the current window. */
  sent_at: string;
}

export interface TeamRepositoriesTable {
  team_id: number;
  repository_id: number;
  permission: string;
}

export interface OutboxTable {
  id: Generated<number>;
  event: string;
  action: string | null;
  repository_id: number | null;
  organization_id: number | null;
  actor_id: number | null;
  payload: string;
  created_at: string;
  dispatched_at: string | null;
}

export interface UserEmailsTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  /** email.toLowerCase(): addresses are unique whatever their case. */
  email_lower: string;
  verified: Bool;
  primary: Bool;
  /** public or private on the primary address, null on the others (as upstream shows them). */
  visibility: 'public' | 'private' | null;
  created_at: string;
}

/** A primary GPG key (primary_key_id null) or one of its subkeys. */
export interface SshKeysTable {
  id: Generated<number>;
  user_id: number | null;
  repository_id: number | null;
  title: string;
  key: string;
  fingerprint: string;
  read_only: Bool;
  added_by_id: number | null;
  created_at: string;
  last_used: string | null;
}

export interface GpgKeysTable {
  id: Generated<number>;
  user_id: number;
  primary_key_id: number | null;
  name: string | null;
  /** 16 upper-case hex digits. */
  key_id: string;
  /** The armored key as uploaded; on the primary row only. */
  raw_key: string | null;
  /** Base64 of the key packet (with its packet header). */
  public_key: string;
  /** JSON array of the user-id e-mail addresses; [] on subkeys. */
  emails: string;
  can_sign: Bool;
  can_encrypt_comms: Bool;
  can_encrypt_storage: Bool;
  can_certify: Bool;
  revoked: Bool;
  created_at: string;
  expires_at: string | null;
}

export interface InteractionLimitsTable {
  id: Generated<number>;
  scope: 'organization' | 'repository' | 'user';
  /** The organization's or user's account id, or the repository id, as `scope` says. */
  target_id: number;
  limit: 'existing_users' | 'contributors_only' | 'collaborators_only';
  expires_at: string;
  created_at: string;
}

export interface HooksTable {
  id: Generated<number>;
  scope: 'repository' | 'organization' | 'app';
  /** The repository id, the organization's account id, or the app's id, as `scope` says. */
  target_id: number;
  name: string;
  active: Bool;
  /** JSON array of event names; ["*"] is every event. */
  events: string;
  config_url: string;
  config_content_type: 'json' | 'form';
  /**
   * Write-only: never selected into API output (see the hooks store's column list).
   * Sealed (src/domain/secret-box.ts); text without the sealed prefix was written before
   * sealing and is sealed at the next start.
   */
  config_secret: string | null;
  config_insecure_ssl: '0' | '1';
  last_response_code: number | null;
  last_response_status: string;
  last_response_message: string | null;
  created_at: string;
  updated_at: string;
}

/** The payload of an event as its hooks are sent it (one row per event, shared). */
export interface HookPayloadsTable {
  outbox_id: number;
  payload: string;
  created_at: string;
}

/** One delivery of one event to one hook; retries are attempts of the same row. */
export interface HookDeliveriesTable {
  id: Generated<number>;
  hook_id: number;
  /** Shared by every delivery of the same event (and by redeliveries). */
  guid: string;
  event: string;
  action: string | null;
  repository_id: number | null;
  installation_id: number | null;
  /** The event; its payload is in hook_payloads. */
  outbox_id: number;
  redelivery: Bool;
  /** pending → in_progress → delivered | failed (a retryable failure queues the retry as a new row, first_id set). */
  state: 'pending' | 'in_progress' | 'delivered' | 'failed';
  attempts: number;
  /** Epoch milliseconds: when the next attempt is due. */
  next_attempt_at: number;
  /** Epoch milliseconds: until when a worker's claim holds (after that, a crashed claim is retried). */
  lease_until: number | null;
  created_at: string;
  /** Where the hook pointed when the delivery was queued (each attempt records its own). */
  url: string;
  /** The latest outcome ("pending" before any); request and response are in the attempts. */
  status: string;
  status_code: number;
  /** A retry: the row first queued for the same delivery (null on that row and on redeliveries). */
  first_id: number | null;
}

export interface HookDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  /** 1, 2, …: the delivery's `attempts` is the number of its latest. */
  attempt: number;
  outcome: 'delivered' | 'retry' | 'failed' | 'refused';
  delivered_at: string;
  duration: number;
  url: string;
  status: string;
  status_code: number;
  request_headers: string;
  response_headers: string | null;
  response_body: string | null;
}

export interface IssueCountersTable {
  repository_id: number;
  last_issue_number: number;
  last_milestone_number: number;
  /** Open issues and pull requests of the repository (open_issues_count). */
  open_issues: Generated<number>;
}

export interface MilestonesTable {
  id: Generated<number>;
  repository_id: number;
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  creator_id: number | null;
  due_on: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface IssuesTable {
  id: Generated<number>;
  repository_id: number;
  number: number;
  is_pull_request: Bool;
  title: string;
  body: string | null;
  user_id: number;
  state: 'open' | 'closed';
  state_reason: string | null;
  locked: Bool;
  active_lock_reason: string | null;
  milestone_id: number | null;
  comments: number;
  closed_at: string | null;
  closed_by_id: number | null;
  created_at: string;
  updated_at: string;
  /** The app that created it through one of its tokens (performed_via_github_app). */
  performed_via_app_id: Generated<number | null>;
}

export interface LabelsTable {
  id: Generated<number>;
  repository_id: number;
  name: string;
  name_lower: string;
  description: string | null;
  color: string;
  is_default: Bool;
  created_at: string;
  updated_at: string;
}

export interface IssueLabelsTable {
  issue_id: number;
  label_id: number;
  created_at: string;
}

export interface IssueAssigneesTable {
  issue_id: number;
  user_id: number;
  created_at: string;
}

export interface IssueCommentsTable {
  id: Generated<number>;
  repository_id: number;
  issue_id: number;
  user_id: number;
  body: string;
  created_at: string;
  updated_at: string;
  /** Why a maintainer hid it (upstream's lower-case words); null while shown. */
  minimized_reason: Generated<string | null>;
  /** The app that wrote it through one of its tokens (performed_via_github_app). */
  performed_via_app_id: Generated<number | null>;
}

export interface IssueEventsTable {
  id: Generated<number>;
  repository_id: number;
  issue_id: number;
  actor_id: number | null;
  event: string;
  /** JSON of the event's details. */
  detail: string;
  commit_id: string | null;
  created_at: string;
  /** The app whose token did what the event records (performed_via_github_app). */
  performed_via_app_id: Generated<number | null>;
}

export interface IssueMentionsTable {
  issue_id: number;
  user_id: number;
  created_at: string;
}

export interface PullRequestsTable {
  id: Generated<number>;
  issue_id: number;
  repository_id: number;
  number: number;
  head_repository_id: number | null;
  head_ref: string;
  head_sha: string;
  base_ref: string;
  base_sha: string;
  merge_base_sha: string | null;
  draft: Bool;
  maintainer_can_modify: Bool;
  merged_at: string | null;
  merged_by_id: number | null;
  merge_commit_sha: string | null;
  /** Cached mergeability (null: not known) for checked_head_sha and checked_base_sha. */
  mergeable: Bool | null;
  rebaseable: Bool | null;
  checked_head_sha: string | null;
  checked_base_sha: string | null;
  /** Who pushed the head last, once a push moved it after the pull request was opened. */
  last_pusher_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PullRequestReviewsTable {
  id: Generated<number>;
  pull_request_id: number;
  repository_id: number;
  user_id: number;
  state: 'PENDING' | 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  body: string;
  commit_id: string;
  submitted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewRequestsTable {
  id: Generated<number>;
  pull_request_id: number;
  user_id: number | null;
  team_id: number | null;
  requested_by_id: number | null;
  created_at: string;
}

export interface PullRequestReviewCommentsTable {
  id: Generated<number>;
  pull_request_id: number;
  repository_id: number;
  review_id: number;
  user_id: number;
  in_reply_to_id: number | null;
  body: string;
  path: string;
  commit_id: string;
  original_commit_id: string;
  diff_hunk: string;
  position: number | null;
  original_position: number | null;
  line: number | null;
  original_line: number | null;
  side: 'LEFT' | 'RIGHT' | null;
  start_line: number | null;
  original_start_line: number | null;
  start_side: 'LEFT' | 'RIGHT' | null;
  subject_type: 'line' | 'file';
  created_at: string;
  updated_at: string;
}

/** A review thread (named by its first comment) marked resolved. */
export interface ReviewThreadResolutionsTable {
  comment_id: number;
  pull_request_id: number;
  resolved_by_id: number | null;
  resolved_at: string;
}

/** A pull request's auto-merge request: merged by the worker once protection lets it. */
export interface PullRequestAutoMergesTable {
  pull_request_id: number;
  repository_id: number;
  enabled_by_id: number;
  merge_method: string;
  commit_title: string | null;
  commit_message: string | null;
  author_email: string | null;
  enabled_at: string;
  pending: number;
  claimed_until: number | null;
}

export interface ReactionsTable {
  id: Generated<number>;
  /** issue, issue_comment, pull_request_review_comment, team_discussion, team_discussion_comment */
  subject_type: string;
  subject_id: number;
  repository_id: number | null;
  user_id: number;
  content: string;
  created_at: string;
}

export interface DeploymentsTable {
  id: Generated<number>;
  repository_id: number;
  sha: string;
  ref: string;
  task: string;
  /** JSON text. */
  payload: string;
  original_environment: string;
  environment: string;
  description: string | null;
  creator_id: number | null;
  transient_environment: number;
  production_environment: number;
  latest_state: string | null;
  /** The app whose token created it (performed_via_github_app), or null. */
  performed_via_app_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface DeploymentStatusesTable {
  id: Generated<number>;
  deployment_id: number;
  state: string;
  description: string;
  environment: string;
  target_url: string;
  log_url: string;
  environment_url: string;
  creator_id: number | null;
  /** The app whose token created it (performed_via_github_app), or null. */
  performed_via_app_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface CommitStatusesTable {
  id: Generated<number>;
  repository_id: number;
  sha: string;
  state: string;
  target_url: string | null;
  description: string | null;
  context: string;
  context_key: string;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface TeamDiscussionCountersTable {
  team_id: number;
  last_number: number;
}

export interface TeamDiscussionsTable {
  id: Generated<number>;
  team_id: number;
  number: number;
  author_id: number | null;
  title: string;
  body: string;
  body_html: string;
  /** MD5 hex of the body, as upstream's body_version. */
  body_version: string;
  private: Bool;
  pinned: Bool;
  comments_count: number;
  last_comment_number: number;
  last_edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TeamDiscussionCommentsTable {
  id: Generated<number>;
  discussion_id: number;
  number: number;
  author_id: number | null;
  body: string;
  body_html: string;
  body_version: string;
  last_edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationThreadsTable {
  id: Generated<number>;
  user_id: number;
  repository_id: number;
  /** Issue, PullRequest or RepositoryInvitation. */
  subject_type: string;
  /** The issue or pull request number, or the invitation id. */
  subject_key: number;
  subject_title: string;
  reason: string;
  unread: Bool;
  done: Bool;
  /** issue_comment, review_comment or review; null: no comment yet. */
  latest_comment_kind: string | null;
  latest_comment_id: number | null;
  last_read_at: string | null;
  updated_at: string;
}

export interface ThreadSubscriptionsTable {
  user_id: number;
  repository_id: number;
  subject_type: string;
  subject_key: number;
  subscribed: Bool;
  ignored: Bool;
  reason: string | null;
  created_at: string;
}

/** One row (id 1): the check value of the key that seals stored secrets. */
export interface SecretKeyCheckTable {
  id: number;
  key_check: string;
  created_at: string;
}

/** A push in flight (or left by a process that died): see migration 0017. */
export interface PushJournalTable {
  id: Generated<number>;
  repository_id: number;
  actor_id: number | null;
  /** JSON [{ ref, sha, type }]: the refs as recorded so far. */
  refs: string;
  started_at: string;
  /** Epoch milliseconds. */
  lease_until: number;
}

export interface ReleasesTable {
  id: Generated<number>;
  repository_id: number;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: number;
  prerelease: number;
  /** 'true', 'false' or 'legacy', as last given. */
  make_latest: string;
  latest_order: number;
  author_id: number | null;
  created_at: string;
  published_at: string | null;
  updated_at: string;
}

export interface ReleaseAssetsTable {
  id: Generated<number>;
  release_id: number;
  repository_id: number;
  name: string;
  label: string | null;
  content_type: string;
  size: number;
  digest: string;
  state: string;
  download_count: number;
  uploader_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The search indexer's queue and bookkeeping, one row per repository (search module). */
export interface SearchIndexStateTable {
  repository_id: number;
  indexed_branch: string | null;
  indexed_commit: string | null;
  pending: number;
  claimed_until: number | null;
  indexed_at: string | null;
}

/** Commits of each repository's default branch, for commit search. */
export interface SearchCommitsTable {
  repository_id: number;
  sha: string;
  tree_sha: string;
  parents: string;
  parent_count: number;
  author_name: string;
  author_email: string;
  author_date: string;
  committer_name: string;
  committer_email: string;
  committer_date: string;
  message: string;
}

/** Text files of each repository's default branch, for code search. */
export interface SearchCodeTable {
  id: Generated<number>;
  repository_id: number;
  path: string;
  name: string;
  extension: string;
  blob_sha: string;
  size: number;
  language: string | null;
  indexed_at: string;
}

/** The text of a search_code row (rowid = its id): FTS5 trigram on SQLite, pg_trgm on PostgreSQL. */
export interface SearchCodeTextTable {
  rowid: number;
  content: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  owner_type: 'Organization' | 'Repository' | 'User';
  account_id: number | null;
  repository_id: number | null;
  owner_key: string;
  number: number;
  name: string;
  body: string | null;
  state: 'open' | 'closed';
  organization_permission: string | null;
  private: Bool;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectCountersTable {
  owner_key: string;
  last_number: number;
}

export interface ProjectColumnsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface ProjectCardsTable {
  id: Generated<number>;
  project_id: number;
  column_id: number;
  position: number;
  note: string | null;
  issue_id: number | null;
  archived: Bool;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectCollaboratorsTable {
  project_id: number;
  user_id: number;
  permission: string;
  created_at: string;
}

export interface ProjectTeamGrantsTable {
  project_id: number;
  team_id: number;
  permission: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  tokens: TokensTable;
  oauth_apps: OauthAppsTable;
  user_passwords: UserPasswordsTable;
  web_sessions: WebSessionsTable;
  oauth_grants: OauthGrantsTable;
  oauth_codes: OauthCodesTable;
  oauth_device_codes: OauthDeviceCodesTable;
  rate_limits: RateLimitsTable;
  login_failures: LoginFailuresTable;
  org_memberships: OrgMembershipsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  repositories: RepositoriesTable;
  repository_redirects: RepositoryRedirectsTable;
  stars: StarsTable;
  subscriptions: SubscriptionsTable;
  collaborators: CollaboratorsTable;
  repository_invitations: RepositoryInvitationsTable;
  custom_repository_roles: CustomRepositoryRolesTable;
  repository_invitation_quotas: RepositoryInvitationQuotasTable;
  team_repositories: TeamRepositoriesTable;
  outbox: OutboxTable;
  user_emails: UserEmailsTable;
  gpg_keys: GpgKeysTable;
  ssh_keys: SshKeysTable;
  interaction_limits: InteractionLimitsTable;
  hooks: HooksTable;
  hook_payloads: HookPayloadsTable;
  hook_deliveries: HookDeliveriesTable;
  hook_delivery_attempts: HookDeliveryAttemptsTable;
  deployments: DeploymentsTable;
  deployment_statuses: DeploymentStatusesTable;
  commit_statuses: CommitStatusesTable;
  issue_counters: IssueCountersTable;
  milestones: MilestonesTable;
  issues: IssuesTable;
  labels: LabelsTable;
  issue_labels: IssueLabelsTable;
  issue_assignees: IssueAssigneesTable;
  issue_comments: IssueCommentsTable;
  issue_events: IssueEventsTable;
  pull_requests: PullRequestsTable;
  pull_request_reviews: PullRequestReviewsTable;
  review_requests: ReviewRequestsTable;
  pull_request_review_comments: PullRequestReviewCommentsTable;
  review_thread_resolutions: ReviewThreadResolutionsTable;
  pull_request_auto_merges: PullRequestAutoMergesTable;
  issue_mentions: IssueMentionsTable;
  reactions: ReactionsTable;
  notification_threads: NotificationThreadsTable;
  thread_subscriptions: ThreadSubscriptionsTable;
  team_discussion_counters: TeamDiscussionCountersTable;
  team_discussions: TeamDiscussionsTable;
  team_discussion_comments: TeamDiscussionCommentsTable;
  secret_key_check: SecretKeyCheckTable;
  push_journal: PushJournalTable;
  releases: ReleasesTable;
  release_assets: ReleaseAssetsTable;
  search_index_state: SearchIndexStateTable;
  search_commits: SearchCommitsTable;
  search_code: SearchCodeTable;
  search_code_text: SearchCodeTextTable;
  projects: ProjectsTable;
  project_counters: ProjectCountersTable;
  project_columns: ProjectColumnsTable;
  project_cards: ProjectCardsTable;
  project_collaborators: ProjectCollaboratorsTable;
  project_team_grants: ProjectTeamGrantsTable;
  apps: AppsTable;
  app_keys: AppKeysTable;
  app_manifest_codes: AppManifestCodesTable;
  app_installations: AppInstallationsTable;
  app_installation_repositories: AppInstallationRepositoriesTable;
  app_installation_tokens: AppInstallationTokensTable;
  check_suites: CheckSuitesTable;
  check_runs: CheckRunsTable;
  check_annotations: CheckAnnotationsTable;
  check_suite_preferences: CheckSuitePreferencesTable;
  org_sso_configs: OrgSsoConfigsTable;
  org_external_identities: OrgExternalIdentitiesTable;
  org_saml_requests: OrgSamlRequestsTable;
  org_sso_sessions: OrgSsoSessionsTable;
  org_sso_token_authorizations: OrgSsoTokenAuthorizationsTable;
  org_scim_users: OrgScimUsersTable;
  org_scim_emails: OrgScimEmailsTable;
  org_migrations: OrgMigrationsTable;
  org_migration_repositories: OrgMigrationRepositoriesTable;
  app_authorizations: AppAuthorizationsTable;
  app_user_codes: AppUserCodesTable;
  app_user_tokens: AppUserTokensTable;
  source_imports: SourceImportsTable;
  source_import_authors: SourceImportAuthorsTable;
  source_import_large_files: SourceImportLargeFilesTable;
  migration_imports: MigrationImportsTable;
}

export interface AppsTable {
  id: Generated<number>;
  owner_id: number;
  slug: string;
  name: string;
  name_lower: string;
  description: string | null;
  external_url: string;
  callback_url: string | null;
  setup_url: string | null;
  client_id: string;
  client_secret_hash: string;
  bot_user_id: number;
  webhook_url: string | null;
  /** Sealed (ctx.secrets); never selected outside signing and the manifest conversion. */
  webhook_secret: string | null;
  webhook_content_type: string;
  webhook_insecure_ssl: string;
  webhook_active: Bool;
  public: Bool;
  permissions: string;
  events: string;
  created_at: string;
  updated_at: string;
  /** Whether user-to-server tokens expire (8 hours, with a refresh token). */
  user_tokens_expire: Generated<Bool>;
}

export interface AppKeysTable {
  id: Generated<number>;
  app_id: number;
  public_key: string;
  fingerprint: string;
  created_at: string;
}

export interface AppManifestCodesTable {
  code_hash: string;
  app_id: number;
  expires_at: string;
}

export interface AppInstallationsTable {
  id: Generated<number>;
  app_id: number;
  account_id: number;
  repository_selection: 'all' | 'selected';
  permissions: string;
  events: string;
  suspended_at: string | null;
  suspended_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface AppInstallationRepositoriesTable {
  installation_id: number;
  repository_id: number;
}

export interface AppInstallationTokensTable {
  id: Generated<number>;
  installation_id: number;
  token_hash: string;
  permissions: string;
  repository_ids: string | null;
  expires_at: string;
  created_at: string;
}

export interface CheckSuitesTable {
  id: Generated<number>;
  repository_id: number;
  app_id: number | null;
  app_key: number;
  head_sha: string;
  head_branch: string | null;
  before_sha: string | null;
  after_sha: string | null;
  status: string;
  conclusion: string | null;
  created_at: string;
  updated_at: string;
}

export interface CheckRunsTable {
  id: Generated<number>;
  suite_id: number;
  repository_id: number;
  head_sha: string;
  name: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  started_at: string | null;
  completed_at: string | null;
  output_title: string | null;
  output_summary: string | null;
  output_text: string | null;
  annotations_count: number;
  actions: string;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface CheckAnnotationsTable {
  id: Generated<number>;
  check_run_id: number;
  path: string;
  start_line: number;
  end_line: number;
  start_column: number | null;
  end_column: number | null;
  annotation_level: string;
  title: string | null;
  message: string;
  raw_details: string | null;
}

export interface CheckSuitePreferencesTable {
  repository_id: number;
  app_id: number;
  auto_trigger: number;
}

export interface OrgSsoConfigsTable {
  org_id: number;
  idp_entity_id: string;
  idp_sso_url: string;
  idp_certificate: string;
  created_at: string;
  updated_at: string;
}

export interface OrgExternalIdentitiesTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  name_id: string;
  name_id_key: string;
  created_at: string;
}

export interface OrgSamlRequestsTable {
  request_id: string;
  org_id: number;
  user_id: number;
  session_hash: string;
  issued: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface OrgSsoSessionsTable {
  session_hash: string;
  org_id: number;
  user_id: number;
  expires_at: string;
}

export interface OrgSsoTokenAuthorizationsTable {
  id: Generated<number>;
  org_id: number;
  token_id: number;
  user_id: number;
  authorized_at: string;
}

export interface OrgScimUsersTable {
  id: Generated<number>;
  org_id: number;
  scim_id: string;
  user_name: string;
  user_name_key: string;
  external_id: string | null;
  external_id_key: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  formatted_name: string | null;
  emails: string;
  groups: string;
  active: Bool;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrgScimEmailsTable {
  scim_user_id: number;
  value_key: string;
}

export interface OrgMigrationsTable {
  id: Generated<number>;
  guid: string;
  owner_id: number;
  created_by_id: number | null;
  state: 'pending' | 'exporting' | 'exported' | 'failed';
  lock_repositories: Bool;
  exclude_metadata: Bool;
  exclude_git_data: Bool;
  exclude_attachments: Bool;
  exclude_releases: Bool;
  exclude_owner_projects: Bool;
  org_metadata_only: Bool;
  exclude: string;
  progress: string | null;
  failure: string | null;
  archive_file: string | null;
  archive_size: number | null;
  download_token_hash: string | null;
  download_expires_at: number | null;
  claimed_until: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrgMigrationRepositoriesTable {
  migration_id: number;
  repository_id: number;
}

export interface AppAuthorizationsTable {
  app_id: number;
  user_id: number;
  created_at: string;
}

export interface AppUserCodesTable {
  code_hash: string;
  app_id: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: string;
}

export interface AppUserTokensTable {
  id: Generated<number>;
  app_id: number;
  user_id: number;
  token_hash: string;
  token_last_eight: string;
  refresh_token_hash: string | null;
  expires_at: string | null;
  refresh_token_expires_at: string | null;
  target_id: number | null;
  repository_ids: string | null;
  permissions: string | null;
  created_at: string;
  updated_at: string;
}

export interface SourceImportsTable {
  repository_id: number;
  actor_id: number | null;
  vcs: string | null;
  vcs_url: string;
  tfvc_project: string | null;
  project_path: string | null;
  status: string;
  status_text: string | null;
  failed_step: string | null;
  percent: number | null;
  commit_count: number | null;
  push_percent: number | null;
  authors_count: number | null;
  has_large_files: Generated<Bool>;
  large_files_size: Generated<number | string>;
  large_files_count: Generated<number>;
  use_lfs: Generated<string>;
  project_choices: string | null;
  credentials: string | null;
  next_step: string | null;
  generation: Generated<number>;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface SourceImportAuthorsTable {
  id: Generated<number>;
  repository_id: number;
  remote_id: string;
  remote_name: string;
  email: string;
  name: string;
}

export interface SourceImportLargeFilesTable {
  id: Generated<number>;
  repository_id: number;
  ref_name: string;
  path: string;
  oid: string;
  size: number | string;
}

/** A migration archive loaded into this Wharf (0042). */
export interface MigrationImportsTable {
  id: Generated<number>;
  created_by_id: number | null;
  state: 'pending' | 'importing' | 'imported' | 'failed';
  archive_path: string;
  owned_archive: Bool;
  target_org: string | null;
  on_conflict: 'skip' | 'rename';
  progress: string | null;
  report: string | null;
  created: string;
  failure: string | null;
  claimed_until: number | null;
  created_at: string;
  updated_at: string;
}
