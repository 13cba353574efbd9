// Review threads and review reactions on a pull request page (the web interface): a
// reply to a thread, as POST …/pulls/{n}/comments/{id}/replies makes it; Resolve and
// Unresolve, as GraphQL's resolveReviewThread does, for those with push access and the
// pull request's author only; the eight reactions under each submitted review with
// buttons that add or take back the viewer's own. Each success checked through the API;
// each refusal inline in its thread or bar with nothing changed; forged posts refused;
// a private repository's forms a 404 to outsiders. Headless Chromium replies and
// resolves, with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { repoWithFeature } from './factories/pulls.ts';
import { gql } from './helpers/graphql.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

interface ThreadsAnswer {
  repository: { pullRequest: { reviewThreads: { nodes: { isResolved: boolean; resolvedBy: { login: string } | null; comments: { nodes: { databaseId: number; body: string }[] } }[] } } };
}

describe('web forms: review threads and review reactions', () => {
  let t: TestServer;
  /** Owner of the repository, author of the pull request. */
  let alice: CreatedUser;
  /** Signed in, no role on the public repository: may comment and reply, may not resolve. */
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let repo: string;
  let vault: string;
  let number: number;
  let vaultNumber: number;
  let base: string;
  let rootId: number;
  let vaultRootId: number;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const commentsOf = async (r = repo, n = number) =>
    (await t.octokit(alice.token).rest.pulls.listReviewComments({ owner: alice.login, repo: r, pull_number: n })).data;
  const threads = async () => (await gql(t, alice.token)<ThreadsAnswer>(
    `query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) {
      reviewThreads(first: 10) { nodes { isResolved resolvedBy { login } comments(first: 10) { nodes { databaseId body } } } } } } }`,
    { o: alice.login, r: repo, n: number },
  )).repository.pullRequest.reviewThreads.nodes;
  const threadBox = (html: string, id: number) => new RegExp(`<(div|details) [^>]*id="thread-${id}"[\\s\\S]*?</\\1>(?=<(?:div|details) [^>]*class="review-thread"|</td>)`).exec(html)?.[0] ?? '';

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    const made = await repoWithFeature(t, alice);
    repo = made.clone.repo;
    const kit = t.octokit(alice.token);
    const { data: pull } = await kit.rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature' });
    number = pull.number;
    rootId = (await t.octokit(bob.token).rest.pulls.createReviewComment({
      owner: alice.login, repo, pull_number: number, body: 'Why **this**?', path: 'app.txt', line: 2, side: 'RIGHT', commit_id: pull.head.sha,
    })).data.id;
    const hidden = await repoWithFeature(t, alice, { private: true });
    vault = hidden.clone.repo;
    const { data: vp } = await kit.rest.pulls.create({ owner: alice.login, repo: vault, head: 'feature', base: 'main', title: 'Secret feature' });
    vaultNumber = vp.number;
    vaultRootId = (await kit.rest.pulls.createReviewComment({
      owner: alice.login, repo: vault, pull_number: vaultNumber, body: 'Hidden', path: 'app.txt', line: 2, side: 'RIGHT', commit_id: vp.head.sha,
    })).data.id;
    base = `/${alice.login}/${repo}/pull/${number}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    for (const [c, u] of [[aliceWeb, alice], [bobWeb, bob]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('a reply to a thread: the API\'s reply, in the thread; no text refused inline, forged posts refused, nothing added', async () => {
    const shown = await page(bobWeb, base);
    const box = threadBox(shown.body, rootId);
    assert.match(box, /data-resolved="false"/);
    assert.match(box, new RegExp(`<form method="post" action="${base}/comments/${rootId}/replies" class="reply-form">`));
    assert.doesNotMatch(box, /resolve-form/, 'bob may not resolve: no button');
    assert.doesNotMatch(threadBox((await page(new WebClient(t), base)).body, rootId), /reply-form/, 'not for those signed out');
    const token = csrfIn(shown.body);

    const empty = await bobWeb.post(`${base}/comments/${rootId}/replies`, { authenticity_token: token, body: '  ' });
    assert.equal(empty.status, 422);
    assert.match(threadBox(empty.body, rootId), /role="alert">body is missing</, 'in the thread');
    assert.equal((await bobWeb.post(`${base}/comments/${rootId}/replies`, { body: 'x' })).status, 403, 'no token');
    assert.equal((await bobWeb.post(`${base}/comments/${rootId}/replies`, { authenticity_token: 'b'.repeat(64), body: 'x' })).status, 403, 'forged token');
    assert.equal((await bobWeb.post(`${base}/comments/999999/replies`, { authenticity_token: token, body: 'x' })).status, 404, 'no such comment');
    assert.equal((await commentsOf()).length, 1, 'nothing added');

    const made = await bobWeb.post(`${base}/comments/${rootId}/replies`, { authenticity_token: token, body: 'Because *reasons*' });
    assert.equal(made.status, 303);
    const all = await commentsOf();
    const reply = all.find((c) => c.body === 'Because *reasons*')!;
    assert.ok(reply);
    assert.deepEqual([reply.in_reply_to_id, reply.path, reply.line, reply.user.login], [rootId, 'app.txt', 2, bob.login]);
    assert.equal(made.location, `${base}#discussion_r${reply.id}`);
    const again = await page(aliceWeb, base);
    assert.match(threadBox(again.body, rootId), new RegExp(`id="discussion_r${rootId}"[\\s\\S]*id="discussion_r${reply.id}"[\\s\\S]*Because <em>reasons</em>`), 'below the first comment, in its thread');
  });

  test('resolve and unresolve: the author may, a reader is refused inline with nothing changed; GraphQL sees each', async () => {
    const bobToken = csrfIn((await page(bobWeb, base)).body);
    const refused = await bobWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: bobToken, resolved: 'true' });
    assert.equal(refused.status, 403);
    assert.match(threadBox(refused.body, rootId), /role="alert">Must have push access or be the author of the pull request to resolve a conversation\.</);
    assert.equal((await threads())[0]!.isResolved, false, 'nothing changed');

    const shown = await page(aliceWeb, base);
    assert.match(threadBox(shown.body, rootId), new RegExp(`action="${base}/threads/${rootId}/resolve" class="resolve-form">[\\s\\S]*?name="resolved" value="true"[^>]*>Resolve conversation<`));
    const token = csrfIn(shown.body);
    assert.equal((await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { resolved: 'true' })).status, 403, 'no token');
    const bad = await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: token, resolved: 'maybe' });
    assert.equal(bad.status, 422);
    assert.match(threadBox(bad.body, rootId), /Choose Resolve or Unresolve/);
    const reply = (await commentsOf()).find((c) => c.in_reply_to_id === rootId)!;
    assert.equal((await aliceWeb.post(`${base}/threads/${reply.id}/resolve`, { authenticity_token: token, resolved: 'true' })).status, 404, 'a reply starts no thread');
    assert.equal((await aliceWeb.post(`/${alice.login}/${repo}/pull/${number + 1}/threads/${rootId}/resolve`, { authenticity_token: token, resolved: 'true' })).status, 404, 'another pull request\'s address');
    assert.equal((await threads())[0]!.isResolved, false, 'still nothing changed');

    const done = await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: token, resolved: 'true' });
    assert.equal(done.status, 303);
    assert.equal(done.location, `${base}#thread-${rootId}`);
    const [thread] = await threads();
    assert.deepEqual([thread!.isResolved, thread!.resolvedBy?.login], [true, alice.login]);
    const folded = await page(bobWeb, base);
    assert.match(threadBox(folded.body, rootId), new RegExp(`^<details [^>]*data-resolved="true"><summary class="muted"><span class="badge ok" data-badge="resolved">Resolved</span> by ${alice.login} `));
    const twice = await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: token, resolved: 'true' });
    assert.equal(twice.status, 303, 'a form sent twice changes nothing more');

    const reopened = await aliceWeb.post(`${base}/threads/${rootId}/resolve`, { authenticity_token: token, resolved: 'false' });
    assert.equal(reopened.status, 303);
    assert.equal((await threads())[0]!.isResolved, false);
    assert.match(threadBox((await page(aliceWeb, base)).body, rootId), /data-resolved="false"[\s\S]*>Resolve conversation</);
  });

  test('a private repository\'s thread forms are a 404 to outsiders; signed out is sent to sign in', async () => {
    const at = `/${alice.login}/${vault}/pull/${vaultNumber}`;
    const token = csrfIn((await page(bobWeb, base)).body);
    const reply = await bobWeb.post(`${at}/comments/${vaultRootId}/replies`, { authenticity_token: token, body: 'Peek' });
    assert.equal(reply.status, 404);
    assert.doesNotMatch(reply.body, /Secret feature|Hidden/);
    assert.equal((await bobWeb.post(`${at}/threads/${vaultRootId}/resolve`, { authenticity_token: token, resolved: 'true' })).status, 404);
    // The private thread's id under the public pull request's address is no way in either.
    assert.equal((await bobWeb.post(`${base}/threads/${vaultRootId}/resolve`, { authenticity_token: token, resolved: 'true' })).status, 404);
    assert.equal((await bobWeb.post(`${base}/comments/${vaultRootId}/replies`, { authenticity_token: token, body: 'Peek' })).status, 404);
    const anonymous = await new WebClient(t).post(`${base}/comments/${rootId}/replies`, { body: 'Hi' });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.location ?? '', /^\/login/);
    assert.equal((await commentsOf(vault, vaultNumber)).length, 1, 'nothing added');
  });

  test('reactions on a submitted review: shown under it, added and taken back; refusals inline with nothing changed', async () => {
    const kit = t.octokit(alice.token);
    const { data: review } = await kit.rest.pulls.createReview({ owner: alice.login, repo, pull_number: number, body: 'Looks **fine**', event: 'COMMENT' });
    const reactionsOf = async () => (await gql(t, alice.token)<{ node: { reactions: { nodes: { content: string; user: { login: string } }[] } } }>(
      'query($id: ID!) { node(id: $id) { ... on PullRequestReview { reactions(first: 10) { nodes { content user { login } } } } } }', { id: review.node_id },
    )).node.reactions.nodes.map((r) => [r.content, r.user.login]);
    const bar = (html: string) => new RegExp(`<form [^>]*id="reactions-review-${review.id}"[\\s\\S]*?</form>`).exec(html)?.[0] ?? '';
    const shown = await page(bobWeb, base);
    const box = new RegExp(`<article [^>]*id="review-${review.id}"[\\s\\S]*?</article>`).exec(shown.body)?.[0] ?? '';
    assert.match(box, /Looks <strong>fine<\/strong>[\s\S]*class="reactions" id="reactions-review-/, 'under the review\'s body');
    assert.match(bar(shown.body), new RegExp(`action="${base}/reviews/${review.id}/reactions"`));
    assert.match(bar(shown.body), /value="heart:add" aria-pressed="false"/);
    const at = `${base}/reviews/${review.id}/reactions`;
    const token = csrfIn(shown.body);

    const bad = await bobWeb.post(at, { authenticity_token: token, reaction: 'shrug:add' });
    assert.equal(bad.status, 422);
    assert.match(bar(bad.body), /role="alert">Choose one of the reactions\.</, 'in the review\'s bar');
    assert.equal((await bobWeb.post(at, { reaction: 'heart:add' })).status, 403, 'no token');
    assert.equal((await bobWeb.post(at, { authenticity_token: 'b'.repeat(64), reaction: 'heart:add' })).status, 403, 'forged token');
    const { data: pending } = await kit.rest.pulls.createReview({ owner: alice.login, repo, pull_number: number, body: 'draft' });
    assert.equal((await bobWeb.post(`${base}/reviews/${pending.id}/reactions`, { authenticity_token: token, reaction: 'heart:add' })).status, 404, 'a pending review is its author\'s alone');
    assert.equal((await aliceWeb.post(`${base}/reviews/${pending.id}/reactions`, { authenticity_token: csrfIn((await page(aliceWeb, base)).body), reaction: 'heart:add' })).status, 404, 'nor a subject of reactions to its author before it is submitted (the reactions service finds submitted reviews only)');
    await kit.rest.pulls.deletePendingReview({ owner: alice.login, repo, pull_number: number, review_id: pending.id });
    assert.equal((await bobWeb.post(`/${alice.login}/${repo}/pull/${number + 1}/reviews/${review.id}/reactions`, { authenticity_token: token, reaction: 'heart:add' })).status, 404, 'another pull request\'s address');
    assert.deepEqual(await reactionsOf(), [], 'nothing added');

    const added = await bobWeb.post(at, { authenticity_token: token, reaction: 'heart:add' });
    assert.equal(added.status, 303);
    assert.equal(added.location, `${base}#review-${review.id}`);
    assert.deepEqual(await reactionsOf(), [['HEART', bob.login]]);
    assert.match(bar((await page(bobWeb, base)).body), /value="heart:remove" aria-pressed="true"[^>]*aria-label="heart: 1, yours \(take back\)"/);
    assert.match((await page(new WebClient(t), base)).body, new RegExp(`<ul class="reactions" id="reactions-review-${review.id}" aria-label="Reactions"><li class="badge" data-content="heart"`), 'counts alone for those signed out');
    assert.equal((await bobWeb.post(at, { authenticity_token: token, reaction: 'heart:remove' })).status, 303);
    assert.deepEqual(await reactionsOf(), []);
  });

  test('a private repository\'s review reactions are a 404 to outsiders', async () => {
    const { data: review } = await t.octokit(alice.token).rest.pulls.createReview({ owner: alice.login, repo: vault, pull_number: vaultNumber, body: 'Secret review', event: 'COMMENT' });
    const token = csrfIn((await page(bobWeb, base)).body);
    const res = await bobWeb.post(`/${alice.login}/${vault}/pull/${vaultNumber}/reviews/${review.id}/reactions`, { authenticity_token: token, reaction: 'heart:add' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.body, /Secret/);
    assert.equal((await bobWeb.post(`${base}/reviews/${review.id}/reactions`, { authenticity_token: token, reaction: 'heart:add' })).status, 404, 'nor under the public pull request\'s address');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the author replies to a thread and resolves it; axe finds nothing serious', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForSelector(`#thread-${rootId}`);
      const thread = p.locator(`#thread-${rootId}`);
      await thread.locator('summary', { hasText: 'Reply' }).click();
      await thread.getByLabel('Reply').fill('From the browser');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      await thread.getByRole('button', { name: 'Reply' }).click();
      await p.waitForSelector('article.review-comment:has-text("From the browser")');
      assert.ok((await commentsOf()).some((c) => c.body === 'From the browser' && c.in_reply_to_id === rootId));
      await p.locator(`#thread-${rootId}`).getByRole('button', { name: 'Resolve conversation' }).click();
      await p.waitForSelector(`#thread-${rootId}[data-resolved="true"]`, { state: 'attached' });
      assert.equal((await threads())[0]!.isResolved, true);
      await context.close();
    });
  });
});
