// What each route of the app requires, as a table of rules: the first rule whose method
// and URL pattern match a route decides it. A route no rule matches is a MISS of the
// matrix (default deny: a route added without an authorization rule fails the suite).
//
// Repository routes name the role they need on the repository (upstream's roles: read
// = pull, triage, write = push, maintain, admin). From the role each actor holds there,
// the expectation follows (authz-expect.ts): the role is enough → allowed; the actor
// cannot even read the repository → 404 (a private repository is not revealed); reads
// but lacks the role → refused (403, or 404 where upstream hides the feature too).
// Other routes name a class: public, any signed-in user, org member, org owner, site
// admin, app credentials, or exempt with the reason they are outside this matrix.
import type { Role } from './authz-fixture.ts';

export type Need =
  | { on: 'repo'; role: Role }
  | { on: 'public' }
  | { on: 'signed-in' }
  | { on: 'org-member' }
  | { on: 'org-owner' }
  /** Organization owners, and admins of one of its repositories (custom repository roles). */
  | { on: 'org-owner-or-repo-admin' }
  /** Only the user the path names, who is none of the actors: everyone here is refused. */
  | { on: 'named-user' }
  | { on: 'site-admin' }
  /** An app's JSON web token or installation token: a user's token is refused (401, or 403 where it is a credential but not this one). */
  | { on: 'app' }
  /** A browser page of a repository: signed in by session cookie only, so every token actor is anonymous there. */
  | { on: 'web-page' }
  | { on: 'exempt'; why: string };

export interface RuleOptions {
  /** Allowed actors may get 404: it is the answer "no" (not starred, not a member, not merged). */
  absentIs404?: boolean;
  /** Signing in is required even where the resource is public: anonymous → 401; a token without the route's own scope is not judged. */
  signedIn?: boolean;
  /** Further statuses upstream refuses with here (410 of classic projects). */
  refusals?: number[];
  /** Statuses an allowed actor may get for reasons of state, not of rights (403 of a feature not enabled). */
  allowedAlso?: number[];
  /**
   * Upstream answers a refused actor with success and ignores the change (assignees set
   * by one without push access): a 2xx here is no leak; the fixture check proves nothing changed.
   */
  silentlyIgnored?: boolean;
  /** The route is about an organization's repositories (a team's): the user's repositories are not asked. */
  orgReposOnly?: boolean;
}

export interface Rule extends RuleOptions {
  methods: string[] | '*';
  /** Matched against the route's URL as Fastify has it (`/repos/:owner/:repo/...`). */
  url: RegExp;
  need: Need;
}

const repo = (role: Role): Need => ({ on: 'repo', role });
const R = (methods: string[] | '*', url: RegExp, need: Need, options: RuleOptions = {}): Rule => ({ methods, url, need, ...options });
const GET = ['GET'];
const WRITE = ['POST', 'PUT', 'PATCH', 'DELETE'];
const P = '^/repos/:owner/:repo';

export const RULES: readonly Rule[] = [
  // ------------------------------------------------------------ repositories: admin
  R('*', new RegExp(`${P}/hooks`), repo('admin')),
  R('*', new RegExp(`${P}/keys`), repo('admin')),
  R('*', new RegExp(`${P}/invitations`), repo('admin')),
  R(WRITE, new RegExp(`${P}/collaborators/:username$`), repo('admin')),
  R('*', new RegExp(`${P}/branches/:branch/protection`), repo('admin')),
  // Rulesets: readers see them (and the rules on a branch); managing them is the admin's.
  R(WRITE, new RegExp(`${P}/rulesets`), repo('admin')),
  R('*', new RegExp(`${P}/actions/runners`), repo('admin')),
  R(WRITE, new RegExp(`${P}/interaction-limits$`), repo('admin')),
  // Readers see whether interactions are limited (upstream's metadata read); changing it is the admin's.
  R(GET, new RegExp(`${P}/interaction-limits$`), repo('pull')),
  R(WRITE, new RegExp(`${P}$`), repo('admin')),
  R(WRITE, new RegExp(`${P}/topics$`), repo('admin')),
  R('*', new RegExp(`${P}/import`), repo('admin')),
  R(WRITE, new RegExp(`${P}/check-suites/preferences$`), repo('admin')),
  R(WRITE, new RegExp(`${P}/projects$`), repo('push'), { refusals: [410] }),
  // ------------------------------------------------------------ repositories: push
  R(GET, new RegExp(`${P}/collaborators$`), repo('push')),
  R(GET, new RegExp(`${P}/collaborators/:username/permission$`), repo('push')),
  // Reacting to a release is a reader's, as to an issue (before the releases' writes, which are the pusher's).
  R(WRITE, new RegExp(`${P}/releases/:release_id/reactions`), repo('pull')),
  R(WRITE, new RegExp(`${P}/(git|contents|statuses|deployments|releases|check-runs|check-suites)(/|$)`), repo('push')),
  R(WRITE, new RegExp(`${P}/(labels|milestones)(/|$)`), repo('push')),
  R(['PUT'], new RegExp(`${P}/pulls/:pull_number/(merge|update-branch)$`), repo('push')),
  R(['PUT'], new RegExp(`${P}/pulls/:pull_number/reviews/:review_id/dismissals$`), repo('push')),
  R(WRITE, new RegExp(`${P}/(issues|pulls)/comments/:comment_id$`), repo('push')),
  // ------------------------------------------------------------ repositories: triage
  R(WRITE, new RegExp(`${P}/issues/:issue_number/assignees$`), repo('triage'), { silentlyIgnored: true }),
  R(WRITE, new RegExp(`${P}/issues/:issue_number/(labels|lock)`), repo('triage')),
  R(['PATCH'], new RegExp(`${P}/(issues/:issue_number|pulls/:pull_number)$`), repo('triage')),
  R(WRITE, new RegExp(`${P}/pulls/:pull_number/requested_reviewers$`), repo('triage')),
  // ------------------------------------------------------------ repositories: what any reader may do
  R(WRITE, new RegExp(`${P}/(forks)$`), repo('pull')),
  R('*', new RegExp(`${P}/(subscription|notifications)$`), repo('pull'), { signedIn: true, absentIs404: true }),
  R(GET, new RegExp(`${P}/collaborators/:username$`), repo('push'), { absentIs404: true }),
  R(GET, new RegExp(`${P}/(assignees/:assignee|pulls/:pull_number/merge|issues/:issue_number/assignees/:assignee)$`), repo('pull'), { absentIs404: true }),
  R(GET, new RegExp(`${P}/teams$`), repo('pull'), { signedIn: true }),
  R(['POST'], new RegExp(`${P}/(issues|pulls)$`), repo('pull')),
  R(['POST'], new RegExp(`${P}/issues/:issue_number/comments$`), repo('pull')),
  R(WRITE, new RegExp(`${P}/.*reactions`), repo('pull')),
  R(['POST'], new RegExp(`${P}/pulls/:pull_number/(comments|reviews)`), repo('pull')),
  R(WRITE, new RegExp(`${P}/pulls/:pull_number/reviews/:review_id`), repo('pull')),
  R(GET, new RegExp(`${P}/installation$`), { on: 'app' }, { refusals: [401] }),
  R(GET, new RegExp(`${P}(/|$)`), repo('pull')),
  R(['POST'], /^\/repos\/:template_owner\/:template_repo\/generate$/, repo('pull')),
  R('*', /^\/user\/starred\/:owner\/:repo$/, repo('pull'), { signedIn: true, absentIs404: true }),
  R(GET, /^\/networks\/:owner\/:repo\/events$/, repo('pull')),
  R(GET, /^\/codeload\/:owner\/:repo\//, repo('pull')),
  R(GET, /^\/:owner\/:repo\/(raw|releases\/download)\//, repo('pull')),
  R(GET, /^\/(orgs\/:org\/teams\/:team_slug|organizations\/:org_id\/team\/:team_id)\/repos\/:owner\/:repo$/, { on: 'org-member' }, { orgReposOnly: true, absentIs404: true }),
  R('*', /^\/(orgs\/:org\/teams\/:team_slug|organizations\/:org_id\/team\/:team_id)\/repos\/:owner\/:repo$/, { on: 'org-owner' }, { orgReposOnly: true }),
  // ------------------------------------------------------------ outside this matrix, with the reason
  R('*', /^\/:owner\/:repo\/(info\/refs|git-upload-pack|git-receive-pack)$/, { on: 'exempt', why: 'git smart HTTP: its own 401 challenge; test/git-http.test.ts' }),
  R('*', /^\/:owner\/:repo\/info\/lfs\//, { on: 'exempt', why: 'LFS batch API: its own auth; test/lfs.test.ts' }),
  R('*', /^\/(login|logout|settings|organizations\/:org\/settings|apps\/:app_slug\/installations\/new|orgs\/:org\/settings\/sso|orgs\/:org\/sso$|orgs\/:org\/saml)/, { on: 'exempt', why: 'browser pages: session cookie and CSRF, not API tokens' }),
  R(['POST'], /^\/orgs\/:org\/people\/(invite|role|remove)$/, { on: 'exempt', why: "browser forms of an organization's people page: session cookie and CSRF, a 404 to all but its owners; test/web-org-settings.test.ts" }),
  R('*', /^\/new$/, { on: 'exempt', why: 'the new repository browser form: session cookie and CSRF; test/web-new-repository.test.ts' }),
  R('*', /^\/stafftools(\/|$)/, { on: 'exempt', why: 'site-admin browser pages: session cookie and CSRF, a 404 to all but site admins; test/web-site-admin.test.ts' }),
  R('*', /^\/orgs\/:org\/sso\/authorize$/, { on: 'exempt', why: 'SSO browser flow' }),
  R(GET, /^\/:owner\/:repo(\/.*)?$/, { on: 'web-page' }),
  R(GET, /^\/(|:login)$/, { on: 'exempt', why: 'browser pages of no repository: session cookie' }),
  R(['POST'], /^\/:owner\/:repo\//, { on: 'exempt', why: 'browser forms: session cookie and CSRF' }),
  R('*', /^\/scim\/v2\//, { on: 'exempt', why: 'SCIM: needs an SSO-enabled organization; test/scim.test.ts' }),
  R('*', /^\/actions\/runner\//, { on: 'exempt', why: 'runner protocol: runner credentials' }),
  R('*', /^\/(healthz|readyz|metrics)$/, { on: 'exempt', why: 'operations probes' }),
  R('*', /^\/hub$/, { on: 'exempt', why: 'PubSubHubbub: form-encoded, checks repository access itself; test/hub.test.ts' }),
  R('*', /^\/graphql(\/explorer.*)?$/, { on: 'exempt', why: 'GraphQL: covered by the node(id:) part of this suite' }),
  R('*', /^\/web\/wharf\.css$/, { on: 'public' }),
  // ------------------------------------------------------------ apps
  R('*', /^\/app(\/|$)/, { on: 'app' }, { refusals: [401] }),
  R('*', /^\/app-manifests\//, { on: 'exempt', why: 'manifest code from the app creation flow' }),
  R('*', /^\/applications\/:client_id\//, { on: 'exempt', why: 'OAuth client id and secret (basic auth of the app)' }),
  R('*', /^\/installation\//, { on: 'app' }, { refusals: [401] }),
  R(GET, /^\/apps\/:app_slug$/, { on: 'public' }),
  R(GET, /^\/(orgs\/:org|users\/:username)\/installation$/, { on: 'app' }, { refusals: [401] }),
  R('*', /^\/user\/installations/, { on: 'signed-in' }, { absentIs404: true }),
  // ------------------------------------------------------------ site administration
  R('*', /^\/admin\//, { on: 'site-admin' }),
  R(WRITE, /^\/users\/:username\/(site_admin|suspended)$/, { on: 'site-admin' }),
  // ------------------------------------------------------------ organizations
  R(GET, /^\/orgs\/:org$/, { on: 'public' }),
  // A browser page (session cookie; tokens are anonymous there): the people the viewer may see.
  R(GET, /^\/orgs\/:org\/people$/, { on: 'public' }),
  R(GET, /^\/orgs\/:org\/(members|public_members)(\/:username)?$/, { on: 'public' }, { absentIs404: true }),
  R(GET, /^\/orgs\/:org\/repos$/, { on: 'public' }),
  R(GET, /^\/orgs\/:org\/events$/, { on: 'public' }),
  R(GET, /^\/orgs\/:org\/projects$/, { on: 'public' }),
  R(['POST'], /^\/orgs\/:org\/(projects|teams)$/, { on: 'org-member' }, { refusals: [410] }),
  R(GET, /^\/orgs\/:org\/issues$/, { on: 'signed-in' }),
  R(GET, /^\/orgs\/:org\/custom-repository-roles$/, { on: 'org-owner-or-repo-admin' }),
  R(GET, /^\/orgs\/:org\/settings\/billing\/advanced-security$/, { on: 'org-owner' }, { allowedAlso: [403] }),
  R(['PUT', 'DELETE'], /^\/orgs\/:org\/public_members\/:username$/, { on: 'named-user' }),
  R(['POST'], /^\/orgs\/:org\/repos$/, { on: 'org-member' }),
  R(GET, /^\/orgs\/:org\/(teams|issues)/, { on: 'org-member' }),
  R(['POST'], /^\/orgs\/:org\/teams\/:team_slug\/discussions/, { on: 'org-member' }),
  R('*', /^\/organizations\/:org_id\/team\/:team_id/, { on: 'org-member' }),
  R(GET, /^\/orgs\/:org\/memberships\/:username$/, { on: 'org-member' }),
  R('*', /^\/orgs\/:org\/teams\/:team_slug\/projects/, { on: 'org-owner' }, { refusals: [410] }),
  // Organization rulesets: owners only, reads too (404 to members and outsiders, as upstream).
  R('*', /^\/orgs\/:org\/rulesets/, { on: 'org-owner' }),
  R('*', /^\/orgs\/:org(\/|$)/, { on: 'org-owner' }),
  R(GET, /^\/users\/:username\/settings\/billing\//, { on: 'named-user' }),
  // ------------------------------------------------------------ the signed-in user's own
  R(GET, /^\/user\/memberships\/orgs\/:org$/, { on: 'signed-in' }, { absentIs404: true }),
  R('*', /^\/user(\/|$)/, { on: 'signed-in' }),
  R('*', /^\/notifications(\/|$)/, { on: 'signed-in' }),
  R(GET, /^\/issues$/, { on: 'signed-in' }),
  // Classic projects of the organization (the fixture's is private to its members); managing collaborators is the owner's.
  R('*', /^\/projects\/:project_id\/collaborators/, { on: 'org-owner' }, { refusals: [410] }),
  R('*', /^\/projects\//, { on: 'org-member' }, { refusals: [410] }),
  // ------------------------------------------------------------ public
  R(GET, /^\/users(\/|$)/, { on: 'public' }),
  R(GET, /^\/(avatars|meta|zen|mascot|octocat|rate_limit|gitignore|licenses|emojis|events|search|migration-archives)(\/|$)/, { on: 'public' }),
  R(GET, /^\/:user\.keys$/, { on: 'public' }),
  R(['POST'], /^\/markdown(\/raw)?$/, { on: 'public' }),
  R(GET, /^\/$/, { on: 'public' }),
];

export function ruleFor(method: string, url: string): Rule | null {
  return RULES.find((r) => (r.methods === '*' || r.methods.includes(method)) && r.url.test(url)) ?? null;
}
