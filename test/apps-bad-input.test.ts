// Bad input to the apps routes never gets a 5xx, and a rejected write changes nothing:
// each body field of the app's JWT routes, the users' installation routes and the
// installation token routes with values of every wrong type, bad path parameters and
// bad query parameters; the settings forms with garbage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, manifestOf, registerAppByManifest } from './helpers/apps.ts';

test('no 5xx on bad input across the apps routes', { timeout: 300_000 }, async () => {
  const clock = new TestClock(Date.now());
  const t = await startTestServer({ clock });
  const u = await createUser(t);
  await setPassword(t, u.login, 'correct horse battery');
  const web = new WebClient(t);
  await web.signIn(u.login, 'correct horse battery');
  const repo = await createRepo(t, u, { private: true });
  const bot = await registerAppByManifest(t, web, manifestOf('Fuzz Bot'));
  const page = await web.get(`/apps/${bot.slug}/installations/new`);
  const installed = await web.post(`/apps/${bot.slug}/installations/new`, { authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${repo.id}`]: '1' });
  const installationId = /id="installation-id">(\d+)</.exec(installed.body)![1]!;
  const jwt = () => appJwt(bot.pem, bot.id, clock.now().getTime());
  const tokenRes = await t.request(`/app/installations/${installationId}/access_tokens`, { method: 'POST', json: {}, headers: { authorization: `Bearer ${jwt()}` } });
  const installationToken = ((await tokenRes.json()) as { token: string }).token;

  const routes: [string, string, 'jwt' | 'user' | 'installation'][] = [
    ['POST', '/app/installations/{installation_id}/access_tokens', 'jwt'],
    ['PATCH', '/app/hook/config', 'jwt'],
    ['GET', '/app/installations', 'jwt'],
    ['GET', '/app/installations/{installation_id}', 'jwt'],
    ['PUT', '/app/installations/{installation_id}/suspended', 'jwt'],
    ['GET', '/repos/{owner}/{repo}/installation', 'jwt'],
    ['GET', '/users/{username}/installation', 'jwt'],
    ['GET', '/orgs/{org}/installation', 'jwt'],
    ['POST', '/app-manifests/{code}/conversions', 'user'],
    ['GET', '/apps/{app_slug}', 'user'],
    ['GET', '/user/installations', 'user'],
    ['GET', '/user/installations/{installation_id}/repositories', 'user'],
    ['PUT', '/user/installations/{installation_id}/repositories/{repository_id}', 'user'],
    ['DELETE', '/user/installations/{installation_id}/repositories/{repository_id}', 'user'],
    ['GET', '/installation/repositories', 'installation'],
  ];
  const p: Record<string, string> = {
    installation_id: installationId, owner: u.login, repo: repo.repo, username: u.login, org: u.login, code: 'x', app_slug: bot.slug, repository_id: String(repo.id),
  };
  const fields = ['repositories', 'repository_ids', 'permissions', 'url', 'content_type', 'secret', 'insecure_ssl'];
  const values: unknown[] = [null, -1, 1.5, '', [], {}, [null], [{}], true, '\u0000', 99999999999999999999, { name: 1 }, ['\u0000'], [99999999999999999999], { issues: 1 }, { '': 'read' }];
  const badParams = ['abc', '-1', '0', '99999999999999999999', '1.5', '%00', 'a'.repeat(300)];
  const queries = ['?per_page=abc', '?page=-1', '?since=nope', '?since=%00', '?outdated=%00', '?per_page=1000'];
  const fill = (path: string, over: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(over[k] ?? p[k] ?? 'x'));
  const bad: string[] = [];
  let n = 0;
  async function hit(method: string, url: string, who: string, body?: unknown) {
    n++;
    const authorization = who === 'jwt' ? `Bearer ${jwt()}` : `token ${who === 'user' ? u.token : installationToken}`;
    const res = await t.request(url, { method, headers: { authorization }, ...(body !== undefined ? { json: body } : {}) });
    if (res.status >= 500) bad.push(`${res.status} ${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${(await res.text()).slice(0, 200)}`);
    else await res.arrayBuffer();
  }
  for (const [method, path, who] of routes) {
    if (method === 'GET') for (const q of queries) await hit(method, fill(path) + q, who);
    if (method === 'POST' || method === 'PATCH') {
      for (const f of fields) for (const v of values) await hit(method, fill(path), who, { [f]: v });
      await hit(method, fill(path), who, [1, 2]);
    }
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    for (const k of params) for (const b of badParams) await hit(method, fill(path, { [k]: b }), who, method === 'GET' ? undefined : {});
  }
  // The app is as it was: the hook config unchanged, the installation not suspended (PUT was swept with bad ids only… and the good one).
  const config = (await (await t.request('/app/hook/config', { headers: { authorization: `Bearer ${jwt()}` } })).json()) as { url: string };
  assert.equal(config.url, 'https://bot.example/hook');

  // The forms: garbage in every field.
  const csrf = csrfIn((await web.get('/settings/apps/new')).body);
  const formFields = ['manifest', 'state', 'owner', 'name', 'url', 'permissions', 'events', 'webhook_url', 'target', 'repository_selection', 'repo_1'];
  for (const path of ['/settings/apps/new', `/settings/apps/${bot.slug}`, `/apps/${bot.slug}/installations/new`, `/organizations/${u.login}/settings/apps/new`]) {
    for (const f of formFields) {
      for (const v of ['\u0000', '{', '[]', 'x'.repeat(70_000), '%', 'null']) {
        n++;
        const res = await web.post(path, { authenticity_token: csrf, confirm: '1', [f]: v });
        if (res.status >= 500) bad.push(`${res.status} POST ${path} ${f}=${v.slice(0, 20)} → ${res.body.slice(0, 200)}`);
      }
    }
  }
  await t.close();
  assert.ok(n > 500, `only ${n} requests were made`);
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} of ${n} requests answered 5xx`);
});
