// The team_discussions app permission: an installation token of an app installed on an
// organization reaches its teams' discussions (a bot is never a team member; upstream
// lets the permission in), reading with read and writing with write; without the
// permission, or with read only on a write, 403 "Resource not accessible by integration".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const NOT_ACCESSIBLE = 'Resource not accessible by integration';

interface Discussion { number: number; title: string; private: boolean; author: { login: string; type: string } | null }

describe('apps: team_discussions permission', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let team: CreatedTeam;
  let web: WebClient;
  let ownerPost: Discussion;

  const discussions = (rest = '') => `/orgs/${org.login}/teams/${team.slug}/discussions${rest}`;
  // Team discussions carry reactions: upstream answers them only with the reactions preview.
  const call = (path: string, token: string, init: { method?: string; json?: unknown } = {}) =>
    t.request(path, { ...init, token, headers: { accept: 'application/vnd.github.squirrel-girl-preview+json' } });

  async function appWith(name: string, permissions: Record<string, string>, target: string | null): Promise<{ app: ConvertedApp; token: string }> {
    const app = await registerAppByManifest(t, web, manifestOf(name, { public: true, default_permissions: permissions, default_events: [] }));
    const page = await web.get(`/apps/${app.slug}/installations/new${target ? `?target=${target}` : ''}`);
    assert.equal(page.status, 200, page.body.slice(0, 500));
    const res = await web.post(`/apps/${app.slug}/installations/new`, { authenticity_token: csrfIn(page.body), repository_selection: 'all', ...(target ? { target } : {}) });
    assert.ok(res.status === 200 || res.status === 201, res.body.slice(0, 500));
    const installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
    const minted = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${appJwt(app.pem, app.id, Date.now())}` },
    });
    assert.equal(minted.status, 201, await minted.clone().text());
    return { app, token: ((await minted.json()) as { token: string }).token };
  }

  async function message(res: Response, status: number): Promise<string> {
    assert.equal(res.status, status, await res.clone().text());
    return ((await res.json()) as { message: string }).message;
  }

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t, ['admin:org', 'write:discussion']);
    await setPassword(t, org.owner.login, PASSWORD);
    web = new WebClient(t);
    await web.signIn(org.owner.login, PASSWORD);
    team = await createTeam(t, org.owner.token, org.login, { privacy: 'secret' });
    const posted = await call(discussions(), org.owner.token, { method: 'POST', json: { title: 'Owners only', body: 'hush', private: true } });
    assert.equal(posted.status, 201, await posted.clone().text());
    ownerPost = (await posted.json()) as Discussion;
  });
  after(async () => { await t.close(); });

  test('read: lists and reads the discussions of a secret team it is not in, private ones too; writing is 403', async () => {
    const { token } = await appWith('Minute Taker', { team_discussions: 'read' }, org.login);
    const list = await call(discussions(), token);
    assert.equal(list.status, 200, await list.clone().text());
    assert.deepEqual(((await list.json()) as Discussion[]).map((d) => d.title), ['Owners only']);
    assert.equal((await call(discussions(`/${ownerPost.number}`), token)).status, 200);
    assert.equal((await call(discussions(`/${ownerPost.number}/comments`), token)).status, 200);
    assert.equal(await message(await call(discussions(), token, { method: 'POST', json: { title: 'no', body: 'no' } }), 403), NOT_ACCESSIBLE);
  });

  test('write: posts as the bot; another author\'s post stays the author\'s to edit', async () => {
    const { app, token } = await appWith('Minute Writer', { team_discussions: 'write' }, org.login);
    const res = await call(discussions(), token, { method: 'POST', json: { title: 'Agenda', body: '1. ship' } });
    assert.equal(res.status, 201, await res.clone().text());
    const mine = (await res.json()) as Discussion;
    assert.deepEqual([mine.author?.login, mine.author?.type], [`${app.slug}[bot]`, 'Bot']);
    assert.equal((await call(discussions(`/${mine.number}`), token, { method: 'PATCH', json: { title: 'Agenda v2' } })).status, 200);
    assert.equal((await call(discussions(`/${ownerPost.number}`), token, { method: 'PATCH', json: { title: 'mine now' } })).status, 403);
    assert.equal((await call(discussions(`/${mine.number}/comments`), token, { method: 'POST', json: { body: 'noted' } })).status, 201);
  });

  test('without team_discussions: 403 "Resource not accessible by integration"', async () => {
    const { token } = await appWith('Roll Caller', { members: 'read' }, org.login);
    assert.equal(await message(await call(discussions(), token), 403), NOT_ACCESSIBLE);
    assert.equal(await message(await call(discussions(`/${ownerPost.number}`), token), 403), NOT_ACCESSIBLE);
  });

  test('GraphQL: Team.discussions needs team_discussions as REST does; without it the query is refused', async () => {
    const query = `{ organization(login: "${org.login}") { team(slug: "${team.slug}") { discussions(first: 5) { nodes { title } } } } }`;
    const errorsOf = async (token: string) =>
      ((await (await t.request('/graphql', { method: 'POST', token, json: { query } })).json()) as { errors?: { message: string }[] }).errors ?? [];
    const { token } = await appWith('Graph Taker', { team_discussions: 'read', members: 'read' }, org.login);
    // Whether the bot then finds the team is the orgs module's rule on members; here only the permission gate.
    assert.ok(!(await errorsOf(token)).some((e) => e.message === NOT_ACCESSIBLE));
    const { token: blind } = await appWith('Graph Blind', { members: 'read' }, org.login);
    assert.ok((await errorsOf(blind)).some((e) => e.message === NOT_ACCESSIBLE));
  });

  test("an installation on another account does not reach the organization's teams: 404", async () => {
    const { token } = await appWith('Elsewhere Taker', { team_discussions: 'read' }, null);
    assert.equal((await call(discussions(), token)).status, 404);
  });
});
