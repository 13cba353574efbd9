// Request schemas of the repository routes, and their mapping to service inputs.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import type { CreateRepoInput, UpdateRepoInput } from './repos.service.ts';

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
  return defined({ ...settingsFrom(b), name: b.name, defaultBranch: b.default_branch, archived: b.archived });
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
