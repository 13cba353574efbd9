// Review threads in a pull request's conversation (the web interface): under the review
// that started them, at the review's place in the timeline, each thread with its file,
// the end of its diff hunk and its replies, and the same Reply and Resolve forms as in Files changed, which answer back to the
// conversation's copy. A review of replies alone is no entry of its own. Successes checked
// through the API; a refusal inline in the conversation's copy only. Headless Chromium
// replies from the conversation, with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { repoWithFeature } from './factories/pulls.ts';
import { gql } from './helpers/graphql.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web: review threads in the pull request conversation', () => {
  let t: TestServer;
  /** Owner of the repository, author of the pull request. */
  let alice: CreatedUser;
  /** No role on the public repository: reviews and replies, may not resolve. */
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let repo: string;
  let number: number;
  let base: string;
  let reviewId: number;
  let rootId: number;

  const page = (c: WebClient) => c.get(base, { accept: BROWSER });
  /** The conversation section of a page (before the review form). */
  const conversationOf = (html: string) => /<section id="conversation"[\s\S]*?(?=<form [^>]*id="review-form"|<section [^>]*id="merge-box")/.exec(html)?.[0] ?? '';
  /** The conversation's copy of a thread: up to the next thread or the end of the conversation. */
  const copy = (html: string, id: number) => {
    const start = html.search(new RegExp(`<(div|details) [^>]*id="conversation-thread-${id}"`));
    if (start < 0) return '';
    const next = html.slice(start + 1).search(/<(div|details) [^>]*class="review-thread"/);
    return next < 0 ? html.slice(start) : html.slice(start, start + 1 + next);
  };
  const filesCopy = (html: string, id: number) => new RegExp(`<(div|details) [^>]*id="thread-${id}"[\\s\\S]*?</\\1>(?=<(?:div|details) [^>]*class="review-thread"|</td>)`).exec(html)?.[0] ?? '';
  const comments = async () => (await t.octokit(alice.token).rest.pulls.listReviewComments({ owner: alice.login, repo, pull_number: number })).data;
  const resolved = async () => (await gql(t, alice.token)<{ repository: { pullRequest: { reviewThreads: { nodes: { isResolved: boolean }[] } } } }>(
    'query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) { reviewThreads(first: 10) { nodes { isResolved } } } } }',
    { o: alice.login, r: repo, n: number },
  )).repository.pullRequest.reviewThreads.nodes.map((n) => n.isResolved);

  before(async () => {
    // Timestamps have whole seconds: the clock moves a second between the comments and
    // the review, whose order the first test reads (made within one second, a tie).
    const clock = new TestClock(Date.now());
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    const made = await repoWithFeature(t, alice);
    repo = made.clone.repo;
    const kit = t.octokit(alice.token);
    const { data: pull } = await kit.rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature' });
    number = pull.number;
    await kit.rest.issues.createComment({ owner: alice.login, repo, issue_number: number, body: 'Before the review' });
    clock.advance(1000);
    const { data: review } = await t.octokit(bob.token).rest.pulls.createReview({
      owner: alice.login, repo, pull_number: number, body: 'Some **notes**', event: 'COMMENT', commit_id: pull.head.sha,
      comments: [{ path: 'app.txt', line: 2, side: 'RIGHT', body: 'Why *upper case*?' }],
    });
    reviewId = review.id;
    rootId = (await comments())[0]!.id;
    clock.advance(1000);
    await kit.rest.issues.createComment({ owner: alice.login, repo, issue_number: number, body: 'After the review' });
    base = `/${alice.login}/${repo}/pull/${number}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    for (const [c, u] of [[aliceWeb, alice], [bobWeb, bob]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('a thread sits under its review, between the comments before and after it, with its file and diff hunk', async () => {
    const conv = conversationOf((await page(bobWeb)).body);
    const order = ['Before the review', `id="review-${reviewId}"`, `id="conversation-thread-${rootId}"`, 'After the review'].map((s) => conv.indexOf(s));
    assert.ok(order.every((i) => i >= 0), `all in the conversation: ${order}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in the timeline\'s order');
    const box = copy(conv, rootId);
    assert.match(box, /<code class="thread-path">app\.txt<\/code>/);
    assert.doesNotMatch(box, /data-badge="outdated"/);
    assert.match(box, /<tr class="l-hunk">[\s\S]*<tr class="l-del"><td class="num">2<\/td><td class="num"><\/td><td><code>-two<\/code>[\s\S]*<tr class="l-add"><td class="num"><\/td><td class="num">2<\/td><td><code>\+TWO<\/code>/, 'the hunk up to the line');
    assert.match(box, new RegExp(`id="conversation_r${rootId}"[\\s\\S]*Why <em>upper case</em>`));
    assert.match(box, new RegExp(`action="${base}/comments/${rootId}/replies" class="reply-form"><input type="hidden" name="authenticity_token" value="[0-9a-f]{64}"/><input type="hidden" name="place" value="conversation"/>`));
    assert.doesNotMatch(box, /resolve-form/, 'bob may not resolve');
    assert.match(filesCopy((await page(bobWeb)).body, rootId), /Why <em>upper case<\/em>/, 'still in Files changed too');
    assert.doesNotMatch(copy(conversationOf((await page(new WebClient(t))).body), rootId), /reply-form/, 'no forms for those signed out');
  });

  test('a reply from the conversation: the API\'s reply, back to the conversation, in the thread; its review is no entry of its own', async () => {
    const shown = await page(aliceWeb);
    const token = csrfIn(shown.body);
    const empty = await aliceWeb.post(`${base}/comments/${rootId}/replies`, { authenticity_token: token, body: ' ', place: 'conversation' });
    assert.equal(empty.status, 422);
    assert.match(copy(conversationOf(empty.body), rootId), /role="alert">body is missing</, 'in the conversation\'s copy');
    assert.doesNotMatch(filesCopy(empty.body, rootId), /role="alert"/, 'not in the files tab\'s');
    assert.equal((await comments()).length, 1, 'nothing added');

    const made = await aliceWeb.post(`${base}/comments/${rootId}/replies`, { authenticity_token: token, body: 'Because **shouting**', place: 'conversation' });
    assert.equal(made.status, 303);
    const reply = (await comments()).find((c) => c.in_reply_to_id === rootId)!;
    assert.equal(reply.body, 'Because **shouting**');
    assert.equal(made.location, `${base}#conversation_r${reply.id}`);
    const conv = conversationOf((await page(bobWeb)).body);
    assert.match(copy(conv, rootId), new RegExp(`id="conversation_r${rootId}"[\\s\\S]*id="conversation_r${reply.id}"[\\s\\S]*Because <strong>shouting</strong>`));
    const { data: reviews } = await t.octokit(alice.token).rest.pulls.listReviews({ owner: alice.login, repo, pull_number: number });
    const replyReview = reviews.find((r) => r.id === reply.pull_request_review_id)!;
    assert.ok(replyReview, 'the API made a review of the reply');
    assert.doesNotMatch(conv, new RegExp(`id="review-${replyReview.id}"`), 'which the conversation folds into the thread');
    assert.equal(conv.match(/id="conversation_r/g)?.length, 2, 'each comment once in the conversation');
  });

  test('resolve from the conversation: refused inline to a reader, done for the author and folded; GraphQL sees each', async () => {
    const refused = await bobWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: csrfIn((await page(bobWeb)).body), resolved: 'true', place: 'conversation' });
    assert.equal(refused.status, 403);
    assert.match(copy(conversationOf(refused.body), rootId), /role="alert">Must have push access/);
    assert.deepEqual(await resolved(), [false], 'nothing changed');

    const shown = await page(aliceWeb);
    assert.match(copy(conversationOf(shown.body), rootId), /class="resolve-form"><input type="hidden" name="authenticity_token" value="[0-9a-f]{64}"\/><input type="hidden" name="place" value="conversation"\/><button type="submit" name="resolved" value="true"/);
    const done = await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: csrfIn(shown.body), resolved: 'true', place: 'conversation' });
    assert.equal(done.status, 303);
    assert.equal(done.location, `${base}#conversation-thread-${rootId}`);
    assert.deepEqual(await resolved(), [true]);
    assert.match(copy(conversationOf((await page(bobWeb)).body), rootId), new RegExp(`^<details [^>]*data-resolved="true"><summary class="muted"><span class="badge ok" data-badge="resolved">Resolved</span> by ${alice.login} `));
    assert.equal((await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: csrfIn(shown.body), resolved: 'false', place: 'conversation' })).status, 303);
    assert.deepEqual(await resolved(), [false]);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('a reader replies from the conversation and lands on the reply; axe finds nothing serious', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login`);
      await p.fill('#login_field', bob.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.goto(`${t.baseUrl}${base}`);
      const thread = p.locator(`#conversation-thread-${rootId}`);
      await thread.locator('summary', { hasText: 'Reply' }).click();
      await thread.getByLabel('Reply').fill('From the conversation');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      await thread.getByRole('button', { name: 'Reply' }).click();
      await p.waitForURL(/#conversation_r\d+$/);
      const id = /#conversation_r(\d+)$/.exec(p.url())![1];
      assert.equal(await p.locator(`#conversation-thread-${rootId} #conversation_r${id}`).count(), 1);
      assert.ok((await comments()).some((c) => c.body === 'From the conversation' && c.in_reply_to_id === rootId));
      await context.close();
    });
  });
});
