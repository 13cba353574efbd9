// Checks beside a commit on the web pages: the commit page shows the combined status and
// the check runs (name, status or conclusion, app, a link to details_url) as the API
// lists them for the commit; the commits list marks each commit with the rollup of its
// statuses and runs (none where nothing reported). A private repository's pages are 404
// to outsiders. Headless Chromium reads one commit page with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { repoWithFeature, revParse } from './factories/pulls.ts';
import { appJwt, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { BROWSER, CHROMIUM, chromiumMissing, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';
const clock = new TestClock(Date.now());

describe('web: checks beside a commit', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let bot: ConvertedApp;
  let token: string;
  let repo: string;
  let vault: string;
  let mainSha: string;
  let firstSha: string;
  let featureSha: string;
  let vaultSha: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
    const made = await repoWithFeature(t, alice);
    repo = made.clone.repo;
    ({ mainSha, featureSha } = made);
    firstSha = await revParse(made.clone, 'main~1');
    const hidden = await repoWithFeature(t, alice, { private: true });
    vault = hidden.clone.repo;
    vaultSha = hidden.mainSha;
    bot = await registerAppByManifest(t, aliceWeb, manifestOf('Lint Bot', { default_permissions: { checks: 'write', contents: 'read' }, default_events: [] }));
    const installationId = await installOn(aliceWeb, bot.slug, [made.id, hidden.id]);
    const issued = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', json: {}, headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, clock.now().getTime())}` },
    });
    assert.equal(issued.status, 201);
    token = ((await issued.json()) as { token: string }).token;

    const kit = t.octokit(token).rest.checks;
    const users = t.octokit(alice.token).rest.repos;
    await users.createCommitStatus({ owner: alice.login, repo, sha: mainSha, state: 'success', context: 'ci/build', target_url: 'https://ci.example/build/7' });
    await kit.create({ owner: alice.login, repo, head_sha: mainSha, name: 'lint', status: 'completed', conclusion: 'failure', details_url: 'https://ci.example/lint/1', output: { title: '3 problems', summary: 'See the log' } });
    await kit.create({ owner: alice.login, repo, head_sha: mainSha, name: 'test', status: 'in_progress' });
    await users.createCommitStatus({ owner: alice.login, repo, sha: firstSha, state: 'success', context: 'ci/build' });
    await kit.create({ owner: alice.login, repo: vault, head_sha: vaultSha, name: 'secret-check', status: 'completed', conclusion: 'success' });
  });
  after(async () => { await t?.close(); });

  test('the commit page shows the combined status and each check run as the API lists them', async () => {
    const { data } = await t.octokit(alice.token).rest.checks.listForRef({ owner: alice.login, repo, ref: mainSha });
    assert.equal(data.total_count, 2);
    const res = await page(new WebClient(t), `/${alice.login}/${repo}/commit/${mainSha}`);
    assert.equal(res.status, 200);
    assert.match(res.body, /id="status-heading">Statuses: <span class="badge ok">success</);
    assert.match(res.body, /id="checks-heading">Checks \(2\)</);
    const rows = [...res.body.matchAll(/<li class="row check-run" data-check="([^"]+)">([\s\S]*?)<\/li>/g)].map((m) => [m[1], m[2]!] as const);
    assert.deepEqual(rows.map(([name]) => name), ['lint', 'test'], 'oldest first');
    for (const [name, html] of rows) {
      const run = data.check_runs.find((r) => r.name === name)!;
      assert.match(html, new RegExp(`class="muted check-app"> — ${run.app!.name}<`));
      assert.match(html, new RegExp(`data-status="${run.status}" data-conclusion="${run.conclusion ?? ''}"`));
      assert.match(html, new RegExp(`<a href="${run.details_url}" rel="nofollow noopener" class="check-details">Details</a>`));
    }
    assert.match(rows[0]![1], />failure<\/span>/);
    assert.match(rows[0]![1], />3 problems</);
    assert.match(rows[1]![1], />in progress<\/span>/);

    const none = await page(new WebClient(t), `/${alice.login}/${repo}/commit/${featureSha}`);
    assert.equal(none.status, 200);
    assert.doesNotMatch(none.body, /id="checks"|id="statuses"/, 'nothing reported, nothing shown');
  });

  test('the commits list marks each commit with its rollup, none where nothing reported', async () => {
    const res = await page(new WebClient(t), `/${alice.login}/${repo}/commits/main`);
    assert.equal(res.status, 200);
    const rowOf = (sha: string) => new RegExp(`<li class="row">((?:(?!</li>).)*?href="/${alice.login}/${repo}/commit/${sha}" class="sha")`, 's').exec(res.body)?.[1] ?? '';
    assert.match(rowOf(mainSha), /data-mark="failure" title="Some checks were not successful"/, 'a failed run fails a successful status');
    assert.match(rowOf(firstSha), /data-mark="success"/);
    const feature = await page(new WebClient(t), `/${alice.login}/${repo}/commits/feature`);
    const featureRow = new RegExp(`<li class="row">((?:(?!</li>).)*?href="/${alice.login}/${repo}/commit/${featureSha}" class="sha")`, 's').exec(feature.body)![1]!;
    assert.doesNotMatch(featureRow, /data-mark/);

    await t.octokit(token).rest.checks.create({ owner: alice.login, repo, head_sha: featureSha, name: 'lint', status: 'queued' });
    const again = await page(new WebClient(t), `/${alice.login}/${repo}/commits/feature`);
    assert.match(new RegExp(`<li class="row">((?:(?!</li>).)*?href="/${alice.login}/${repo}/commit/${featureSha}" class="sha")`, 's').exec(again.body)![1]!, /data-mark="pending"/);
  });

  test('a private repository\'s commit and commits pages are 404 to outsiders; its owner sees the checks', async () => {
    for (const c of [bobWeb, new WebClient(t)]) {
      const res = await page(c, `/${alice.login}/${vault}/commit/${vaultSha}`);
      assert.equal(res.status, 404);
      assert.doesNotMatch(res.body, /secret-check/);
      assert.equal((await page(c, `/${alice.login}/${vault}/commits/main`)).status, 404);
    }
    const own = await page(aliceWeb, `/${alice.login}/${vault}/commit/${vaultSha}`);
    assert.equal(own.status, 200);
    assert.match(own.body, /data-check="secret-check"/);
    assert.match((await page(aliceWeb, `/${alice.login}/${vault}/commits/main`)).body, /data-mark="success"/);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('from the commits list to a commit\'s checks', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/${alice.login}/${repo}/commits/main`);
      await p.click(`a.sha[href$="${mainSha}"]`);
      await p.waitForSelector('#checks');
      assert.deepEqual(await p.locator('.check-name').allTextContents(), ['lint', 'test']);
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the page is accessible');
      await context.close();
    });
  });
});
