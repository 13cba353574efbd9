// What a migration archive holds besides git data: the records of the owner and of
// each repository, as the REST API represents them (so an import, or a person, reads
// them the way they read the API). Everything is read through the owning modules'
// services, as the migration's creator.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { everyPage } from '../../domain/page.ts';
import { presentComments, presentIssues, presentLabels, presentMilestones } from '../issues/issues.present.ts';
import * as comments from '../issues/comments.service.ts';
import * as lists from '../issues/issue-lists.service.ts';
import * as labels from '../issues/labels.service.ts';
import * as milestones from '../issues/milestones.service.ts';
import { teamPermissionsOn } from '../orgs/orgs.access.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { organizationSimple } from '../orgs/orgs.views.ts';
import { team } from '../orgs/orgs.views.ts';
import { presentPulls } from '../pulls/pulls.present.ts';
import * as pulls from '../pulls/pulls.service.ts';
import * as reactions from '../reactions/reactions.service.ts';
import { reaction } from '../reactions/reactions.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { repository } from '../repos/repos.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { simpleUser } from '../users/users.views.ts';
import { issueEventRecords } from './migrations.events.ts';
import { repositoryProjectRecords } from './migrations.projects.ts';
import { releaseRecords, type ArchiveFile } from './migrations.releases.ts';
import { reviewRecords } from './migrations.reviews.ts';

type Json = Record<string, unknown>;

/** The records of one repository, by archive file kind. */
export interface RepositoryRecords {
  repository: Json;
  issues: Json[];
  pull_requests: Json[];
  issue_comments: Json[];
  labels: Json[];
  milestones: Json[];
  reactions: Json[];
  pull_request_reviews: Json[];
  pull_request_review_comments: Json[];
  releases: Json[];
  issue_events: Json[];
  /** The repository's classic projects, with their columns and cards. */
  projects: Json[];
  /** Files the records name (release assets' bytes), written to the archive as they are. */
  files: ArchiveFile[];
}

/** What of a repository goes in besides the repository record (the migration's flags). */
export interface RecordChoice {
  metadata: boolean;
  releases: boolean;
  /** The bytes of release assets (exclude_attachments leaves them out, their records stay). */
  attachments: boolean;
}

const MEDIA = { bodyFormat: 'raw' as const, previews: new Set<string>(['sailor-v', 'nebula']) };

export async function repositoryRecords(ctx: AppContext, actor: Actor, repo: Repo, choice: RecordChoice): Promise<RepositoryRecords> {
  const owner = repo.owner.login;
  const repository = repositoryJson(ctx, await repos.getRepo(ctx, actor, owner, repo.name));
  // Releases are metadata too: exclude_metadata leaves only the git data, as upstream's.
  const { records: releases, files } = choice.metadata && choice.releases ? await releaseRecords(ctx, actor, repo, choice.attachments) : { records: [], files: [] };
  const none = {
    repository, issues: [], pull_requests: [], issue_comments: [], labels: [], milestones: [], reactions: [],
    pull_request_reviews: [], pull_request_review_comments: [], releases, issue_events: [], projects: [], files,
  };
  if (!choice.metadata) return none;
  const issueRecords = await everyPage((s) => lists.listRepoIssues(ctx, actor, owner, repo.name, { state: 'all', sort: 'created', direction: 'asc' }, s).then((r) => r.page));
  const plainIssues = issueRecords.filter((i) => !i.isPullRequest);
  const issues = await presentIssues(ctx, actor, plainIssues, { ...MEDIA, repos: [repo] });
  const pullRecords = await everyPage((s) => pulls.listPulls(ctx, actor, owner, repo.name, { state: 'all', sort: 'created', direction: 'asc', offset: s.offset, limit: s.perPage }));
  const pullViews = await presentPulls(ctx, actor, repo, pullRecords, MEDIA);
  // Beyond the list record: who merged and who closed, why it closed, and the maintainer switch, which an import puts back.
  const pullPeople = await users.accountsByIds(ctx, pullRecords.flatMap((r) => [r.pull.mergedById, r.issue.closedById]).filter((u): u is number => u !== null));
  const person = (id: number | null) => {
    const a = id === null ? undefined : pullPeople.get(id);
    return a ? simpleUser(a, ctx.urls) : null;
  };
  const pullJson = pullViews.map((v, i) => ({
    ...v, merged_by: person(pullRecords[i]!.pull.mergedById), closed_by: person(pullRecords[i]!.issue.closedById),
    maintainer_can_modify: pullRecords[i]!.pull.maintainerCanModify, state_reason: pullRecords[i]!.issue.stateReason,
  }));
  const commentRecords = await everyPage((s) => comments.listForRepo(ctx, actor, owner, repo.name, { sort: 'created', direction: 'asc' }, s).then((r) => r.page));
  const commentViews = await presentComments(ctx, repo, commentRecords, MEDIA);
  const labelRecords = await everyPage((s) => labels.listLabels(ctx, actor, owner, repo.name, s).then((r) => r.page));
  const milestoneRecords = await everyPage((s) => milestones.listMilestones(ctx, actor, owner, repo.name, { state: 'all', sort: 'due_on', direction: 'asc' }, s).then((r) => r.page));
  const reviewData = await reviewRecords(ctx, actor, repo, pullRecords.map((r) => r.pull));
  const reactionViews: Json[] = [];
  type Subject = 'issue' | 'issue_comment' | 'pull_request_review_comment';
  const subjects: [Subject, number, string][] = [
    ...issueRecords.map((i) => ['issue', i.id, ctx.urls.api('repos', owner, repo.name, 'issues', String(i.number))] as [Subject, number, string]),
    ...commentRecords.map((c) => ['issue_comment', c.id, ctx.urls.api('repos', owner, repo.name, 'issues', 'comments', String(c.id))] as [Subject, number, string]),
    ...reviewData.pull_request_review_comments.map((c) => {
      const id = c.id as number;
      return ['pull_request_review_comment', id, ctx.urls.api('repos', owner, repo.name, 'pulls', 'comments', String(id))] as [Subject, number, string];
    }),
  ];
  for (const [type, id, url] of subjects) {
    const found = await everyPage((s) => reactions.reactionsOfSubject(ctx, type, id, undefined, s));
    if (!found.length) continue;
    const authors = await users.accountsByIds(ctx, found.map((r) => r.userId).filter((u): u is number => u !== null));
    for (const r of found) reactionViews.push({ ...reaction({ reaction: r, user: r.userId === null ? null : authors.get(r.userId) ?? null }, ctx.urls), subject_type: type, subject_url: url });
  }
  return {
    repository,
    issues: issues as unknown as Json[],
    pull_requests: pullJson as unknown as Json[],
    issue_comments: commentViews as unknown as Json[],
    labels: presentLabels(ctx, repo, labelRecords) as unknown as Json[],
    milestones: (await presentMilestones(ctx, repo, milestoneRecords)) as unknown as Json[],
    reactions: reactionViews,
    ...reviewData,
    releases,
    issue_events: await issueEventRecords(ctx, actor, repo, issueRecords),
    projects: await repositoryProjectRecords(ctx, actor, repo),
    files,
  };
}

/**
 * The repository as the REST API lists it, and a fork with its `parent` and `source` as
 * GET /repos/{owner}/{repo} shows them (those the migration's creator may read): what an
 * import links the fork to again. Upstream's exporter drops the relation ("fork
 * relationships do not persist after a migration"); the fields are the REST API's.
 */
function repositoryJson(ctx: AppContext, d: repos.RepoDetail): Json {
  const view = (p: repos.Presentable) => {
    const license = p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, ctx.urls) : null;
    return repository(p.repo, { urls: ctx.urls, counts: p.counts, role: p.role, previews: new Set(['nebula']), license }) as unknown as Json;
  };
  return { ...view(d), ...(d.parent ? { parent: view(d.parent), source: view(d.source ?? d.parent) } : {}) };
}

/**
 * The owner: an organization with its teams, or a user. Each team lists the archive's
 * `repositories` it has access to, with the permission on each (upstream lists the
 * repositories alone, under one team-wide permission; Wharf's is per repository).
 */
export async function ownerRecords(ctx: AppContext, actor: Actor, owner: Account, repositories: readonly Repo[]): Promise<{ organizations: Json[]; teams: Json[] }> {
  if (owner.type !== 'Organization') return { organizations: [], teams: [] };
  const org = await orgs.requireOrganizationById(ctx, owner.id);
  const listing = await everyPage((s) => orgs.listTeams(ctx, actor, owner.login, s));
  const grants = new Map<number, { url: string; full_name: string; permission: string }[]>();
  for (const repo of repositories) {
    for (const [teamId, permission] of await teamPermissionsOn(ctx, repo.id, listing.map((e) => e.team.id))) {
      grants.set(teamId, [...(grants.get(teamId) ?? []), { url: ctx.urls.api('repos', repo.owner.login, repo.name), full_name: `${repo.owner.login}/${repo.name}`, permission }]);
    }
  }
  const teams: Json[] = [];
  for (const e of listing) {
    const members = await everyPage((s) => orgs.listTeamMembers(ctx, actor, { org: owner.login, teamSlug: e.team.slug }, 'all', s));
    teams.push({
      ...team(e.team, e.parent, owner.login, ctx.urls), members: members.map((m) => ({ login: m.user.login, role: m.role })),
      repositories: grants.get(e.team.id) ?? [],
    });
  }
  // Members with their roles, as upstream's organizations_*.json lists them: what an import needs to make the same owners.
  const members: Json[] = [];
  for (const role of ['admin', 'member'] as const) {
    const found = await everyPage((s) => orgs.listMembers(ctx, actor, owner.login, { role }, s));
    members.push(...found.map((a) => ({ user: ctx.urls.api('users', a.login), login: a.login, id: a.id, type: a.type, role, state: 'active' })));
  }
  return { organizations: [{ ...organizationSimple(owner, org.settings.description, ctx.urls), name: owner.name, members }], teams };
}

/** Every account the records name (objects with login, id and an account type), for users_*.json. */
export async function usersNamedIn(ctx: AppContext, records: unknown[]): Promise<Json[]> {
  const ids = new Set<number>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) { v.forEach(walk); return; }
    if (!v || typeof v !== 'object') return;
    const o = v as Json;
    if (typeof o.login === 'string' && typeof o.id === 'number' && (o.type === 'User' || o.type === 'Bot')) ids.add(o.id);
    for (const [k, x] of Object.entries(o)) {
      // A fork's parent and source may be anybody's repositories: their owners are not people of the archive (an import would make them accounts).
      if ((k === 'parent' || k === 'source') && x && typeof x === 'object' && 'full_name' in x) continue;
      walk(x);
    }
  };
  walk(records);
  const accounts = await users.accountsByIds(ctx, [...ids]);
  return [...accounts.values()].sort((a, b) => a.id - b.id).map((a) => ({
    ...simpleUser(a, ctx.urls), name: a.name, company: a.company, blog: a.blog, location: a.location,
    email: a.emailPrivate ? null : a.email, bio: a.bio, created_at: a.createdAt,
  }));
}
