// Request schemas of the repository routes, and their mapping to service inputs.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import type { CreateRepoInput, UpdateRepoInput } from './repos.service.ts';
import { LicenseSimple } from '../templates/templates.schemas.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });

const SettingsProps = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 350 }))),
  homepage: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  private: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(StringEnum(['public', 'private', 'internal'] as const)),
  has_issues: Type.Optional(Type.Boolean()),
  has_projects: Type.Optional(Type.Boolean()),
  has_wiki: Type.Optional(Type.Boolean()),
  has_downloads: Type.Optional(Type.Boolean()),
  has_discussions: Type.Optional(Type.Boolean()),
  is_template: Type.Optional(Type.Boolean()),
  allow_squash_merge: Type.Optional(Type.Boolean()),
  allow_merge_commit: Type.Optional(Type.Boolean()),
  allow_rebase_merge: Type.Optional(Type.Boolean()),
  allow_auto_merge: Type.Optional(Type.Boolean()),
  allow_update_branch: Type.Optional(Type.Boolean()),
  allow_forking: Type.Optional(Type.Boolean()),
  delete_branch_on_merge: Type.Optional(Type.Boolean()),
  web_commit_signoff_required: Type.Optional(Type.Boolean()),
  squash_merge_commit_title: Type.Optional(StringEnum(['PR_TITLE', 'COMMIT_OR_PR_TITLE'] as const)),
  squash_merge_commit_message: Type.Optional(StringEnum(['PR_BODY', 'COMMIT_MESSAGES', 'BLANK'] as const)),
  merge_commit_title: Type.Optional(StringEnum(['PR_TITLE', 'MERGE_MESSAGE'] as const)),
  merge_commit_message: Type.Optional(StringEnum(['PR_BODY', 'PR_TITLE', 'BLANK'] as const)),
};

export const CreateRepoBody = Type.Object({
  name: Type.String(),
  ...SettingsProps,
  team_id: Type.Optional(Type.Integer()),
  auto_init: Type.Optional(Type.Boolean()),
  gitignore_template: Type.Optional(Type.String()),
  license_template: Type.Optional(Type.String()),
});
export type CreateRepoBody = Static<typeof CreateRepoBody>;

export const UpdateRepoBody = Type.Object({
  name: Type.Optional(Type.String()),
  ...SettingsProps,
  default_branch: Type.Optional(Type.String({ minLength: 1 })),
  archived: Type.Optional(Type.Boolean()),
  /** Of upstream's features only advanced_security has a meaning in Wharf (its billing). */
  security_and_analysis: Type.Optional(Nullable(Type.Object({
    advanced_security: Type.Optional(Type.Object({ status: StringEnum(['enabled', 'disabled'] as const) })),
  }))),
});
export type UpdateRepoBody = Static<typeof UpdateRepoBody>;

type SettingsBody = Omit<UpdateRepoBody, 'name' | 'default_branch' | 'archived'>;

function settingsFrom(b: SettingsBody) {
  return {
    description: b.description === '' ? null : b.description,
    homepage: b.homepage === '' ? null : b.homepage,
    private: b.private,
    visibility: b.visibility,
    hasIssues: b.has_issues,
    hasProjects: b.has_projects,
    hasWiki: b.has_wiki,
    hasDownloads: b.has_downloads,
    hasDiscussions: b.has_discussions,
    isTemplate: b.is_template,
    allowSquashMerge: b.allow_squash_merge,
    allowMergeCommit: b.allow_merge_commit,
    allowRebaseMerge: b.allow_rebase_merge,
    allowAutoMerge: b.allow_auto_merge,
    allowUpdateBranch: b.allow_update_branch,
    allowForking: b.allow_forking,
    deleteBranchOnMerge: b.delete_branch_on_merge,
    webCommitSignoffRequired: b.web_commit_signoff_required,
    squashMergeCommitTitle: b.squash_merge_commit_title,
    squashMergeCommitMessage: b.squash_merge_commit_message,
    mergeCommitTitle: b.merge_commit_title,
    mergeCommitMessage: b.merge_commit_message,
  };
}

/** Drops keys whose value is undefined: PATCH keeps "omitted" apart from null. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function createInput(b: CreateRepoBody): CreateRepoInput {
  return defined({
    ...settingsFrom(b), name: b.name, teamId: b.team_id, autoInit: b.auto_init,
    gitignoreTemplate: b.gitignore_template || undefined, licenseTemplate: b.license_template || undefined,
  });
}

export function updateInput(b: UpdateRepoBody): UpdateRepoInput {
  const security = b.security_and_analysis?.advanced_security?.status;
  return defined({
    ...settingsFrom(b), name: b.name, defaultBranch: b.default_branch, archived: b.archived,
    advancedSecurity: security === undefined ? undefined : security === 'enabled',
  });
}

export const ListReposQuery = Type.Object({
  type: Type.Optional(Type.String()),
  visibility: Type.Optional(StringEnum(['all', 'public', 'private'] as const)),
  affiliation: Type.Optional(Type.String()),
  sort: Type.Optional(StringEnum(['created', 'updated', 'pushed', 'full_name'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  page: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
});
export type ListReposQuery = Static<typeof ListReposQuery>;

export const TopicsBody = Type.Object({ names: Type.Array(Type.String()) });
export const Topics = Type.Object({ names: Type.Array(Type.String()) });
/** Language → bytes of code in it, largest first. */
export const Languages = Type.Record(Type.String(), Type.Integer());

// Response schemas. The views' return types are these schemas' Static types, so a field
// a view adds without listing it here fails the type check (serialization would drop it).


export const RepoPermissions = Type.Object({
  admin: Type.Boolean(),
  maintain: Type.Boolean(),
  push: Type.Boolean(),
  triage: Type.Boolean(),
  pull: Type.Boolean(),
});

const urlFields = [
  'html_url', 'url', 'archive_url', 'assignees_url', 'blobs_url', 'branches_url', 'collaborators_url', 'comments_url',
  'commits_url', 'compare_url', 'contents_url', 'contributors_url', 'deployments_url', 'downloads_url', 'events_url',
  'forks_url', 'git_commits_url', 'git_refs_url', 'git_tags_url', 'git_url', 'issue_comment_url', 'issue_events_url',
  'issues_url', 'keys_url', 'labels_url', 'languages_url', 'merges_url', 'milestones_url', 'notifications_url',
  'pulls_url', 'releases_url', 'ssh_url', 'stargazers_url', 'statuses_url', 'subscribers_url', 'subscription_url',
  'tags_url', 'teams_url', 'trees_url', 'clone_url', 'hooks_url', 'svn_url',
] as const;

const RepoLinksProps = {
  ...(Object.fromEntries(urlFields.map((f) => [f, Type.String()])) as Record<(typeof urlFields)[number], ReturnType<typeof Type.String>>),
  mirror_url: Type.Null(),
};
export const RepoLinks = Type.Object(RepoLinksProps);

/** Who and what a repository is: the head of every repository record. */
const RepoIdentityProps = {
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  full_name: Type.String(),
  owner: SimpleUser,
  private: Type.Boolean(),
  description: Nullable(Type.String()),
  fork: Type.Boolean(),
};

const RepositoryProps = {
  ...RepoIdentityProps,
  ...RepoLinksProps,
  homepage: Nullable(Type.String()),
  language: Nullable(Type.String()),
  forks_count: Type.Integer(),
  stargazers_count: Type.Integer(),
  watchers_count: Type.Integer(),
  size: Type.Integer(),
  default_branch: Type.String(),
  open_issues_count: Type.Integer(),
  topics: Type.Array(Type.String()),
  has_issues: Type.Boolean(),
  has_projects: Type.Boolean(),
  has_wiki: Type.Boolean(),
  has_pages: Type.Boolean(),
  has_downloads: Type.Boolean(),
  has_discussions: Type.Boolean(),
  archived: Type.Boolean(),
  disabled: Type.Boolean(),
  pushed_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  allow_forking: Type.Boolean(),
  web_commit_signoff_required: Type.Boolean(),
  license: Nullable(LicenseSimple),
  forks: Type.Integer(),
  open_issues: Type.Integer(),
  watchers: Type.Integer(),
  /** Left out for anonymous callers. */
  permissions: Type.Optional(RepoPermissions),
  /** With the nebula preview (the spec: a preview media type's extra key). */
  visibility: Type.Optional(Type.String()),
  /** With the baptiste preview. */
  is_template: Type.Optional(Type.Boolean()),
  // Merge settings, shown to those who may push.
  allow_rebase_merge: Type.Optional(Type.Boolean()),
  allow_squash_merge: Type.Optional(Type.Boolean()),
  allow_merge_commit: Type.Optional(Type.Boolean()),
  allow_auto_merge: Type.Optional(Type.Boolean()),
  allow_update_branch: Type.Optional(Type.Boolean()),
  delete_branch_on_merge: Type.Optional(Type.Boolean()),
  use_squash_pr_title_as_default: Type.Optional(Type.Boolean()),
  squash_merge_commit_title: Type.Optional(Type.String()),
  squash_merge_commit_message: Type.Optional(Type.String()),
  merge_commit_title: Type.Optional(Type.String()),
  merge_commit_message: Type.Optional(Type.String()),
};

/** A repository in lists and embedded in other records. */
export const Repository = Type.Object(RepositoryProps);

export type Repository = Static<typeof Repository>;

/** GET /repos/{owner}/{repo}: the detailed record. */
export const FullRepository = Type.Object({
  ...RepositoryProps,
  temp_clone_token: Type.Null(),
  subscribers_count: Type.Integer(),
  network_count: Type.Integer(),
  organization: Type.Optional(SimpleUser),
  /** Forks only. */
  parent: Type.Optional(Repository),
  source: Type.Optional(Repository),
  /** With the baptiste preview: the repository this one was generated from, if any. */
  template_repository: Type.Optional(Nullable(Repository)),
  /** Administrators only. */
  security_and_analysis: Type.Optional(Type.Object({ advanced_security: Type.Object({ status: Type.String() }) })),
});
export type FullRepository = Static<typeof FullRepository>;
