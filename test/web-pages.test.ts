// The web interface: server-rendered pages at the html_url addresses the API hands out,
// over the API's own services. Plain HTTP checks the answers (status, type, content,
// permissions, forms with CSRF and inline errors, the JSON root kept for API clients);
// one headless Chromium walks a session (sign in, browse, open an issue, comment, review,
// merge) with axe-core checking the main pages, and keeps a screenshot of each as a test
// artifact (WHARF_TEST_ARTIFACTS, test-artifacts/ by default: screenshots/*.png; looked at,
// not compared pixel by pixel).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { checkout, commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';

const PASSWORD = 'correct horse battery';
const SCREENSHOTS = path.resolve(process.env.WHARF_TEST_ARTIFACTS ?? 'test-artifacts', 'screenshots');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('web pages', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let anon: WebClient;
  let clone: Clone;
  let mainSha: string;
  let repo: string;
  let base: string;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    const made = await repoWithFeature(t, alice, {}, 'harbour');
    clone = made.clone;
    mainSha = made.mainSha;
    repo = 'harbour';
    base = `/${alice.login}/${repo}`;
    await commitFiles(clone, { 'src/hello.ts': 'export const answer: number = 42;\n', 'docs/README.md': '# Docs\n\nInside **docs**.\n<script>alert(1)</script>\n', 'notes/README': 'Plain <b>text</b>\n' }, 'Add code');
    // A branch of 27 commits, for the paging of the history.
    await checkout(clone, 'long', true);
    for (let i = 0; i < 26; i++) await commitFiles(clone, { 'count.txt': `${i}\n` }, `Count ${i}`);
    await push(clone, 'main', 'long');
    await checkout(clone, 'main');
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'secret', private: true, auto_init: true });
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    anon = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });

  test('the root stays JSON for API clients; a browser gets the home page', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/vnd.github+json', 'application/vnd.github.v3+json, text/html;q=0.5']) {
      const res = await anon.get('/', accept ? { accept } : {});
      assert.equal(res.status, 200, String(accept));
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, String(accept));
      assert.ok('current_user_url' in JSON.parse(res.body), String(accept));
    }
    const api = await anon.get('/api/v3/', { accept: BROWSER });
    assert.match(api.headers.get('content-type') ?? '', /^application\/json/);
    const { data } = await t.octokit().request('GET /');
    assert.ok('current_user_url' in (data as object));

    const home = await page(anon, '/');
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(home.body, /id="sign-in-link"/);
    assert.match(home.headers.get('vary') ?? '', /Accept/i);
    const head = await fetch(`${t.baseUrl}/`, { method: 'HEAD', headers: { accept: BROWSER } });
    assert.match(head.headers.get('content-type') ?? '', /^text\/html/);
    const apiHead = await fetch(`${t.baseUrl}/`, { method: 'HEAD', headers: { accept: '*/*' } });
    assert.match(apiHead.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(home.body, new RegExp(`href="${base}"`), 'public repositories are listed');
    assert.doesNotMatch(home.body, /\/secret"/);
    const mine = await page(aliceWeb, '/');
    assert.match(mine.body, /Your repositories/);
    assert.match(mine.body, new RegExp(`href="/${alice.login}/secret"`));
    assert.match(mine.body, /id="sign-out"/);
    assert.match(mine.body, /<main id="content"/);
  });

  test('the stylesheet is served, with dark mode', async () => {
    const css = await anon.get('/web/wharf.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(css.body, /prefers-color-scheme:dark/);
  });

  test('the repository home: file tree of the default branch, the README rendered, clone addresses', async () => {
    const res = await page(anon, base);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    for (const name of ['README.md', 'app.txt', 'src', 'docs']) assert.match(res.body, new RegExp(`>${name}</a>`), name);
    assert.match(res.body, /<h1>harbour<\/h1>/, 'the README is rendered');
    assert.match(res.body, new RegExp(`value="${t.baseUrl}${base}.git"`));
    const { data } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo });
    assert.equal(new URL(data.html_url).pathname, base, 'the page is at the html_url');

    const dir = await page(anon, `${base}/tree/main/docs`);
    assert.equal(dir.status, 200);
    assert.match(dir.body, /Inside <strong>docs<\/strong>/, 'a directory shows its README');
    assert.doesNotMatch(dir.body, /<script>alert/, 'sanitized by the markdown renderer');
    const notes = await page(anon, `${base}/tree/main/notes`);
    assert.match(notes.body, /<pre tabindex="0">Plain &lt;b&gt;text&lt;\/b&gt;\n<\/pre>/, 'a README that is not Markdown is shown as written');
    const feature = await page(anon, `${base}/tree/feature`);
    assert.match(feature.body, />feature\.txt<\/a>/, 'another branch, through the switcher\'s address');
    assert.match(feature.body, /id="current-ref">feature</);
    assert.equal((await page(anon, `${base}/tree/main/nothing-here`)).status, 404);
    assert.equal((await page(anon, `${base}/tree/no-such-branch`)).status, 404);
  });

  test('a file with syntax highlighting and a raw link; raw bytes never run as a page', async () => {
    const res = await page(anon, `${base}/blob/main/src/hello.ts`);
    assert.equal(res.status, 200);
    assert.match(res.body, /class="hljs-keyword">export</);
    assert.match(res.body, new RegExp(`href="${base}/raw/main/src/hello.ts" id="raw-link"`));
    const raw = await page(anon, `${base}/raw/main/src/hello.ts`);
    assert.equal(raw.status, 200);
    assert.match(raw.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(raw.headers.get('x-content-type-options'), 'nosniff');
    assert.match(raw.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.equal(raw.body, 'export const answer: number = 42;\n');
    const apiRaw = await anon.get(`${base}/raw/main/src/hello.ts`, { accept: '*/*' });
    assert.equal(apiRaw.headers.get('content-type'), 'application/octet-stream', 'the API download is unchanged');
    const plain = await page(anon, `${base}/blob/main/app.txt`);
    assert.match(plain.body, /<code[^>]*>one\ntwo\nthree\n<\/code>/);
    assert.equal((await page(anon, `${base}/blob/main/src`)).status, 404, 'a directory is not a blob');
  });

  test('history pages as the API pages it; a commit shows its diff', async () => {
    const first = await page(anon, `${base}/commits/long`);
    assert.equal(first.status, 200);
    assert.match(first.body, /Count 25/);
    assert.doesNotMatch(first.body, /Count 0</);
    assert.match(first.body, /Page 1 of 2/);
    const second = await page(anon, `${base}/commits/long?page=2`);
    assert.match(second.body, /Count 0</);
    assert.match(second.body, /Page 2 of 2/);
    const { data: apiPage } = await t.octokit().rest.repos.listCommits({ owner: alice.login, repo, sha: 'long', per_page: 25, page: 2 });
    for (const c of apiPage) assert.match(second.body, new RegExp(c.sha.slice(0, 7)), 'the same commits as the API\'s page');

    await t.octokit(alice.token).rest.repos.createCommitStatus({ owner: alice.login, repo, sha: mainSha, state: 'failure', context: 'ci/build', description: 'Broke <here>' });
    const commit = await page(anon, `${base}/commit/${mainSha}`);
    assert.match(commit.body, /<strong>ci\/build<\/strong><span class="muted"> — Broke &lt;here&gt;<\/span>/, 'the statuses, as the combined status lists them');
    assert.equal(commit.status, 200);
    assert.match(commit.body, /id="commit-title">Add app</);
    assert.match(commit.body, /class="d-add">\+one\n/);
    assert.match(commit.body, /class="d-hunk">@@/);
    assert.equal((await page(anon, `${base}/commit/0000000000000000000000000000000000000000`)).status, 404);
  });

  test('a private repository\'s pages are 404 to those who may not see it', async () => {
    const secret = `/${alice.login}/secret`;
    const paths = [secret, `${secret}/tree/main`, `${secret}/blob/main/README.md`, `${secret}/raw/main/README.md`, `${secret}/commits/main`, `${secret}/issues`, `${secret}/issues/new`, `${secret}/pulls`];
    for (const p of paths) {
      assert.equal((await page(anon, p)).status, p.endsWith('/new') ? 302 : 404, `anonymous ${p}`);
      const res = await page(bobWeb, p);
      assert.equal(res.status, 404, `bob ${p}`);
      assert.doesNotMatch(res.body, /clone-https|# secret/, 'nothing of it shows');
      assert.equal((await page(aliceWeb, p)).status, 200, `alice ${p}`);
    }
    const profile = await page(anon, `/${alice.login}`);
    assert.match(profile.body, /harbour/);
    assert.doesNotMatch(profile.body, /\/secret"/);
    assert.match((await page(aliceWeb, `/${alice.login}`)).body, /\/secret"/);
    assert.equal((await page(anon, '/no-such-user-here')).status, 404);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'old-name', auto_init: true });
    await t.octokit(alice.token).rest.repos.update({ owner: alice.login, repo: 'old-name', name: 'new-name' });
    const moved = await page(anon, `/${alice.login}/old-name/blob/main/README.md`);
    assert.equal(moved.status, 301);
    assert.equal(moved.location, `/${alice.login}/new-name/blob/main/README.md`, 'a renamed repository\'s pages move with it');
    assert.equal((await page(anon, `/${alice.login}/no-such-repo`)).status, 404);
  });

  test('the new-issue form: sign-in first, CSRF required, errors inline, then the issue', async () => {
    const newPage = await page(anon, `${base}/issues/new`);
    assert.equal(newPage.status, 302);
    assert.match(newPage.location ?? '', /^\/login\?return_to=/);
    const form = await page(bobWeb, `${base}/issues/new`);
    assert.equal(form.status, 200);
    const token = csrfIn(form.body);

    const before = (await t.octokit(alice.token).rest.issues.listForRepo({ owner: alice.login, repo, state: 'all' })).data.length;
    assert.equal((await bobWeb.post(`${base}/issues`, { title: 'No token', body: '' })).status, 403);
    assert.equal((await bobWeb.post(`${base}/issues`, { authenticity_token: '0'.repeat(64), title: 'Bad token' })).status, 403);
    const anonymous = await anon.post(`${base}/issues`, { authenticity_token: token, title: 'Anonymous' });
    assert.equal(anonymous.status, 302);
    const missing = await bobWeb.post(`${base}/issues`, { authenticity_token: token, body: 'kept text' });
    assert.equal(missing.status, 422);
    assert.match(missing.body, /role="alert"/);
    assert.match(missing.body, /kept text/, 'the form comes back with what was typed');
    assert.equal((await t.octokit(alice.token).rest.issues.listForRepo({ owner: alice.login, repo, state: 'all' })).data.length, before, 'nothing was created');

    const made = await bobWeb.post(`${base}/issues`, { authenticity_token: token, title: 'Fog on the <quay>', body: 'See **this**' });
    assert.equal(made.status, 303);
    const number = Number(/\/issues\/(\d+)$/.exec(made.location ?? '')![1]);
    const { data: issue } = await t.octokit(alice.token).rest.issues.get({ owner: alice.login, repo, issue_number: number });
    assert.equal(issue.title, 'Fog on the <quay>');
    assert.equal(issue.user?.login, bob.login);
    assert.equal(new URL(issue.html_url).pathname, `${base}/issues/${number}`);
    const shown = await page(anon, `${base}/issues/${number}`);
    assert.match(shown.body, /Fog on the &lt;quay&gt;/, 'escaped');
    assert.match(shown.body, /See <strong>this<\/strong>/);

    const emptyComment = await bobWeb.post(`${base}/issues/${number}/comments`, { authenticity_token: token, body: '' });
    assert.equal(emptyComment.status, 422);
    assert.match(emptyComment.body, /role="alert"/);
    const comment = await bobWeb.post(`${base}/issues/${number}/comments`, { authenticity_token: token, body: 'A comment from the page' });
    assert.equal(comment.status, 303);
    const { data: comments } = await t.octokit(alice.token).rest.issues.listComments({ owner: alice.login, repo, issue_number: number });
    assert.deepEqual(comments.map((c) => [c.user?.login, c.body]), [[bob.login, 'A comment from the page']]);

    const feed = await page(aliceWeb, '/');
    assert.match(feed.body, new RegExp(`opened issue <a href="${base}/issues/${number}">#${number} Fog on the &lt;quay&gt;</a>`), 'the watched repository\'s events feed');
    assert.match(feed.body, /pushed to <a href="[^"]+\/tree\/long">long<\/a>/);
    assert.doesNotMatch((await page(anon, '/')).body, /id="activity"/);

    const list = await page(anon, `${base}/issues`);
    assert.match(list.body, new RegExp(`href="${base}/issues/${number}"`));
    await t.octokit(alice.token).rest.issues.update({ owner: alice.login, repo, issue_number: number, state: 'closed' });
    assert.doesNotMatch((await page(anon, `${base}/issues`)).body, new RegExp(`href="${base}/issues/${number}"`), 'open issues by default');
    assert.match((await page(anon, `${base}/issues?state=closed`)).body, new RegExp(`href="${base}/issues/${number}"`));
    assert.equal((await page(anon, `${base}/issues/99999`)).status, 404);
    assert.equal((await page(anon, `${base}/issues/abc`)).status, 404);
  });

  test('the label filter is the API\'s', async () => {
    const kit = t.octokit(alice.token).rest.issues;
    const { data: a } = await kit.create({ owner: alice.login, repo, title: 'Labelled one', labels: ['bug'] });
    const { data: b } = await kit.create({ owner: alice.login, repo, title: 'Unlabelled one' });
    const res = await page(anon, `${base}/issues?labels=bug`);
    assert.match(res.body, new RegExp(`/issues/${a.number}"`));
    assert.doesNotMatch(res.body, new RegExp(`/issues/${b.number}"`));
    assert.match(res.body, /class="label">bug</);
    const labels = await page(anon, `${base}/labels`);
    assert.equal(labels.status, 200);
    const { data: all } = await t.octokit().rest.issues.listLabelsForRepo({ owner: alice.login, repo, per_page: 100 });
    for (const l of all) assert.match(labels.body, new RegExp(`labels=${encodeURIComponent(l.name).replace(/%20/g, '\\+')}">${l.name}</a>`), l.name);
    assert.equal((await page(anon, `/${alice.login}/secret/labels`)).status, 404);
  });

  test('merging needs push access: the button is not shown, and a post is refused with the reason inline', async () => {
    const { data: pr } = await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo, head: 'long', base: 'main', title: 'Counting' });
    const asBob = await page(bobWeb, `${base}/pull/${pr.number}`);
    assert.equal(asBob.status, 200);
    assert.doesNotMatch(asBob.body, /id="merge-button"/);
    assert.match(asBob.body, /Count 25/, 'the commits');
    assert.match(asBob.body, /count\.txt/, 'the files');
    const refused = await bobWeb.post(`${base}/pull/${pr.number}/merge`, { authenticity_token: csrfIn(asBob.body) });
    assert.equal(refused.status, 403);
    assert.match(refused.body, /role="alert"/);
    const { data } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: pr.number });
    assert.equal(data.merged, false);
    assert.equal((await page(anon, `${base}/issues/${pr.number}`)).location, `${base}/pull/${pr.number}`);
    assert.match((await page(anon, `${base}/pulls`)).body, new RegExp(`href="${base}/pull/${pr.number}"`));
    await t.octokit(alice.token).rest.pulls.update({ owner: alice.login, repo, pull_number: pr.number, state: 'closed' });
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    /** axe-core finds nothing serious on the page, and its screenshot is kept. */
    async function accessible(p: Page, name: string): Promise<void> {
      const results = await new AxeBuilder({ page: p }).analyze();
      assert.ok(results.passes.length > 10, `axe ran its rules on ${name}`);
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `accessibility of ${name}`);
      const file = path.join(SCREENSHOTS, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.png`);
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await p.screenshot({ path: file, fullPage: true });
      const shot = fs.readFileSync(file);
      assert.ok(shot.subarray(0, 8).equals(PNG) && shot.length > 1000, `a PNG screenshot of ${name} in ${file}`);
    }

    test('sign in, browse the code, open an issue, comment, merge a pull request', async () => {
      const { data: pr } = await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature work' });
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/`);
      await accessible(p, 'the home page, signed out');
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForURL(`${t.baseUrl}/`);
      assert.equal(await p.textContent('#user-menu'), alice.login);
      await accessible(p, 'the home page');

      await p.click(`#your-repos a[href="${base}"]`);
      await p.waitForSelector('#clone-https');
      await accessible(p, 'the repository home');
      await p.click('table.files a:text-is("app.txt")');
      await p.waitForSelector('pre code');
      assert.equal(await p.textContent('pre code'), 'one\ntwo\nthree\n');
      await accessible(p, 'a file');
      await p.click('summary');
      await p.click('.switcher a:text-is("feature")');
      await p.waitForURL(`${t.baseUrl}${base}/blob/feature/app.txt`);
      assert.equal(await p.textContent('pre code'), 'one\nTWO\nthree\n');

      await p.click('nav.tabs a:text-is("Issues")');
      await p.click('#new-issue');
      await p.fill('#issue-title-field', 'Opened in the browser');
      await p.fill('#issue-body-field', 'Body with `code`');
      await p.click('#submit-issue');
      await p.waitForSelector('#issue-title');
      assert.match(await p.textContent('#issue-title') ?? '', /Opened in the browser/);
      const number = Number(/\/issues\/(\d+)$/.exec(p.url())![1]);
      await p.fill('#comment-body', 'Commented in the browser');
      await p.click('#comment-submit');
      await p.waitForSelector('article.comment:has-text("Commented in the browser")');
      await accessible(p, 'an issue');
      const { data: comments } = await t.octokit(alice.token).rest.issues.listComments({ owner: alice.login, repo, issue_number: number });
      assert.deepEqual(comments.map((c) => c.body), ['Commented in the browser']);

      await p.goto(`${t.baseUrl}${base}/pull/${pr.number}`);
      await p.waitForSelector('#merge-button');
      await accessible(p, 'a pull request');
      // The author's review can only comment (the other verdicts are disabled for them).
      await p.fill('#review-body', 'Reviewed in the browser');
      await p.check('#review-event-comment');
      await p.click('#review-submit');
      await p.waitForSelector('#merge-button');
      const { data: reviews } = await t.octokit(alice.token).rest.pulls.listReviews({ owner: alice.login, repo, pull_number: pr.number });
      assert.deepEqual(reviews.map((r) => [r.state, r.body]), [['COMMENTED', 'Reviewed in the browser']]);
      await p.click('#merge-button');
      await p.waitForSelector('#issue-state:text-is("Merged")');
      const { data: merged } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: pr.number });
      assert.equal(merged.merged, true);
      assert.equal(merged.merged_by?.login, alice.login);
      await context.close();
    });
  });
});
