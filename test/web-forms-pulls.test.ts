// The new-pull-request form of the web interface: on the compare page
// (/{o}/{r}/compare/{base}...{head}), a "Create pull request" form (title, description,
// draft) that opens the pull request through the pulls service and redirects to its
// html_url. Its refusals (blank title, no commits between, an open pull request for the
// same head and base) come back inline and create nothing; forged posts are refused; a
// private repository's form is a 404 to outsiders. Headless Chromium opens one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { repoWithFeature } from './factories/pulls.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: new pull request', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  const repo = 'slip';
  let base: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const pullsOf = async (name = repo) =>
    (await t.octokit(alice.token).rest.pulls.list({ owner: alice.login, repo: name, state: 'all' })).data;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    const made = await repoWithFeature(t, alice, {}, repo);
    base = `/${alice.login}/${repo}`;
    const kit = t.octokit(alice.token).rest;
    await kit.git.createRef({ owner: alice.login, repo, ref: 'refs/heads/second', sha: made.featureSha });
    await createRepo(t, alice, { name: 'vault', private: true });
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the compare page offers the form to signed-in users, filled in from the one commit', async () => {
    const res = await page(bobWeb, `${base}/compare/main...feature`);
    assert.equal(res.status, 200);
    assert.match(res.body, new RegExp(`<form method="post" action="${base}/compare/main\\.\\.\\.feature" class="box" id="new-pull-form"`));
    assert.match(res.body, /id="pull-title" name="title" required="" value="Feature work"/);
    assert.match(res.body, /<input type="checkbox" id="pull-draft" name="draft" value="1"\/>/);
    const anonymous = await page(new WebClient(t), `${base}/compare/main...feature`);
    assert.equal(anonymous.status, 200);
    assert.doesNotMatch(anonymous.body, /id="new-pull-form"/, 'not for readers who are not signed in');
  });

  test('refusals come back inline (422) with the form as typed, and nothing is opened', async () => {
    const token = csrfIn((await page(bobWeb, `${base}/compare/main...feature`)).body);
    const blank = await bobWeb.post(`${base}/compare/main...feature`, { authenticity_token: token, title: '   ', body: 'Kept description' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /id="new-pull-form"[\s\S]*<div class="flash error" role="alert">title is missing<\/div>/);
    assert.match(blank.body, /id="compare-form"[\s\S]*id="compare-head" name="head" list="compare-refs"[^>]*value="feature"/, 'the compare form above it, as on the comparison');
    assert.match(blank.body, /Kept description<\/textarea>/);

    const nothing = await bobWeb.post(`${base}/compare/feature...main`, { authenticity_token: token, title: 'Backwards' });
    assert.equal(nothing.status, 422);
    assert.match(nothing.body, /role="alert">No commits between feature and main</);
    assert.match(nothing.body, /value="Backwards"/);

    assert.equal((await bobWeb.post(`${base}/compare/main...feature`, { title: 'No token' })).status, 403);
    assert.equal((await bobWeb.post(`${base}/compare/main...feature`, { authenticity_token: '0'.repeat(64), title: 'Forged' })).status, 403);
    const anonymous = await new WebClient(t).post(`${base}/compare/main...feature`, { authenticity_token: token, title: 'Anonymous' });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.location ?? '', /^\/login\?return_to=/);
    assert.deepEqual(await pullsOf(), [], 'nothing was opened');
  });

  test('a pull request opened from the form is the API\'s, at its html_url; a second for the same head and base is refused', async () => {
    const token = csrfIn((await page(bobWeb, `${base}/compare/main...feature`)).body);
    const made = await bobWeb.post(`${base}/compare/main...feature`, { authenticity_token: token, title: 'Feature <work>', body: 'Adds **things**', draft: '1' });
    assert.equal(made.status, 303);
    const [pr] = await pullsOf();
    assert.ok(pr);
    assert.deepEqual([pr.title, pr.body, pr.draft, pr.user?.login, pr.head.ref, pr.base.ref, pr.state], ['Feature <work>', 'Adds **things**', true, bob.login, 'feature', 'main', 'open']);
    assert.equal(made.location, new URL(pr.html_url).pathname, 'to its html_url');
    const shown = await page(bobWeb, made.location!);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /Feature &lt;work&gt;/);
    assert.match(shown.body, /Adds <strong>things<\/strong>/);

    const again = await bobWeb.post(`${base}/compare/main...feature`, { authenticity_token: token, title: 'Once more' });
    assert.equal(again.status, 422);
    assert.ok(again.body.includes(`A pull request already exists for ${alice.login}:feature.`));
    assert.equal((await pullsOf()).length, 1, 'still one');

    // owner:branch sides, as the compare page accepts them; not a draft when the box is left alone.
    const sides = `${alice.login}:main...${alice.login}:second`;
    const second = await bobWeb.post(`${base}/compare/${sides}`, { authenticity_token: token, title: 'Second' });
    assert.equal(second.status, 303);
    const { data: two } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: Number(/\/pull\/(\d+)$/.exec(second.location!)![1]) });
    assert.deepEqual([two.title, two.draft, two.head.ref, two.base.ref], ['Second', false, 'second', 'main']);
  });

  test('a private repository\'s form is a 404 to an outsider, and nothing is opened', async () => {
    const kit = t.octokit(alice.token).rest;
    const { data: main } = await kit.repos.getBranch({ owner: alice.login, repo: 'vault', branch: 'main' });
    await kit.git.createRef({ owner: alice.login, repo: 'vault', ref: 'refs/heads/topic', sha: main.commit.sha });
    await kit.repos.createOrUpdateFileContents({ owner: alice.login, repo: 'vault', path: 'topic.txt', message: 'Topic', content: Buffer.from('topic\n').toString('base64'), branch: 'topic' });
    const at = `/${alice.login}/vault/compare/main...topic`;
    assert.equal((await page(bobWeb, at)).status, 404);
    const token = csrfIn((await page(bobWeb, base)).body);
    const res = await bobWeb.post(at, { authenticity_token: token, title: 'Peeking' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.body, /topic\.txt|Topic/);
    assert.deepEqual(await pullsOf('vault'), []);
    const mine = await aliceWeb.post(at, { authenticity_token: csrfIn((await page(aliceWeb, at)).body), title: 'Topic' });
    assert.equal(mine.status, 303, 'the owner may');
    assert.equal((await pullsOf('vault')).length, 1);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('open a pull request from the compare page', async () => {
      await t.octokit(alice.token).rest.git.createRef({ owner: alice.login, repo, ref: 'refs/heads/third', sha: (await pullsOf())[0]!.head.sha });
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}/compare/main...third`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForSelector('#new-pull-form');
      await p.fill('#pull-title', 'From the browser');
      await p.fill('#pull-body', 'Opened with a click');
      await p.check('#pull-draft');
      await p.click('#create-pull');
      await p.waitForSelector('#issue-title');
      const opened = (await pullsOf()).find((x) => x.head.ref === 'third')!;
      assert.deepEqual([opened.title, opened.body, opened.draft, opened.user?.login], ['From the browser', 'Opened with a click', true, alice.login]);
      assert.equal(p.url(), opened.html_url);
      await context.close();
    });
  });
});
