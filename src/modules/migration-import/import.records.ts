// The archive's records, checked and reduced to what the import puts in. Records are
// the REST representations the export wrote; repositories are named by the
// /repos/{owner}/{name} part of their API URLs, so any host's archive reads the same.
// A record missing what the import needs is an archive error (422), found before
// anything is written.
import { LOCK_REASONS, STATE_REASONS, type IssueEventName } from '../issues/issues.model.ts';
import { sanitizeAssetName } from '../releases/releases.model.ts';
import type { ReactionContent } from '../reactions/reactions.rollup.ts';
import { isReactionContent } from '../reactions/reactions.import.ts';
import { ROLES, type Role } from '../repos/repos.model.ts';
import { archiveError, type ArchiveContents } from './import.archive.ts';
import { each, Fields } from './import.fields.ts';

export interface UserRecord { login: string; type: 'User' | 'Bot'; name: string | null; company: string | null; blog: string | null; location: string | null; bio: string | null }
export interface MemberRecord { login: string; role: 'admin' | 'member' }
export interface OrganizationRecord { login: string; name: string | null; description: string | null; members: MemberRecord[] }
export interface TeamRecord {
  name: string; description: string | null; privacy: 'secret' | 'closed'; permission: 'pull' | 'push' | 'admin'; parent: string | null;
  members: { login: string; role: 'member' | 'maintainer' }[];
  /** The team's access to repositories of the archive (key: lower-cased "owner/name"). */
  repositories: { repo: string; permission: Role }[];
}
export interface RepositoryRecord {
  key: string; owner: string; name: string; description: string | null; homepage: string | null; visibility: 'public' | 'private' | 'internal';
  defaultBranch: string; topics: string[]; flags: Partial<Record<RepoFlag, boolean>>; texts: Partial<Record<RepoText, string>>;
  createdAt: string; updatedAt: string; pushedAt: string | null;
  /** The archive marks it a fork; `parent` is its parent's "owner/name" when the archive names one. */
  fork: boolean; parent: string | null;
}
export interface LabelRecord { repo: string; name: string; color: string; description: string | null; isDefault: boolean }
export interface MilestoneRecord { repo: string; number: number; title: string; description: string | null; state: 'open' | 'closed'; dueOn: string | null; creator: string | null; createdAt: string; updatedAt: string; closedAt: string | null }
export interface IssueRecord {
  repo: string; number: number; title: string; body: string | null; user: string | null; state: 'open' | 'closed'; stateReason: string | null;
  locked: boolean; activeLockReason: string | null; labels: string[]; assignees: string[]; milestone: number | null;
  closedAt: string | null; closedBy: string | null; createdAt: string; updatedAt: string;
}
export interface PullRecord extends IssueRecord {
  headRef: string; headSha: string; headRepo: string | null; baseRef: string; baseSha: string; draft: boolean;
  mergedAt: string | null; mergedBy: string | null; mergeCommitSha: string | null; maintainerCanModify: boolean;
}
export interface CommentRecord { repo: string; sourceId: number; issueNumber: number; user: string | null; body: string; createdAt: string; updatedAt: string }
export interface ReactionRecord {
  repo: string; subject: { type: 'issue'; number: number } | { type: 'issue_comment' | 'pull_request_review_comment'; sourceId: number };
  user: string | null; content: ReactionContent; createdAt: string;
}

export interface ReviewRecord {
  repo: string; sourceId: number; pullNumber: number; user: string | null; state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  body: string; commitId: string; submittedAt: string | null; createdAt: string;
}
export interface ReviewCommentRecord {
  repo: string; sourceId: number; reviewSourceId: number; pullNumber: number; inReplyTo: number | null; user: string | null; body: string;
  path: string; commitId: string; originalCommitId: string; diffHunk: string; position: number | null; line: number | null;
  side: 'LEFT' | 'RIGHT' | null; startLine: number | null; startSide: 'LEFT' | 'RIGHT' | null; subjectType: 'line' | 'file';
  createdAt: string; updatedAt: string;
}
export interface ReleaseRecord {
  repo: string; tagName: string; targetCommitish: string; name: string | null; body: string | null; draft: boolean; prerelease: boolean;
  author: string | null; createdAt: string; publishedAt: string | null; updatedAt: string;
  /** The assets whose bytes the archive holds (the others cannot be made again). */
  assets: AssetRecord[];
}
export interface AssetRecord {
  name: string; label: string | null; contentType: string; uploader: string | null; downloadCount: number; createdAt: string; updatedAt: string;
  /** The archive's file of its bytes (releases/<guid>/<name>). */
  file: string;
}

export interface CardRecord {
  sourceId: number | null; note: string | null; content: { repo: string; number: number } | null; archived: boolean; creator: string | null; createdAt: string; updatedAt: string;
}
export interface ProjectBoardRecord {
  /** The owning repository's key, or null: the organization's project. */
  repo: string | null; name: string; body: string | null; state: 'open' | 'closed'; organizationPermission: 'read' | 'write' | 'admin' | 'none' | null;
  private: boolean; creator: string | null; createdAt: string; updatedAt: string;
  columns: { name: string; createdAt: string; updatedAt: string; cards: CardRecord[] }[];
}

export interface EventRecord {
  repo: string; issueNumber: number; actor: string | null; event: (typeof EVENTS)[number]; commitId: string | null; createdAt: string;
  label: { name: string; color: string } | null; assignee: string | null; assigner: string | null; milestone: string | null;
  rename: { from: string; to: string } | null; lockReason: string | null; stateReason: string | null;
  /** The card of a project event (its archive id), which the import maps to the card it made. */
  projectCard: { sourceId: number; columnName: string; previousColumnName: string | null } | null;
  /** review_requested, review_request_removed: who asked, and the user or team (by name) asked. */
  reviewRequester: string | null; requestedReviewer: string | null; requestedTeam: string | null;
  /** review_dismissed: the review as dismissed, its archive id mapped to the review the import made. */
  dismissedReview: { state: string; reviewSourceId: number; message: string | null; commitId: string | null } | null;
}

/**
 * The timeline events the import makes again: those Wharf records. Others of upstream's
 * many kinds (mentioned, subscribed …) are read past.
 */
const EVENTS = [
  'closed', 'reopened', 'labeled', 'unlabeled', 'assigned', 'unassigned', 'milestoned', 'demilestoned', 'locked', 'unlocked', 'renamed',
  'referenced', 'added_to_project', 'moved_columns_in_project', 'removed_from_project',
  'auto_merge_enabled', 'auto_squash_enabled', 'auto_rebase_enabled', 'auto_merge_disabled',
  'review_requested', 'review_request_removed', 'review_dismissed',
] as const satisfies readonly IssueEventName[];

/** Repository switches the archive carries over (REST name → record name). */
const FLAGS = {
  has_issues: 'hasIssues', has_projects: 'hasProjects', has_wiki: 'hasWiki', has_downloads: 'hasDownloads', has_discussions: 'hasDiscussions',
  is_template: 'isTemplate', archived: 'archived', allow_squash_merge: 'allowSquashMerge', allow_merge_commit: 'allowMergeCommit',
  allow_rebase_merge: 'allowRebaseMerge', allow_auto_merge: 'allowAutoMerge', allow_update_branch: 'allowUpdateBranch',
  allow_forking: 'allowForking', delete_branch_on_merge: 'deleteBranchOnMerge', web_commit_signoff_required: 'webCommitSignoffRequired',
} as const;
export type RepoFlag = (typeof FLAGS)[keyof typeof FLAGS];

/** The merge commit message settings (REST name → record name) and the values each may take. */
const TEXTS = {
  squash_merge_commit_title: 'squashMergeCommitTitle', squash_merge_commit_message: 'squashMergeCommitMessage',
  merge_commit_title: 'mergeCommitTitle', merge_commit_message: 'mergeCommitMessage',
} as const;
export type RepoText = (typeof TEXTS)[keyof typeof TEXTS];
const TEXT_VALUES: Record<keyof typeof TEXTS, readonly string[]> = {
  squash_merge_commit_title: ['PR_TITLE', 'COMMIT_OR_PR_TITLE'], squash_merge_commit_message: ['PR_BODY', 'COMMIT_MESSAGES', 'BLANK'],
  merge_commit_title: ['PR_TITLE', 'MERGE_MESSAGE'], merge_commit_message: ['PR_BODY', 'PR_TITLE', 'BLANK'],
};

/** A value this Wharf knows, or null (a reason it has no name for is left out, not stored). */
function known(values: readonly string[], v: string | null): string | null {
  return v !== null && values.includes(v) ? v : null;
}

function issueFields(f: Fields): IssueRecord {
  const state = f.str('state');
  if (state !== 'open' && state !== 'closed') throw archiveError(`state ${JSON.stringify(state)} is not open or closed`);
  const milestone = f.obj('milestone');
  return {
    repo: f.repoOf('url'), number: f.int('number'), title: f.str('title'), body: f.strOrNull('body'), user: f.login('user'), state,
    stateReason: known(STATE_REASONS, f.strOrNull('state_reason')), locked: f.bool('locked', false),
    activeLockReason: known(LOCK_REASONS, f.strOrNull('active_lock_reason')),
    labels: f.list('labels').map((l, i) => new Fields(l, `labels[${i}]`).str('name')),
    assignees: f.list('assignees').map((a, i) => new Fields(a, `assignees[${i}]`).str('login')),
    milestone: milestone ? new Fields(milestone, 'milestone').int('number') : null,
    closedAt: f.timeOrNull('closed_at'), closedBy: f.login('closed_by'), createdAt: f.time('created_at'), updatedAt: f.time('updated_at'),
  };
}

export interface ArchiveRecords {
  users: UserRecord[];
  organizations: OrganizationRecord[];
  teams: TeamRecord[];
  repositories: RepositoryRecord[];
  labels: LabelRecord[];
  milestones: MilestoneRecord[];
  issues: IssueRecord[];
  pulls: PullRecord[];
  comments: CommentRecord[];
  reactions: ReactionRecord[];
  reviews: ReviewRecord[];
  reviewComments: ReviewCommentRecord[];
  releases: ReleaseRecord[];
  events: EventRecord[];
  projects: ProjectBoardRecord[];
}

const REVIEW_STATES = ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED'] as const;
const sideOf = (v: string | null) => (v === 'LEFT' || v === 'RIGHT' ? v : null);

export function parseRecords(contents: ArchiveContents): ArchiveRecords {
  return {
    users: each(contents, 'users', (f) => ({
      login: f.str('login'), type: f.strOrNull('type') === 'Bot' ? 'Bot' : 'User', name: f.strOrNull('name'), company: f.strOrNull('company'),
      blog: f.strOrNull('blog'), location: f.strOrNull('location'), bio: f.strOrNull('bio'),
    })),
    organizations: each(contents, 'organizations', (f) => ({
      login: f.str('login'), name: f.strOrNull('name'), description: f.strOrNull('description'),
      members: f.list('members').map((m, i) => {
        const mf = new Fields(m, `members[${i}]`);
        return { login: mf.str('login'), role: mf.strOrNull('role') === 'admin' ? 'admin' : 'member' };
      }),
    })),
    teams: each(contents, 'teams', (f) => ({
      name: f.str('name'), description: f.strOrNull('description'), privacy: f.strOrNull('privacy') === 'closed' ? 'closed' : 'secret',
      permission: ((p) => (p === 'push' || p === 'admin' ? p : 'pull'))(f.strOrNull('permission')),
      parent: f.obj('parent') ? new Fields(f.obj('parent')!, 'parent').str('name') : null,
      members: f.list('members').map((m, i) => {
        const mf = new Fields(m, `members[${i}]`);
        return { login: mf.str('login'), role: mf.strOrNull('role') === 'maintainer' ? 'maintainer' : 'member' };
      }),
      repositories: teamRepositories(f),
    })),
    repositories: each(contents, 'repositories', (f) => {
      const [owner, name] = f.str('full_name').split('/');
      if (!owner || !name) throw archiveError(`repository full_name ${JSON.stringify(f.str('full_name'))} is not owner/name`);
      const v = f.strOrNull('visibility') ?? (f.bool('private', false) ? 'private' : 'public');
      if (v !== 'public' && v !== 'private' && v !== 'internal') throw archiveError(`repository ${owner}/${name}: unknown visibility ${JSON.stringify(v)}`);
      return {
        key: `${owner}/${name}`.toLowerCase(), owner, name, description: f.strOrNull('description'), homepage: f.strOrNull('homepage'),
        visibility: v, defaultBranch: f.strOrNull('default_branch') ?? 'main', topics: f.strings('topics'),
        flags: Object.fromEntries(Object.entries(FLAGS).flatMap(([rest, rec]) => {
          const v = f.flag(rest);
          return v === undefined ? [] : [[rec, v]];
        })) as Partial<Record<RepoFlag, boolean>>,
        // A value this Wharf does not know leaves the default in place.
        texts: Object.fromEntries(Object.entries(TEXTS).flatMap(([rest, rec]) => {
          const v = f.strOrNull(rest);
          return v !== null && TEXT_VALUES[rest as keyof typeof TEXTS].includes(v) ? [[rec, v]] : [];
        })) as Partial<Record<RepoText, string>>,
        createdAt: f.time('created_at'), updatedAt: f.time('updated_at'), pushedAt: f.timeOrNull('pushed_at'),
        fork: f.bool('fork', false), parent: parentOf(f),
      };
    }),
    labels: each(contents, 'labels', (f) => ({
      repo: f.repoOf('url'), name: f.str('name'), color: f.str('color'), description: f.strOrNull('description'), isDefault: f.bool('default', false),
    })),
    milestones: each(contents, 'milestones', (f) => {
      const state = f.strOrNull('state') === 'closed' ? 'closed' : 'open';
      return {
        repo: f.repoOf('url'), number: f.int('number'), title: f.str('title'), description: f.strOrNull('description'), state, dueOn: f.timeOrNull('due_on'),
        creator: f.login('creator'), createdAt: f.time('created_at'), updatedAt: f.time('updated_at'), closedAt: f.timeOrNull('closed_at'),
      };
    }),
    issues: each(contents, 'issues', issueFields),
    pulls: each(contents, 'pull_requests', (f) => {
      const head = new Fields(f.required('head'), 'head');
      const base = new Fields(f.required('base'), 'base');
      const headRepo = head.obj('repo');
      return {
        ...issueFields(f), headRef: head.str('ref'), headSha: head.str('sha'), baseRef: base.str('ref'), baseSha: base.str('sha'),
        headRepo: headRepo ? new Fields(headRepo, 'head.repo').str('full_name').toLowerCase() : null, draft: f.bool('draft', false),
        mergedAt: f.timeOrNull('merged_at'), mergedBy: f.login('merged_by'), mergeCommitSha: f.strOrNull('merge_commit_sha'),
        maintainerCanModify: f.bool('maintainer_can_modify', false),
      };
    }),
    comments: each(contents, 'issue_comments', (f) => ({
      repo: f.repoOf('url'), sourceId: f.int('id'), issueNumber: f.tailNumber('issue_url'), user: f.login('user'), body: f.strOrNull('body') ?? '',
      createdAt: f.time('created_at'), updatedAt: f.time('updated_at'),
    })),
    reactions: each(contents, 'reactions', (f): ReactionRecord => {
      const type = f.str('subject_type');
      const content = f.str('content');
      if (!isReactionContent(content)) throw archiveError(`reaction content ${JSON.stringify(content)} is unknown`);
      if (type !== 'issue' && type !== 'issue_comment' && type !== 'pull_request_review_comment') {
        throw archiveError(`reaction subject_type ${JSON.stringify(type)} is not issue, issue_comment or pull_request_review_comment`);
      }
      const subject: ReactionRecord['subject'] = type === 'issue'
        ? { type: 'issue', number: f.tailNumber('subject_url') } : { type, sourceId: f.tailNumber('subject_url') };
      return { repo: f.repoOf('subject_url'), subject, user: f.login('user'), content, createdAt: f.time('created_at') };
    }),
    reviews: each(contents, 'pull_request_reviews', (f): ReviewRecord => {
      const state = f.str('state');
      // Pending reviews are drafts no export writes; one found here is an archive error, as any unknown state.
      if (!(REVIEW_STATES as readonly string[]).includes(state)) throw archiveError(`review state ${JSON.stringify(state)} is unknown`);
      // Upstream writes created_at; an archive of the REST shape alone has submitted_at.
      const createdAt = f.strOrNull('created_at') === null ? f.time('submitted_at') : f.time('created_at');
      return {
        repo: f.repoOf('pull_request_url'), sourceId: f.int('id'), pullNumber: f.tailNumber('pull_request_url'), user: f.login('user'),
        state: state as ReviewRecord['state'], body: f.strOrNull('body') ?? '', commitId: f.str('commit_id'), submittedAt: f.timeOrNull('submitted_at'), createdAt,
      };
    }),
    reviewComments: each(contents, 'pull_request_review_comments', (f): ReviewCommentRecord => ({
      repo: f.repoOf('pull_request_url'), sourceId: f.int('id'), reviewSourceId: f.int('pull_request_review_id'), pullNumber: f.tailNumber('pull_request_url'),
      inReplyTo: f.intOrNull('in_reply_to_id'), user: f.login('user'), body: f.strOrNull('body') ?? '', path: f.str('path'),
      commitId: f.str('commit_id'), originalCommitId: f.strOrNull('original_commit_id') ?? f.str('commit_id'), diffHunk: f.strOrNull('diff_hunk') ?? '',
      position: f.intOrNull('position'), line: f.intOrNull('line'), side: sideOf(f.strOrNull('side')), startLine: f.intOrNull('start_line'),
      startSide: sideOf(f.strOrNull('start_side')), subjectType: f.strOrNull('subject_type') === 'file' ? 'file' : 'line',
      createdAt: f.time('created_at'), updatedAt: f.time('updated_at'),
    })),
    releases: uniqueTags(each(contents, 'releases', (f): ReleaseRecord => {
      const draft = f.bool('draft', false);
      const createdAt = f.time('created_at');
      const publishedAt = draft ? null : f.timeOrNull('published_at');
      return {
        repo: f.repoOf('url'), tagName: f.str('tag_name'), targetCommitish: f.str('target_commitish'), name: f.strOrNull('name'), body: f.strOrNull('body'),
        draft, prerelease: f.bool('prerelease', false), author: f.login('author'), createdAt, publishedAt,
        // Upstream's archive has no updated_at: the release was last changed when it was published.
        updatedAt: f.strOrNull('updated_at') === null ? publishedAt ?? createdAt : f.time('updated_at'),
        assets: releaseAssets(f, contents.files),
      };
    })),
    events: each(contents, 'issue_events', (f): EventRecord[] => {
      const event = f.str('event');
      if (!(EVENTS as readonly string[]).includes(event)) return [];
      const label = f.obj('label');
      const lf = label ? new Fields(label, `${f.where}.label`) : null;
      const rename = f.obj('rename');
      const rf = rename ? new Fields(rename, `${f.where}.rename`) : null;
      // Wharf writes the milestone as { title }, upstream's archive as the title alone.
      const milestone = typeof f.raw('milestone') === 'string' ? f.str('milestone') : f.obj('milestone') ? new Fields(f.obj('milestone')!, `${f.where}.milestone`).str('title') : null;
      return [{
        repo: f.repoOf('issue'), issueNumber: f.tailNumber('issue'), actor: f.login('actor'), event: event as EventRecord['event'],
        commitId: f.strOrNull('commit_id'), createdAt: f.time('created_at'),
        label: lf ? { name: lf.str('name'), color: lf.strOrNull('color') ?? 'ededed' } : null,
        assignee: f.login('assignee'), assigner: f.login('assigner'), milestone,
        // A title may be renamed from or to anything but nothing: strOrNull keeps an empty one.
        rename: rf ? { from: rf.strOrNull('from') ?? '', to: rf.strOrNull('to') ?? '' } : null,
        lockReason: known(LOCK_REASONS, f.strOrNull('lock_reason')), stateReason: known(STATE_REASONS, f.strOrNull('state_reason')),
        projectCard: f.obj('project_card') ? ((pf) => ({
          sourceId: pf.int('id'), columnName: pf.strOrNull('column_name') ?? '', previousColumnName: pf.strOrNull('previous_column_name'),
        }))(new Fields(f.obj('project_card')!, `${f.where}.project_card`)) : null,
        reviewRequester: f.login('review_requester'), requestedReviewer: f.login('requested_reviewer'),
        requestedTeam: f.obj('requested_team') ? new Fields(f.obj('requested_team')!, `${f.where}.requested_team`).str('name') : null,
        dismissedReview: f.obj('dismissed_review') ? ((df) => ({
          state: df.str('state'), reviewSourceId: df.int('review_id'), message: df.strOrNull('dismissal_message'), commitId: df.strOrNull('dismissal_commit_id'),
        }))(new Fields(f.obj('dismissed_review')!, `${f.where}.dismissed_review`)) : null,
      }];
    }).flat(),
    projects: each(contents, 'projects', (f): ProjectBoardRecord => {
      const permission = f.strOrNull('organization_permission');
      return {
        repo: f.strOrNull('repository') === null ? null : f.repoOf('repository'), name: f.str('name'), body: f.strOrNull('body'),
        state: f.strOrNull('state') === 'closed' ? 'closed' : 'open',
        organizationPermission: permission === 'read' || permission === 'write' || permission === 'admin' || permission === 'none' ? permission : null,
        private: f.bool('private', false), creator: f.login('creator'), createdAt: f.time('created_at'), updatedAt: f.time('updated_at'),
        columns: f.list('columns').map((c, i) => {
          const cf = new Fields(c, `${f.where}.columns[${i}]`);
          return {
            name: cf.str('name'), createdAt: cf.time('created_at'), updatedAt: cf.time('updated_at'),
            cards: cf.list('cards').map((k, j) => {
              const kf = new Fields(k, `${cf.where}.cards[${j}]`);
              const content = kf.strOrNull('content_url') === null ? null : { repo: kf.repoOf('content_url'), number: kf.tailNumber('content_url') };
              return {
                sourceId: kf.intOrNull('id'), note: kf.strOrNull('note'), content, archived: kf.bool('archived', false), creator: kf.login('creator'),
                createdAt: kf.time('created_at'), updatedAt: kf.time('updated_at'),
              };
            }),
          };
        }),
      };
    }),
  };
}

/** A fork's parent, as GET /repos/{owner}/{repo} shows it: its "owner/name" (null for a repository that is no fork, or whose parent the archive leaves out). */
function parentOf(f: Fields): string | null {
  const parent = f.bool('fork', false) ? f.obj('parent') : null;
  if (!parent) return null;
  const name = new Fields(parent, `${f.where}.parent`).str('full_name');
  if (!/^[^/]+\/[^/]+$/.test(name)) throw archiveError(`${f.where}.parent: full_name ${JSON.stringify(name)} is not owner/name`);
  return name;
}

/**
 * A team's repositories: Wharf's archives give each as { url, permission }; upstream's
 * as the repository's web address alone, under the team's one permission.
 */
function teamRepositories(f: Fields): TeamRecord['repositories'] {
  const fallback = f.strOrNull('permission') ?? 'pull';
  return f.items('repositories').map((item, i) => {
    const where = `repositories[${i}]`;
    if (typeof item === 'string') {
      const m = /^https?:\/\/[^/]+\/([^/]+)\/([^/]+?)\/?$/.exec(item);
      if (!m) throw archiveError(`${f.where}.${where} ${JSON.stringify(item)} is not a repository address`);
      return { repo: `${m[1]}/${m[2]}`.toLowerCase(), permission: role(fallback, `${f.where}.${where}`) };
    }
    const rf = new Fields(item, `${f.where}.${where}`);
    return { repo: rf.repoOf('url'), permission: role(rf.str('permission'), `${f.where}.${where}`) };
  });
}

function role(v: string, where: string): Role {
  if (!(ROLES as readonly string[]).includes(v)) throw archiveError(`${where}: permission ${JSON.stringify(v)} is not one of ${ROLES.join(', ')}`);
  return v as Role;
}

/**
 * A release's assets whose bytes the archive holds: the file named by `asset_url`
 * (tarball://root/<name>), which must be in the archive. An asset without one (an
 * export with exclude_attachments, or not fully uploaded) is left out.
 */
function releaseAssets(f: Fields, files: ReadonlySet<string>): AssetRecord[] {
  const seen = new Set<string>();
  return f.list('release_assets').flatMap((item, i): AssetRecord[] => {
    const af = new Fields(item, `${f.where}.release_assets[${i}]`);
    const url = af.strOrNull('asset_url');
    if (url === null || (af.strOrNull('state') ?? 'uploaded') !== 'uploaded') return [];
    const file = /^tarball:\/\/root\/(.+)$/.exec(url)?.[1];
    if (file === undefined || !files.has(file)) throw archiveError(`${af.where}: asset_url ${JSON.stringify(url)} is not a file of the archive`);
    const name = sanitizeAssetName(af.str('name'));
    if (name === '' || seen.has(name)) throw archiveError(`${af.where}: the release has no usable or a second asset named ${JSON.stringify(af.str('name'))}`);
    seen.add(name);
    const createdAt = af.time('created_at');
    // Wharf's records name the uploader as an account; upstream's as an address ending in the login.
    const user = af.strOrNull('user');
    const uploader = af.obj('uploader') ? af.login('uploader') : user === null ? null : /\/([^/]+)\/?$/.exec(user)?.[1] ?? null;
    return [{
      name, label: af.strOrNull('label'), contentType: af.strOrNull('content_type') || 'application/octet-stream', uploader,
      downloadCount: af.count('download_count'), createdAt, updatedAt: af.timeOrNull('updated_at') ?? createdAt, file,
    }];
  });
}

/** One release per tag in a repository, as here: a second one is an archive error, not a failed import. */
function uniqueTags(releases: ReleaseRecord[]): ReleaseRecord[] {
  const seen = new Set<string>();
  for (const r of releases) {
    const key = `${r.repo}\0${r.tagName}`;
    if (seen.has(key)) throw archiveError(`releases: ${r.repo} has two releases of the tag ${JSON.stringify(r.tagName)}`);
    seen.add(key);
  }
  return releases;
}
