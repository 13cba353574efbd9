// Repository → API representation. Pure: the service loads owners, counts, roles,
// licenses and related repositories first.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import { roleAtLeast, type Repo, type RepoCounts, type Role } from './repos.model.ts';
import type { FullRepository as FullRepositorySchema, Repository as RepositorySchema } from './repos.schemas.ts';

export interface LicenseSimple {
  key: string;
  name: string;
  spdx_id: string | null;
  url: string | null;
  node_id: string;
}

export interface RepoViewContext {
  urls: Urls;
  counts: RepoCounts;
  /** The caller's role; null leaves `permissions` out (anonymous callers). */
  role: Role | null;
  license: LicenseSimple | null;
  /** Preview media types asked for: nebula (visibility), baptiste (templates), as the spec has them. */
  previews: ReadonlySet<string>;
}

export function permissionsOf(role: Role) {
  return {
    admin: roleAtLeast(role, 'admin'),
    maintain: roleAtLeast(role, 'maintain'),
    push: roleAtLeast(role, 'push'),
    triage: roleAtLeast(role, 'triage'),
    pull: roleAtLeast(role, 'pull'),
  };
}

export function repoLinks(r: Repo, urls: Urls) {
  const u = urls.api('repos', r.owner.login, r.name);
  const html = urls.html(r.owner.login, r.name);
  return {
    html_url: html,
    url: u,
    archive_url: `${u}/{archive_format}{/ref}`,
    assignees_url: `${u}/assignees{/user}`,
    blobs_url: `${u}/git/blobs{/sha}`,
    branches_url: `${u}/branches{/branch}`,
    collaborators_url: `${u}/collaborators{/collaborator}`,
    comments_url: `${u}/comments{/number}`,
    commits_url: `${u}/commits{/sha}`,
    compare_url: `${u}/compare/{base}...{head}`,
    contents_url: `${u}/contents/{+path}`,
    contributors_url: `${u}/contributors`,
    deployments_url: `${u}/deployments`,
    downloads_url: `${u}/downloads`,
    events_url: `${u}/events`,
    forks_url: `${u}/forks`,
    git_commits_url: `${u}/git/commits{/sha}`,
    git_refs_url: `${u}/git/refs{/sha}`,
    git_tags_url: `${u}/git/tags{/sha}`,
    git_url: `git://${urls.host}/${r.owner.login}/${r.name}.git`,
    issue_comment_url: `${u}/issues/comments{/number}`,
    issue_events_url: `${u}/issues/events{/number}`,
    issues_url: `${u}/issues{/number}`,
    keys_url: `${u}/keys{/key_id}`,
    labels_url: `${u}/labels{/name}`,
    languages_url: `${u}/languages`,
    merges_url: `${u}/merges`,
    milestones_url: `${u}/milestones{/number}`,
    notifications_url: `${u}/notifications{?since,all,participating}`,
    pulls_url: `${u}/pulls{/number}`,
    releases_url: `${u}/releases{/id}`,
    ssh_url: urls.sshRemote(r.owner.login, r.name),
    stargazers_url: `${u}/stargazers`,
    statuses_url: `${u}/statuses/{sha}`,
    subscribers_url: `${u}/subscribers`,
    subscription_url: `${u}/subscription`,
    tags_url: `${u}/tags`,
    teams_url: `${u}/teams`,
    trees_url: `${u}/git/trees{/sha}`,
    clone_url: `${html}.git`,
    mirror_url: null,
    hooks_url: `${u}/hooks`,
    svn_url: html,
  };
}

/** The fields every repository record shares (list items and the detailed record). */
export function repository(r: Repo, v: RepoViewContext) {
  const record = {
    id: r.id,
    node_id: encodeNodeId('Repository', r.id),
    name: r.name,
    full_name: `${r.owner.login}/${r.name}`,
    owner: simpleUser(r.owner, v.urls),
    private: r.visibility !== 'public',
    description: r.description,
    fork: r.isFork,
    ...repoLinks(r, v.urls),
    homepage: r.homepage,
    language: r.language,
    forks_count: v.counts.forks,
    stargazers_count: v.counts.stargazers,
    watchers_count: v.counts.stargazers,
    size: r.sizeKb,
    default_branch: r.defaultBranch,
    open_issues_count: v.counts.openIssues,
    topics: r.topics,
    has_issues: r.hasIssues,
    has_projects: r.hasProjects,
    has_wiki: r.hasWiki,
    has_pages: r.hasPages,
    has_downloads: r.hasDownloads,
    has_discussions: r.hasDiscussions,
    archived: r.archived,
    disabled: r.disabled,
    pushed_at: r.pushedAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    allow_forking: r.allowForking,
    web_commit_signoff_required: r.webCommitSignoffRequired,
    license: v.license,
    forks: v.counts.forks,
    open_issues: v.counts.openIssues,
    watchers: v.counts.stargazers,
    ...(v.role ? { permissions: permissionsOf(v.role) } : {}),
    // The spec's preview keys: upstream has since shown them to everyone, but the spec
    // (Repositories) names them as what the nebula and baptiste media types add.
    ...(v.previews.has('nebula') ? { visibility: r.visibility } : {}),
    ...(v.previews.has('baptiste') ? { is_template: r.isTemplate } : {}),
  };
  // Merge settings are shown to those who may change them, as upstream does.
  if (!roleAtLeast(v.role, 'push')) return record;
  // Added in place: spreading a record this large into a new one makes V8 build it as
  // a dictionary, ~50 µs a repository instead of ~3 (lists of 100 spend 5 ms on it).
  return Object.assign(record, {
    allow_rebase_merge: r.allowRebaseMerge,
    allow_squash_merge: r.allowSquashMerge,
    allow_merge_commit: r.allowMergeCommit,
    allow_auto_merge: r.allowAutoMerge,
    allow_update_branch: r.allowUpdateBranch,
    delete_branch_on_merge: r.deleteBranchOnMerge,
    // Upstream's older switch for what squash_merge_commit_title now says.
    use_squash_pr_title_as_default: r.squashMergeCommitTitle === 'PR_TITLE',
    squash_merge_commit_title: r.squashMergeCommitTitle,
    squash_merge_commit_message: r.squashMergeCommitMessage,
    merge_commit_title: r.mergeCommitTitle,
    merge_commit_message: r.mergeCommitMessage,
  });
}

export interface RepoDetailContext extends RepoViewContext {
  organization: SimpleUser | null;
  parent: ReturnType<typeof repository> | null;
  source: ReturnType<typeof repository> | null;
  template: ReturnType<typeof repository> | null;
  networkCount: number;
  /** Present for administrators: the security_and_analysis they may change. */
  advancedSecurity?: boolean;
}

/** GET /repos/{owner}/{repo}: the detailed record. */
export function fullRepository(r: Repo, v: RepoDetailContext) {
  return Object.assign(repository(r, v), {
    temp_clone_token: null,
    subscribers_count: v.counts.subscribers,
    network_count: v.networkCount,
    ...(v.organization ? { organization: v.organization } : {}),
    ...(v.parent ? { parent: v.parent, source: v.source ?? v.parent } : {}),
    ...(v.previews.has('baptiste') ? { template_repository: v.template } : {}),
    ...(v.advancedSecurity === undefined ? {} : { security_and_analysis: { advanced_security: { status: v.advancedSecurity ? 'enabled' : 'disabled' } } }),
  });
}

export type RepositoryView = ReturnType<typeof repository>;

// Compile-time check that the views return what the response schemas list: every field
// of the right type, and none the schema leaves out (serialization would drop it).
type Fits<V, S> = [V] extends [S] ? true : false;
type OnlyListed<V, S> = [V extends unknown ? Exclude<keyof V, keyof S> : never] extends [never] ? true : false;
type Assert<T extends true> = T;
export type RepositoryViewChecks = [
  Assert<Fits<ReturnType<typeof repository>, RepositorySchema>>,
  Assert<OnlyListed<ReturnType<typeof repository>, RepositorySchema>>,
  Assert<Fits<ReturnType<typeof fullRepository>, FullRepositorySchema>>,
  Assert<OnlyListed<ReturnType<typeof fullRepository>, FullRepositorySchema>>,
];
