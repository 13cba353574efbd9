// Drafts src/http/app-permission-table.ts: the permission an installation token needs on
// each route Wharf registers, from the route's upstream operation (x-github category and
// subcategory, and whether upstream enables it for apps); GET reads, anything else
// writes. Run it after adding routes, then review the diff: the table is the source.
//   node scripts/draft-app-permissions.mjs > src/http/app-permission-table.ts
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync('node_modules/@octokit/openapi/generated/api.github.com.json', 'utf8'));
const ids = new Set(execSync(`grep -rhoE "operationId: '[a-z0-9-]+/[a-z0-9-]+'" src`).toString().trim().split('\n')
  .map((l) => l.replace(/^operationId: '(.*)'$/, '$1')));

// category or category/subcategory → [permission for reads, permission for writes]; {} needs none.
const RULES = {
  'activity/starring': ['metadata', 'starring'], 'activity/watching': ['metadata', 'metadata'],
  branches: ['contents', 'contents'], 'branches/branch-protection': ['administration', 'administration'], 'collaborators/collaborators': ['metadata', 'administration'],
  'collaborators/invitations': ['administration', 'administration'], 'commits/commits': ['contents', 'contents'],
  'commits/statuses': ['statuses', 'statuses'], deployments: ['deployments', 'deployments'], git: ['contents', 'contents'],
  gitignore: [null, null], licenses: [null, null], markdown: [null, null], meta: [null, null], 'rate-limit': [null, null],
  'interactions/orgs': ['organization_administration', 'organization_administration'], 'interactions/repos': ['administration', 'administration'],
  issues: ['issues', 'issues'], 'orgs/members': ['members', 'members'], 'orgs/orgs': [null, 'organization_administration'],
  'orgs/webhooks': ['organization_hooks', 'organization_hooks'], 'orgs/custom-roles': ['organization_custom_roles', 'organization_custom_roles'],
  pulls: ['pull_requests', 'pull_requests'], releases: ['contents', 'contents'], 'repos/contents': ['contents', 'contents'],
  'repos/forks': ['metadata', 'administration'], 'repos/repos': ['metadata', 'administration'], 'repos/webhooks': ['repository_hooks', 'repository_hooks'],
  search: ['metadata', 'metadata'], teams: ['members', 'members'], users: [null, null], reactions: ['issues', 'issues'],
  'apps/installations': [null, null], 'apps/apps': [null, null], 'deploy-keys': ['administration', 'administration'],
  // Source imports change a repository's whole history: administration, as upstream lists them.
  'migrations/source-imports': ['administration', 'administration'],
  // Timelines: metadata, which every installation holds.
  'activity/events': ['metadata', 'metadata'],
  'actions/self-hosted-runner-groups': ['organization_self_hosted_runners', 'organization_self_hosted_runners'],
  checks: ['checks', 'checks'], emojis: [null, null],
};
// Runners of an organization need its self-hosted runners permission; a repository's, administration.
const runnerPermission = (path) => (path.startsWith('/orgs/') ? 'organization_self_hosted_runners' : 'administration');

// Reviewed by hand: Wharf's own routes, routes whose ids are built at run time, and
// operations upstream describes elsewhere (older OpenAPI majors, enterprise).
const R = (perm, level) => ({ [perm]: level });
const OVERRIDES = {
  'wharf/avatar': {}, 'wharf/web-stylesheet': {}, 'wharf/graphql-explorer': {}, 'wharf/graphql-explorer-script': {},
  'wharf/graphql-explorer-styles': {}, 'graphql/introspect': {},
  // A user's public SSH keys as a file: public data, like /users/{username}/keys.
  'wharf/user-authorized-keys': {},
  // An emoji (the target of GET /emojis' URLs): public data.
  'wharf/emoji': {},
  // The legacy reference listing (gone from the current description).
  'git/list-refs': R('contents', 'read'),
  // GraphQL checks app permissions per field (src/graphql/app-permissions.ts).
  graphql: {},
  'repos/download-raw': R('contents', 'read'), 'wharf/download-release-asset': R('contents', 'read'),
  'repos/download-zipball-archive': R('contents', 'read'), 'repos/download-tarball-archive': R('contents', 'read'),
  'git/info-refs': R('contents', 'read'), 'git/git-upload-pack': R('contents', 'read'), 'git/git-receive-pack': R('contents', 'write'),
  // Git LFS: a batch's download or upload is checked again as fetch or push (git-http's authorize).
  'lfs/batch': R('contents', 'read'), 'lfs/download': R('contents', 'read'), 'lfs/upload': R('contents', 'write'), 'lfs/verify': R('contents', 'write'),
  'orgs/list-custom-repo-roles': R('organization_custom_roles', 'read'), 'orgs/get-custom-repo-role': R('organization_custom_roles', 'read'),
  'orgs/create-custom-repo-role': R('organization_custom_roles', 'write'), 'orgs/update-custom-repo-role': R('organization_custom_roles', 'write'),
  'orgs/delete-custom-repo-role': R('organization_custom_roles', 'write'),
  'reactions/list-for-issue': R('issues', 'read'), 'reactions/create-for-issue': R('issues', 'write'), 'reactions/delete-for-issue': R('issues', 'write'),
  'reactions/list-for-issue-comment': R('issues', 'read'), 'reactions/create-for-issue-comment': R('issues', 'write'),
  'reactions/delete-for-issue-comment': R('issues', 'write'), 'reactions/list-for-pull-request-review-comment': R('pull_requests', 'read'),
  'reactions/create-for-pull-request-review-comment': R('pull_requests', 'write'), 'reactions/delete-for-pull-request-comment': R('pull_requests', 'write'),
  // Classic projects (gone from the current description): a repository's boards need
  // repository_projects, an organization's organization_projects; a board by id either.
  ...classicProjects(),
  // Billing summaries name their operation at run time; an account's own figures, not for apps.
  ...Object.fromEntries(['actions', 'packages', 'shared-storage'].flatMap((k) => {
    const kind = k === 'shared-storage' ? 'shared-storage' : `github-${k}`;
    return [[`billing/get-${kind}-billing-org`, 'none'], [`billing/get-${kind}-billing-user`, 'none']];
  })),
  // The PubSubHubbub hub makes repository hooks.
  'wharf/pubsubhubbub': R('repository_hooks', 'write'),
  'teams/list-projects-in-org': R('members', 'read'), 'teams/check-permissions-for-project-in-org': R('members', 'read'),
  'teams/add-or-update-project-permissions-in-org': R('members', 'write'), 'teams/remove-project-in-org': R('members', 'write'),
  // Team discussions (gone from the current description): team_discussions, as upstream
  // listed them; reads need read, anything else write.
  ...Object.fromEntries(['create-discussion-comment', 'create-discussion', 'delete-discussion-comment', 'delete-discussion',
    'get-discussion-comment', 'get-discussion', 'list-discussion-comments', 'list-discussions', 'update-discussion-comment',
    'update-discussion'].map((op) => [`teams/${op}-in-org`, R('team_discussions', /^(get|list)-/.test(op) ? 'read' : 'write')])),
};
function classicProjects() {
  const repo = { 'projects/list-for-repo': 'read', 'projects/create-for-repo': 'write' };
  const org = { 'projects/list-for-org': 'read', 'projects/create-for-org': 'write' };
  const byId = {
    'projects/get': 'read', 'projects/update': 'write', 'projects/delete': 'write', 'projects/list-collaborators': 'read',
    'projects/add-collaborator': 'write', 'projects/remove-collaborator': 'write', 'projects/get-permission-for-user': 'read',
    'projects/list-columns': 'read', 'projects/create-column': 'write', 'projects/get-column': 'read', 'projects/update-column': 'write',
    'projects/delete-column': 'write', 'projects/move-column': 'write', 'projects/list-cards': 'read', 'projects/create-card': 'write',
    'projects/get-card': 'read', 'projects/update-card': 'write', 'projects/delete-card': 'write', 'projects/move-card': 'write',
  };
  return {
    ...Object.fromEntries(Object.entries(repo).map(([id, l]) => [id, R('repository_projects', l)])),
    ...Object.fromEntries(Object.entries(org).map(([id, l]) => [id, R('organization_projects', l)])),
    ...Object.fromEntries(Object.entries(byId).map(([id, l]) => [id, [R('repository_projects', l), R('organization_projects', l)]])),
    // User boards are the user's own: not for installation tokens.
    'projects/list-for-user': 'none', 'projects/create-for-authenticated-user': 'none',
  };
}
// Everything else not found upstream (sign-in and settings pages, site-admin and
// user-only operations, team discussions' reactions, billing summaries): not for installation tokens.
const NOT_FOR_APPS = /^(wharf|enterprise-admin|billing)\/|^orgs\/(set|remove)-public-membership|^teams\/.*discussion|^reactions\/.*team-discussion/;

const out = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op.operationId) continue;
    const x = op['x-github'] ?? {};
    // Runner routes name their operation at run time (one handler for orgs and repositories).
    const runners = x.category === 'actions' && (x.subcategory === 'self-hosted-runners' || x.subcategory === 'self-hosted-runner-groups');
    if (!ids.has(op.operationId) && !runners) continue;
    let need = 'none';
    const rule = x.subcategory === 'self-hosted-runners' ? [runnerPermission(path), runnerPermission(path)] : RULES[`${x.category}/${x.subcategory}`] ?? RULES[x.category];
    if (x.enabledForGitHubApps && rule) {
      const perm = rule[method === 'get' ? 0 : 1];
      need = perm === null ? {} : { [perm]: method === 'get' ? 'read' : 'write' };
    }
    out.push([op.operationId, need]);
  }
}
const seen = new Set(out.map(([id]) => id));
for (const [id, need] of Object.entries(OVERRIDES)) if (!seen.has(id)) { out.push([id, need]); seen.add(id); }
const extra = execSync(`grep -rhoE "'(wharf|enterprise-admin|orgs|teams|reactions|billing)/[a-z0-9-]+'" src/modules`).toString().trim().split('\n').map((l) => l.slice(1, -1));
for (const id of new Set([...ids, ...extra])) if (!seen.has(id) && NOT_FOR_APPS.test(id)) { out.push([id, 'none']); seen.add(id); }
out.sort(([a], [b]) => a.localeCompare(b));
console.log(`// The permission an installation access token needs on each route, by upstream operation
// id: drafted by scripts/draft-app-permissions.mjs from upstream's description of each
// operation, then reviewed. 'none': apps cannot use the route with an installation token;
// {}: any installation may (public data). A route's own \`appPermission\` config wins.
import type { AppPermissionNeed } from './types.ts';

export const APP_PERMISSIONS: Readonly<Record<string, AppPermissionNeed>> = {`);
const set = (need) => `{${Object.entries(need).map(([k, v]) => ` ${k}: '${v}' `).join(',')}}`;
const show = (need) => (need === 'none' ? "'none'" : Array.isArray(need) ? `[${need.map(set).join(', ')}]` : set(need));
for (const [id, need] of out) console.log(`  '${id}': ${show(need)},`);
console.log('};');
