// The profile pages of the web interface beyond the repositories: an organization's
// people (public members to outsiders, all of them to members, as the API's members
// lists decide) and teams (to members only, each team where the API shows it, and one
// team at the html_url the API hands out), and a user's stars (`?tab=stars`), only the
// repositories the viewer may see. Each checked against the API with the same viewer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { addCollaborator, createRepo } from './factories/issues.ts';
import { BROWSER, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

/** The logins listed in the element of this id. */
function loginsIn(html: string, id: string): string[] {
  const list = new RegExp(`<ul class="list box" id="${id}">[\\s\\S]*?</ul>`).exec(html)?.[0] ?? '';
  return [...list.matchAll(/data-login="([^"]+)"/g)].map((m) => m[1]!).sort();
}

function teamsIn(html: string, id: string): string[] {
  const list = new RegExp(`<ul class="list box" id="${id}">[\\s\\S]*?</ul>`).exec(html)?.[0] ?? '';
  return [...list.matchAll(/data-team="([^"]+)"/g)].map((m) => m[1]!).sort();
}

describe('web profile pages', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let shown: CreatedUser;
  let hidden: CreatedUser;
  let outsider: CreatedUser;
  let crew: CreatedTeam;
  let cell: CreatedTeam;
  let sub: CreatedTeam;
  const web = new Map<string, WebClient>();
  let anon: WebClient;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const as = (u: CreatedUser) => web.get(u.login)!;

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t);
    shown = await addMember(t, org);
    hidden = await addMember(t, org);
    outsider = await createUser(t);
    // One member made public by themselves; the owner and the other stay concealed.
    await t.octokit(shown.token).rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: shown.login });
    crew = await createTeam(t, org.owner.token, org.login, { name: 'Deck crew', privacy: 'closed' });
    cell = await createTeam(t, org.owner.token, org.login, { name: 'Secret cell', privacy: 'secret' });
    sub = await createTeam(t, org.owner.token, org.login, { name: 'Riggers', privacy: 'closed', parent_team_id: crew.id });
    const owner = t.octokit(org.owner.token);
    await owner.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: crew.slug, username: shown.login, role: 'maintainer' });
    await owner.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: sub.slug, username: hidden.login });

    for (const u of [org.owner, shown, hidden, outsider]) {
      await setPassword(t, u.login, PASSWORD);
      const c = new WebClient(t);
      assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
      web.set(u.login, c);
    }
    anon = new WebClient(t);
  });
  after(async () => { await t.close(); });

  test('the organization page: public members to outsiders, all to members; teams to members only', async () => {
    const publicApi = (await t.octokit(outsider.token).rest.orgs.listPublicMembers({ org: org.login })).data.map((m) => m.login).sort();
    assert.deepEqual(publicApi, [shown.login]);
    for (const c of [anon, as(outsider)]) {
      const res = await page(c, `/${org.login}`);
      assert.equal(res.status, 200);
      assert.deepEqual(loginsIn(res.body, 'org-members'), publicApi);
      assert.match(res.body, /People \(1\)/);
      assert.doesNotMatch(res.body, /id="org-teams"|id="tab-teams"/, 'no teams for outsiders');
      assert.match(res.body, new RegExp(`href="/orgs/${org.login}/people" id="tab-people"`));
    }
    const allApi = (await t.octokit(hidden.token).rest.orgs.listMembers({ org: org.login })).data.map((m) => m.login).sort();
    assert.deepEqual(allApi, [org.owner.login, shown.login, hidden.login].sort());
    const member = await page(as(hidden), `/${org.login}`);
    assert.deepEqual(loginsIn(member.body, 'org-members'), allApi);
    assert.match(member.body, /People \(3\)/);
    const visible = (await t.octokit(hidden.token).rest.teams.list({ org: org.login })).data.map((x) => x.slug).sort();
    assert.deepEqual(visible, [crew.slug, sub.slug].sort(), 'a member sees the visible teams, not the secret one');
    assert.deepEqual(teamsIn(member.body, 'org-team-list'), visible);
    assert.match(member.body, new RegExp(`href="/orgs/${org.login}/teams/${sub.slug}" class="title">Riggers</a>`));
    assert.match(member.body, new RegExp(`Part of <a href="/orgs/${org.login}/teams/${crew.slug}">Deck crew</a>`));

    const owner = await page(as(org.owner), `/${org.login}`);
    assert.deepEqual(teamsIn(owner.body, 'org-team-list'), [crew.slug, cell.slug, sub.slug].sort(), 'the owner sees the secret team too');
    assert.match(owner.body, /class="title">Secret cell<\/a><span class="badge">Secret</);
  });

  test('the people page and the teams page', async () => {
    const out = await page(anon, `/orgs/${org.login}/people`);
    assert.equal(out.status, 200);
    assert.deepEqual(loginsIn(out.body, 'people'), [shown.login]);
    const member = await page(as(shown), `/orgs/${org.login}/people`);
    assert.deepEqual(loginsIn(member.body, 'people'), [org.owner.login, shown.login, hidden.login].sort());
    assert.match(member.body, /id="tab-people" aria-current="page"/);
    assert.match(member.body, new RegExp(`href="/orgs/${org.login}/teams" id="tab-teams"`));

    for (const c of [anon, as(outsider)]) assert.equal((await page(c, `/orgs/${org.login}/teams`)).status, 404);
    const teams = await page(as(shown), `/orgs/${org.login}/teams`);
    assert.equal(teams.status, 200);
    assert.deepEqual(teamsIn(teams.body, 'teams'), [crew.slug, sub.slug].sort());
    assert.equal((await page(anon, '/orgs/no-such-org/people')).status, 404);
  });

  test('a team at its html_url: to those the API shows it; API clients keep the JSON', async () => {
    const { data } = await t.octokit(shown.token).rest.teams.getByName({ org: org.login, team_slug: crew.slug });
    const at = new URL(data.html_url).pathname;
    assert.equal(at, `/orgs/${org.login}/teams/${crew.slug}`);
    const res = await page(as(shown), at);
    assert.equal(res.status, 200);
    assert.match(res.body, /<h1 id="team-name">Deck crew<span class="badge" id="team-privacy">Visible</);
    const apiMembers = (await t.octokit(shown.token).rest.teams.listMembersInOrg({ org: org.login, team_slug: crew.slug })).data.map((m) => m.login).sort();
    assert.deepEqual(loginsIn(res.body, 'team-members'), apiMembers);
    assert.deepEqual(apiMembers, [org.owner.login, shown.login, hidden.login].sort(), 'its creator, its maintainer and the child team\'s member');
    assert.match(res.body, new RegExp(`data-login="${shown.login}"><div><a href="/${shown.login}" class="title">${shown.login}</a><span class="badge">Maintainer</span>`));
    assert.match(res.body, new RegExp(`data-login="${hidden.login}">[\\s\\S]*? through a child team`));

    const child = await page(as(hidden), `/orgs/${org.login}/teams/${sub.slug}`);
    assert.equal(child.status, 200);
    assert.match(child.body, new RegExp(`href="/orgs/${org.login}/teams/${crew.slug}" id="parent-team">Deck crew<`));

    for (const c of [anon, as(outsider)]) assert.equal((await page(c, at)).status, 404, 'outsiders');
    assert.equal((await page(as(shown), `/orgs/${org.login}/teams/${cell.slug}`)).status, 404, 'a secret team to a member outside it');
    assert.equal((await page(as(org.owner), `/orgs/${org.login}/teams/${cell.slug}`)).status, 200, 'to the owner');

    const json = await t.request(at, { token: shown.token });
    assert.equal(json.status, 200);
    assert.match(json.headers.get('content-type') ?? '', /json/);
    assert.equal(((await json.json()) as { slug: string }).slug, crew.slug);
  });

  test('stars: the repositories a user starred that the viewer may see', async () => {
    const fan = await createUser(t);
    const keeper = await createUser(t);
    await setPassword(t, fan.login, PASSWORD);
    await setPassword(t, keeper.login, PASSWORD);
    const open = await createRepo(t, keeper, { name: 'open-pier', autoInit: false });
    const closed = await createRepo(t, keeper, { name: 'closed-pier', private: true, autoInit: false });
    await addCollaborator(t, keeper.token, closed, fan);
    await t.octokit(fan.token).rest.activity.starRepoForAuthenticatedUser({ owner: keeper.login, repo: open.repo });
    await t.octokit(fan.token).rest.activity.starRepoForAuthenticatedUser({ owner: keeper.login, repo: closed.repo });
    const keeperWeb = new WebClient(t);
    await keeperWeb.signIn(keeper.login, PASSWORD);

    const starred = (html: string) => {
      const list = /<ul class="list box" id="starred-repos">[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '';
      return [...list.matchAll(/class="title">([^<]+)</g)].map((m) => m[1]!).sort();
    };
    const profile = await page(anon, `/${fan.login}`);
    assert.match(profile.body, new RegExp(`href="/${fan.login}\\?tab=stars" id="tab-stars"`));
    const out = await page(anon, `/${fan.login}?tab=stars`);
    assert.equal(out.status, 200);
    assert.match(out.body, /id="tab-stars" aria-current="page"/);
    const apiOut = (await t.octokit(outsider.token).rest.activity.listReposStarredByUser({ username: fan.login })).data.map((r) => ('full_name' in r ? r.full_name : r.repo.full_name)).sort();
    assert.deepEqual(starred(out.body), apiOut);
    assert.deepEqual(apiOut, [`${keeper.login}/open-pier`]);
    assert.match(out.body, /Starred repositories \(1\)/);

    const own = await page(keeperWeb, `/${fan.login}?tab=stars`);
    assert.deepEqual(starred(own.body), [`${keeper.login}/closed-pier`, `${keeper.login}/open-pier`], 'the private one to who may see it');
    assert.equal((await page(anon, '/no-such-user-here?tab=stars')).status, 404);
  });
});
