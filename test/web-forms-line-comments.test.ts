// Line comments on a pull request's files (the web interface): a comment on a line of
// the diff (path, line, side) on its own, as POST …/pulls/{n}/comments makes it, or as
// part of the viewer's pending review, which the "Review changes" form then submits with
// its comments. Each success checked through the API; each refusal (a line or path
// outside the diff, no text, a side that is neither) inline in the file's form with
// nothing added; forged posts refused; a private repository's form a 404 to outsiders;
// comments shown below their line, a pending one to its author alone. Headless Chromium
// adds one with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { repoWithFeature } from './factories/pulls.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: line comments in reviews', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  /** Signed in, no role on the public repository: a reader who may review, as on upstream. */
  let carol: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  let repo: string;
  let vault: string;
  let number: number;
  let vaultNumber: number;
  let base: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const comments = async (token = alice.token, r = repo, n = number) =>
    (await t.octokit(token).rest.pulls.listReviewComments({ owner: alice.login, repo: r, pull_number: n })).data;
  const reviewsOf = async (token = alice.token) => (await t.octokit(token).rest.pulls.listReviews({ owner: alice.login, repo, pull_number: number })).data;
  /** The rows of a file's diff table, up to and including the comments below the line whose new number is `line`. */
  const belowLine = (html: string, side: 'old' | 'new', line: number) => {
    const n = `<td class="num">(?:<a [^>]*>)?${line}(?:</a>)?</td>`;
    const cell = side === 'old' ? `${n}<td class="num"></td>` : `<td class="num"></td>${n}`;
    return new RegExp(`${cell}<td><code>[^<]*</code></td></tr><tr class="line-comments"><td colSpan="3">((?:(?!</tr>).)*)`, 's').exec(html)?.[1] ?? '';
  };

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    for (const u of [alice, bob, carol]) await setPassword(t, u.login, PASSWORD);
    const made = await repoWithFeature(t, alice);
    repo = made.clone.repo;
    number = (await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature' })).data.number;
    const hidden = await repoWithFeature(t, alice, { private: true });
    vault = hidden.clone.repo;
    vaultNumber = (await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo: vault, head: 'feature', base: 'main', title: 'Secret feature' })).data.number;
    base = `/${alice.login}/${repo}/pull/${number}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    carolWeb = new WebClient(t);
    for (const [c, u] of [[aliceWeb, alice], [bobWeb, bob], [carolWeb, carol]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('a single comment on a line: the API\'s review comment, shown below its line; refusals inline with nothing added', async () => {
    const shown = await page(carolWeb, base);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /<form method="post" action="[^"]+\/line-comments" class="line-comment-form" data-path="app.txt">/);
    assert.doesNotMatch((await page(new WebClient(t), base)).body, /line-comment-form/, 'not for those signed out');
    assert.match(shown.body, /<a href="[^"]+\?comment_path=app.txt&amp;comment_line=2&amp;comment_side=LEFT#line-comment-0" aria-label="Comment on old line 2 of app.txt">2<\/a>/);
    const opened = await page(carolWeb, `${base}?comment_path=app.txt&comment_line=2&comment_side=LEFT`);
    assert.match(opened.body, /<details class="line-comment" id="line-comment-0" open="">[\s\S]*?name="line" required="" value="2"[\s\S]*?<option value="LEFT" selected="">/, 'the link opens the form on its line');
    const token = csrfIn(shown.body);
    const { data: pull } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: number });
    const post = (fields: Record<string, string>) => carolWeb.post(`${base}/line-comments`, {
      authenticity_token: token, path: 'app.txt', side: 'RIGHT', commit_id: pull.head.sha, mode: 'single', ...fields,
    });

    const outside = await post({ line: '40', body: 'Nowhere' });
    assert.equal(outside.status, 422);
    assert.match(outside.body, /<details class="line-comment" id="line-comment-\d+" open="">[\s\S]*?data-path="app.txt"[\s\S]*?role="alert">line could not be resolved</);
    assert.match(outside.body, />Nowhere<\/textarea>/, 'as typed');
    const apiOutside = await t.request(`/repos/${alice.login}/${repo}/pulls/${number}/comments`, {
      method: 'POST', token: carol.token, json: { body: 'Nowhere', path: 'app.txt', line: 40, side: 'RIGHT', commit_id: pull.head.sha },
    });
    assert.equal(apiOutside.status, 422, 'as the API refuses it');
    const wrongPath = await post({ path: 'missing.txt', line: '1', body: 'x' });
    assert.equal(wrongPath.status, 422);
    assert.match(wrongPath.body, /id="line-comment-errors"><div class="flash error" role="alert">path could not be resolved</);
    const empty = await post({ line: '2', body: '  ' });
    assert.equal(empty.status, 422);
    assert.match(empty.body, /role="alert">body is missing</);
    assert.equal((await post({ line: '2', side: 'UP', body: 'x' })).status, 422);
    assert.equal((await post({ line: 'two', body: 'x' })).status, 422);
    assert.equal((await carolWeb.post(`${base}/line-comments`, { path: 'app.txt', line: '2', side: 'RIGHT', body: 'x', mode: 'single' })).status, 403, 'no token');
    assert.equal((await post({ authenticity_token: 'b'.repeat(64), line: '2', body: 'x' })).status, 403, 'forged token');
    assert.deepEqual(await comments(), [], 'nothing added');
    assert.deepEqual(await reviewsOf(), []);

    const made = await post({ line: '2', body: 'Why **shout**?' });
    assert.equal(made.status, 303);
    const [c] = await comments();
    assert.ok(c);
    assert.deepEqual([c.path, c.line, c.side, c.body, c.user.login, c.commit_id], ['app.txt', 2, 'RIGHT', 'Why **shout**?', carol.login, pull.head.sha]);
    assert.equal(made.location, `${base}#discussion_r${c.id}`);
    assert.deepEqual((await reviewsOf()).map((r) => [r.state, r.user?.login]), [['COMMENTED', carol.login]], 'a review of its own, as upstream');
    const after = await page(new WebClient(t), base);
    assert.match(belowLine(after.body, 'new', 2), new RegExp(`id="discussion_r${c.id}"[\\s\\S]*Why <strong>shout</strong>\\?`), 'below the line it is on, for everyone');
  });

  test('comments of a pending review: shown to their author alone, then submitted with Review changes', async () => {
    const shown = await page(carolWeb, base);
    assert.match(shown.body, /<button type="submit" name="mode" value="review">Start a review<\/button>/);
    const token = csrfIn(shown.body);
    const post = (fields: Record<string, string>) => carolWeb.post(`${base}/line-comments`, { authenticity_token: token, mode: 'review', ...fields });
    const before = (await comments()).length;

    const outside = await post({ path: 'app.txt', line: '9', side: 'LEFT', body: 'Off the map' });
    assert.equal(outside.status, 422);
    assert.match(outside.body, /role="alert">line could not be resolved</);
    assert.deepEqual((await reviewsOf(carol.token)).filter((r) => r.state === 'PENDING'), [], 'no review started');

    const first = await post({ path: 'app.txt', line: '2', side: 'LEFT', body: 'The old line was fine' });
    assert.equal(first.status, 303);
    const second = await post({ path: 'feature.txt', line: '1', side: 'RIGHT', body: 'A new file' });
    assert.equal(second.status, 303);
    const pending = (await reviewsOf(carol.token)).filter((r) => r.state === 'PENDING');
    assert.equal(pending.length, 1, 'one pending review gathers both');
    const { data: inReview } = await t.octokit(carol.token).rest.pulls.listCommentsForReview({ owner: alice.login, repo, pull_number: number, review_id: pending[0]!.id });
    assert.deepEqual(inReview.map((c) => [c.path, c.line, c.side, c.body]), [['app.txt', 2, 'LEFT', 'The old line was fine'], ['feature.txt', 1, 'RIGHT', 'A new file']]);
    assert.equal((await comments()).length, before, 'the API shows others nothing yet');

    const carolPage = await page(carolWeb, base);
    assert.match(belowLine(carolPage.body, 'old', 2), /data-badge="pending">Pending<[\s\S]*The old line was fine/);
    assert.match(carolPage.body, /id="pending-review-note"/);
    assert.match(carolPage.body, /<button type="submit" name="mode" value="review">Add review comment<\/button>/);
    assert.doesNotMatch((await page(aliceWeb, base)).body, /The old line was fine|A new file/, 'not shown to others');

    const submitted = await carolWeb.post(`${base}/reviews`, { authenticity_token: token, body: '', event: 'APPROVE' });
    assert.equal(submitted.status, 303);
    const review = (await reviewsOf()).find((r) => r.id === pending[0]!.id)!;
    assert.equal(review.state, 'APPROVED', 'the pending review, submitted with its comments (no body needed)');
    assert.equal((await comments()).length, before + 2, 'now everyone sees them');
    const alicePage = await page(aliceWeb, base);
    assert.match(belowLine(alicePage.body, 'old', 2), /The old line was fine/);
    assert.doesNotMatch(belowLine(alicePage.body, 'old', 2), /data-badge="pending"/);
    assert.match(belowLine(alicePage.body, 'new', 1), /A new file/);
  });

  test('a private repository\'s line comment form is a 404 to outsiders; signed out is sent to sign in', async () => {
    const at = `/${alice.login}/${vault}/pull/${vaultNumber}`;
    const bobToken = csrfIn((await page(bobWeb, base)).body);
    const res = await bobWeb.post(`${at}/line-comments`, { authenticity_token: bobToken, path: 'app.txt', line: '2', side: 'RIGHT', body: 'Peek', mode: 'single' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.body, /Secret feature/);
    assert.equal((await bobWeb.post(`${at}/line-comments`, { authenticity_token: bobToken, path: 'app.txt', line: '2', side: 'RIGHT', body: 'Peek', mode: 'review' })).status, 404);
    const anonymous = await new WebClient(t).post(`${base}/line-comments`, { path: 'app.txt', line: '2', side: 'RIGHT', body: 'Hi', mode: 'single' });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.location ?? '', /^\/login/);
    assert.deepEqual(await comments(alice.token, vault, vaultNumber), []);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('comment on a line from the files of a pull request', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      // A line number's link opens its file's form on that line.
      await p.click('a[aria-label="Comment on new line 1 of feature.txt"]');
      const form = p.locator('form.line-comment-form[data-path="feature.txt"]');
      assert.equal(await form.getByLabel('Line number').inputValue(), '1');
      assert.equal(await form.getByLabel('Side').inputValue(), 'RIGHT');
      await form.getByLabel('Comment').fill('From the browser');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the page is accessible');
      await form.getByRole('button', { name: 'Add single comment' }).click();
      await p.waitForSelector('article.review-comment:has-text("From the browser")');
      const made = (await comments()).find((c) => c.body === 'From the browser')!;
      assert.deepEqual([made.path, made.line, made.side, made.user.login], ['feature.txt', 1, 'RIGHT', alice.login]);
      assert.ok(p.url().endsWith(`#discussion_r${made.id}`));
      await context.close();
    });
  });
});
