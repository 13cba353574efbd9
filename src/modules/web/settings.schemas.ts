// Addresses and form bodies of the settings pages added for #23: a repository
// invitation, branch protection rules, rulesets, an organization's profile, people and
// rulesets, and the new repository form.
// Form fields are optional strings, as in web.schemas.ts: a missing one is answered
// with the form again and its error inline.
import { Type, type Static } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 65536 }));
const Name = Type.String({ maxLength: 256 });

/** The invitation's id stays a string: anything but digits is a 404 page. */
export const InvitationParams = Type.Object({ owner: Name, repo: Name, invitation_id: Type.String({ maxLength: 20 }) });
export const InvitationForm = Type.Object({ authenticity_token: Field, permissions: Field });

/** A branch protection rule's id, a string as above. */
export const RuleParams = Type.Object({ owner: Name, repo: Name, rule_id: Type.String({ maxLength: 20 }) });
/** The rule form: checkboxes send '1' when ticked and nothing otherwise. */
export const RuleForm = Type.Object({
  authenticity_token: Field, pattern: Field,
  required_pull_request_reviews: Field, required_approving_review_count: Field, dismiss_stale_reviews: Field,
  require_code_owner_reviews: Field, require_last_push_approval: Field,
  required_status_checks: Field, strict: Field, contexts: Field,
  enforce_admins: Field, required_linear_history: Field, allow_force_pushes: Field, allow_deletions: Field,
  block_creations: Field, required_signatures: Field, required_conversation_resolution: Field, lock_branch: Field,
  allow_fork_syncing: Field, restrictions: Field, users: Field, teams: Field, apps: Field,
});
export type RuleForm = Static<typeof RuleForm>;

/** The organization profile form (PATCH /orgs/{org}'s fields; checkboxes '1' when ticked). */
export const OrgProfileForm = Type.Object({
  authenticity_token: Field, name: Field, email: Field, description: Field, blog: Field, location: Field, company: Field,
  twitter_username: Field, billing_email: Field, default_repository_permission: Field,
  members_can_create_repositories: Field, members_can_create_public_repositories: Field, members_can_create_private_repositories: Field,
  has_organization_projects: Field, has_repository_projects: Field, web_commit_signoff_required: Field,
});
export type OrgProfileForm = Static<typeof OrgProfileForm>;
/** A member's row or the invitation form on the people page. */
export const MemberForm = Type.Object({ authenticity_token: Field, login: Field, role: Field });

/** A ruleset's id, a string as above. */
export const RulesetParams = Type.Object({ owner: Name, repo: Name, ruleset_id: Type.String({ maxLength: 20 }) });
/** The branch ruleset form: a rule's checkbox sends '1' when ticked; lists are one entry a line. */
export const RulesetForm = Type.Object({
  authenticity_token: Field, name: Field, enforcement: Field, include: Field, exclude: Field,
  rule_deletion: Field, rule_non_fast_forward: Field, rule_required_linear_history: Field, rule_required_signatures: Field,
  rule_pull_request: Field, required_approving_review_count: Field, rule_required_status_checks: Field, contexts: Field,
  bypass_actors: Field,
});
export type RulesetForm = Static<typeof RulesetForm>;
/** An organization ruleset's id, a string as above. */
export const OrgRulesetParams = Type.Object({ org: Name, ruleset_id: Type.String({ maxLength: 20 }) });
/** The organization's branch ruleset form: the repository's, and the repositories it covers by name, one pattern a line. */
export const OrgRulesetForm = Type.Object({ ...RulesetForm.properties, repository_include: Field, repository_exclude: Field });
export type OrgRulesetForm = Static<typeof OrgRulesetForm>;
/** The new repository form (/new): the owner's login, and `auto_init` '1' when ticked. */
export const NewRepoForm = Type.Object({ authenticity_token: Field, owner: Field, name: Field, description: Field, visibility: Field, auto_init: Field });
export type NewRepoForm = Static<typeof NewRepoForm>;
