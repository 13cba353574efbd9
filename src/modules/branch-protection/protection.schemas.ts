// Request and response schemas of the branch protection routes (upstream's
// protected-branch record). Types are checked here; value rules are the service's.
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';
import { AppRecord } from '../apps/apps.schemas.ts';
import { Team } from '../orgs/orgs.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

/** {branch} as one segment (Octokit encodes slashes); names with raw slashes take the wildcard routes of git-data. */
export const BranchParams = Type.Object({ owner: Type.String(), repo: Type.String(), branch: Type.String({ minLength: 1 }) });

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Names = Type.Array(Name, { maxItems: 100 });

const StatusChecksInput = Type.Object({
  strict: Type.Boolean(),
  contexts: Names,
  checks: Type.Optional(Type.Array(Type.Object({ context: Name, app_id: Type.Optional(Type.Integer({ minimum: -1, maximum: 2_147_483_647 })) }), { maxItems: 100 })),
});

const ReviewsInput = Type.Object({
  dismissal_restrictions: Type.Optional(Type.Object({ users: Type.Optional(Names), teams: Type.Optional(Names), apps: Type.Optional(Names) })),
  dismiss_stale_reviews: Type.Optional(Type.Boolean()),
  require_code_owner_reviews: Type.Optional(Type.Boolean()),
  required_approving_review_count: Type.Optional(Type.Integer()),
  require_last_push_approval: Type.Optional(Type.Boolean()),
  bypass_pull_request_allowances: Type.Optional(Type.Object({ users: Type.Optional(Names), teams: Type.Optional(Names), apps: Type.Optional(Names) })),
});

const RestrictionsInput = Type.Object({ users: Names, teams: Names, apps: Type.Optional(Names) });

export const PutProtectionBody = Type.Object({
  required_status_checks: Nullable(StatusChecksInput),
  enforce_admins: Nullable(Type.Boolean()),
  required_pull_request_reviews: Nullable(ReviewsInput),
  restrictions: Nullable(RestrictionsInput),
  required_linear_history: Type.Optional(Type.Boolean()),
  allow_force_pushes: Type.Optional(Nullable(Type.Boolean())),
  allow_deletions: Type.Optional(Type.Boolean()),
  block_creations: Type.Optional(Type.Boolean()),
  required_conversation_resolution: Type.Optional(Type.Boolean()),
  lock_branch: Type.Optional(Type.Boolean()),
  allow_fork_syncing: Type.Optional(Type.Boolean()),
});

export const UpdateStatusChecksBody = Type.Object({
  strict: Type.Optional(Type.Boolean()),
  contexts: Type.Optional(Names),
  checks: Type.Optional(Type.Array(Type.Object({ context: Name, app_id: Type.Optional(Type.Integer({ minimum: -1, maximum: 2_147_483_647 })) }), { maxItems: 100 })),
});

export const UpdateReviewsBody = Type.Omit(ReviewsInput, []);

const Enabled = Type.Object({ enabled: Type.Boolean() });

/** Status checks as every protection record shows them; enforcement_level is upstream's summary of whom they bind. */
const StatusCheckProps = {
  url: Type.String(), enforcement_level: Type.String(), strict: Type.Boolean(), contexts: Type.Array(Type.String()), contexts_url: Type.String(),
  checks: Type.Array(Type.Object({ context: Type.String(), app_id: Nullable(Type.Integer()) })),
};
export const StatusChecks = Type.Object(StatusCheckProps);

export const Reviews = Type.Object({
  url: Type.String(), dismiss_stale_reviews: Type.Boolean(), require_code_owner_reviews: Type.Boolean(),
  required_approving_review_count: Type.Integer(), require_last_push_approval: Type.Boolean(),
});

/** An app's owner as upstream's restriction policy shows it: the account, and an organization's own addresses and description. */
const RestrictionAppOwner = Type.Composite([SimpleUser, Type.Object({
  hooks_url: Type.String(), issues_url: Type.String(), members_url: Type.String(), public_members_url: Type.String(), description: Type.String(),
})]);
const RestrictionApp = Type.Composite([Type.Omit(AppRecord, ['owner']), Type.Object({ owner: Nullable(RestrictionAppOwner) })]);

export const Restrictions = Type.Object({
  url: Type.String(), users_url: Type.String(), teams_url: Type.String(), apps_url: Type.String(),
  users: Type.Array(SimpleUser), teams: Type.Array(Team), apps: Type.Array(RestrictionApp),
});

export const Flag = Type.Object({ url: Type.String(), enabled: Type.Boolean() });

/** What every protection record says of a rule: where it is, which branch, and each switch. */
const RuleProps = {
  url: Type.String(),
  enabled: Type.Boolean(),
  name: Type.String(),
  protection_url: Type.String(),
  required_signatures: Flag,
  enforce_admins: Flag,
  required_linear_history: Enabled,
  allow_force_pushes: Enabled,
  allow_deletions: Enabled,
  block_creations: Enabled,
  required_conversation_resolution: Enabled,
  lock_branch: Enabled,
  allow_fork_syncing: Enabled,
};

/**
 * GET and PUT …/protection (upstream's branch-protection and protected-branch records).
 * Status checks, reviews and restrictions are there when the rule sets them, as
 * upstream: an empty record would say the opposite (restrictions naming no one let only
 * admins push).
 */
export const ProtectedBranch = Type.Object({
  ...RuleProps,
  required_status_checks: Type.Optional(StatusChecks),
  required_pull_request_reviews: Type.Optional(Reviews),
  restrictions: Type.Optional(Restrictions),
});

/**
 * A branch's protection inside the branch records (GET …/branches, …/branches/{branch}),
 * read by anyone who reads the repository: the rule's switches and required checks (an
 * unprotected branch's are what no rule means), its review requirement when it has one;
 * never its restrictions, which name users and teams that only admins may read (at …/protection).
 */
export const BranchProtection = Type.Object({
  ...RuleProps,
  required_status_checks: StatusChecks,
  required_pull_request_reviews: Type.Optional(Reviews),
});

export const Contexts = Type.Array(Type.String());
/** The list sub-resources take a bare array (older clients) or upstream's object. */
export const ContextsBody = Type.Union([Names, Type.Object({ contexts: Names })]);
export const UsersBody = Type.Union([Names, Type.Object({ users: Names })]);
export const TeamsBody = Type.Union([Names, Type.Object({ teams: Names })]);
export const AppsBody = Type.Union([Names, Type.Object({ apps: Names })]);
export const RestrictedUsers = Type.Array(SimpleUser);
export const RestrictedTeams = Type.Array(Team);
export const RestrictedApps = Type.Array(AppRecord);
