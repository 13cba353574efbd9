// The conversation forms of the web interface: a pull request's "Review changes" form
// (through the pulls review service, with the API's rules: no approving or requesting
// changes on one's own pull request, a body for Request changes and Comment) and the
// reaction buttons of issues, pull requests and their comments (through the reactions
// service). Each success is checked through the API afterwards; each refusal is
// answered inline and changes nothing; forged posts are refused; a private
// repository's forms are a 404 to outsiders. Headless Chromium submits a review.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { repoWithFeature } from './factories/pulls.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: reviews and reactions', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  const repo = 'dock';
  let base: string;
  let pull: number;
  let privatePull: number;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const reviewsOf = async (name: string, number: number) =>
    (await t.octokit(alice.token).rest.pulls.listReviews({ owner: alice.login, repo: name, pull_number: number })).data;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    await repoWithFeature(t, alice, {}, repo);
    await repoWithFeature(t, alice, { private: true }, 'vault');
    base = `/${alice.login}/${repo}`;
    const kit = t.octokit(alice.token);
    pull = (await kit.rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Feature work', body: 'Please look' })).data.number;
    privatePull = (await kit.rest.pulls.create({ owner: alice.login, repo: 'vault', head: 'feature', base: 'main', title: 'Secret work' })).data.number;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the review form: the author may only comment; the API\'s refusals come back inline and change nothing', async () => {
    const own = await page(aliceWeb, `${base}/pull/${pull}`);
    assert.equal(own.status, 200);
    assert.match(own.body, /<form method="post" action="[^"]+\/pull\/\d+\/reviews"[^>]*id="review-form"/);
    assert.match(own.body, /id="review-event-approve" disabled=""/, 'Approve is not offered to the author');
    assert.match(own.body, /id="review-event-request_changes" disabled=""/);
    assert.doesNotMatch(own.body, /id="review-event-comment" disabled/);
    const token = csrfIn(own.body);
    const at = `${base}/pull/${pull}/reviews`;

    for (const [event, message] of [['APPROVE', 'Can not approve your own pull request'], ['REQUEST_CHANGES', 'Can not request changes on your own pull request']]) {
      const res = await aliceWeb.post(at, { authenticity_token: token, body: 'Looks fine to me', event: event! });
      assert.equal(res.status, 422, event);
      assert.match(res.body, /<div class="flash error" role="alert">/);
      assert.ok(res.body.includes(message!), message);
      assert.match(res.body, /Looks fine to me<\/textarea>/, 'the form comes back as typed');
    }
    const bobToken = csrfIn((await page(bobWeb, `${base}/pull/${pull}`)).body);
    const noBody = await bobWeb.post(at, { authenticity_token: bobToken, body: '  ', event: 'REQUEST_CHANGES' });
    assert.equal(noBody.status, 422);
    assert.match(noBody.body, /Body is required when requesting changes/);
    assert.match(noBody.body, /id="review-event-request_changes" checked=""/, 'the choice is kept');
    const emptyComment = await bobWeb.post(at, { authenticity_token: bobToken, body: '', event: 'COMMENT' });
    assert.equal(emptyComment.status, 422);
    assert.match(emptyComment.body, /Body is required when commenting/);
    const unknown = await bobWeb.post(at, { authenticity_token: bobToken, body: 'Hm', event: 'MERGE' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body, /Choose Comment, Approve or Request changes/);

    assert.equal((await bobWeb.post(at, { body: 'Forged', event: 'APPROVE' })).status, 403, 'no CSRF token');
    assert.equal((await bobWeb.post(at, { authenticity_token: token, body: 'Forged', event: 'APPROVE' })).status, 403, 'another session\'s token');
    assert.equal((await new WebClient(t).post(at, { authenticity_token: bobToken, body: 'Anonymous', event: 'COMMENT' })).status, 302, 'signed out: to the sign-in page');
    assert.deepEqual(await reviewsOf(repo, pull), [], 'nothing was submitted');
  });

  test('a review submitted from the page is the API\'s review, shown in the conversation with its state', async () => {
    const at = `${base}/pull/${pull}/reviews`;
    const token = csrfIn((await page(bobWeb, `${base}/pull/${pull}`)).body);
    const changes = await bobWeb.post(at, { authenticity_token: token, body: 'Please rename **this**', event: 'REQUEST_CHANGES' });
    assert.equal(changes.status, 303);
    const approve = await bobWeb.post(at, { authenticity_token: token, body: 'Now it is good', event: 'APPROVE' });
    assert.equal(approve.status, 303);
    const mine = await aliceWeb.post(at, { authenticity_token: csrfIn((await page(aliceWeb, `${base}/pull/${pull}`)).body), body: 'Thanks both', event: 'COMMENT' });
    assert.equal(mine.status, 303);

    const reviews = await reviewsOf(repo, pull);
    assert.deepEqual(reviews.map((r) => [r.user?.login, r.state, r.body]), [
      [bob.login, 'CHANGES_REQUESTED', 'Please rename **this**'],
      [bob.login, 'APPROVED', 'Now it is good'],
      [alice.login, 'COMMENTED', 'Thanks both'],
    ]);
    assert.equal(approve.location, `${base}/pull/${pull}#review-${reviews[1]!.id}`);
    const { data: pr } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: pull });
    assert.equal(reviews[1]!.commit_id, pr.head.sha, 'on the head commit, as the API\'s default');

    const shown = await page(bobWeb, `${base}/pull/${pull}`);
    const box = (id: number) => new RegExp(`<article class="comment box review" id="review-${id}" data-state="([A-Z_]+)">[\\s\\S]*?</article>`).exec(shown.body)?.[0] ?? '';
    assert.match(box(reviews[0]!.id), /requested changes[\s\S]*class="badge review-state state-changes_requested">Changes requested</);
    assert.match(box(reviews[0]!.id), /Please rename <strong>this<\/strong>/, 'the body is rendered');
    assert.match(box(reviews[1]!.id), /approved these changes[\s\S]*>Approved</);
    assert.match(box(reviews[2]!.id), new RegExp(`${alice.login}</a> reviewed`));
    const order = reviews.map((r) => shown.body.indexOf(`id="review-${r.id}"`));
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in the order they were submitted');
    assert.ok(order[0]! > shown.body.indexOf('id="issue-body"'), 'after the pull request\'s description');
  });

  test('a private repository\'s review form is a 404 to an outsider, and nothing is submitted', async () => {
    const at = `/${alice.login}/vault/pull/${privatePull}`;
    assert.equal((await page(bobWeb, at)).status, 404);
    const token = csrfIn((await page(bobWeb, base)).body);
    const res = await bobWeb.post(`${at}/reviews`, { authenticity_token: token, body: 'Peeking', event: 'COMMENT' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.body, /Secret work/);
    assert.deepEqual(await reviewsOf('vault', privatePull), []);
    const aliceToken = csrfIn((await page(aliceWeb, at)).body);
    assert.equal((await aliceWeb.post(`${at}/reviews`, { authenticity_token: aliceToken, body: 'Noted', event: 'COMMENT' })).status, 303, 'the owner may');
    assert.deepEqual((await reviewsOf('vault', privatePull)).map((r) => r.state), ['COMMENTED']);
  });

  test('reaction buttons leave and take back the viewer\'s reaction on an issue, a pull request and their comments', async () => {
    const kit = t.octokit(alice.token).rest;
    const r = { owner: alice.login, repo };
    const { data: issue } = await kit.issues.create({ ...r, title: 'Reactable' });
    const { data: comment } = await kit.issues.createComment({ ...r, issue_number: issue.number, body: 'A comment' });
    const { data: other } = await kit.issues.create({ ...r, title: 'Elsewhere' });
    await kit.reactions.createForIssue({ ...r, issue_number: issue.number, content: '+1' });
    const at = `${base}/issues/${issue.number}`;
    const shown = await page(bobWeb, at);
    const bar = /<form method="post" action="[^"]+\/reactions" class="reactions" id="reactions-issue"[\s\S]*?<\/form>/.exec(shown.body)?.[0] ?? '';
    assert.equal([...bar.matchAll(/<button type="submit" name="reaction"/g)].length, 8, 'a button for each of the eight reactions');
    assert.match(bar, /value="\+1:add" aria-pressed="false" data-content="\+1" aria-label="thumbs up: 1">👍 1</);
    const token = csrfIn(shown.body);
    const issueReactions = async () => (await kit.reactions.listForIssue({ ...r, issue_number: issue.number })).data.map((x) => [x.user?.login, x.content]);

    const heart = await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: 'heart:add' });
    assert.equal(heart.status, 303);
    assert.equal(heart.location, `${at}#issue-body`);
    assert.deepEqual(await issueReactions(), [[alice.login, '+1'], [bob.login, 'heart']]);
    assert.equal((await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: '+1:add' })).status, 303);
    const after = await page(bobWeb, at);
    assert.match(after.body, /value="heart:remove" aria-pressed="true" data-content="heart" aria-label="heart: 1, yours \(take back\)">❤️ 1</);
    assert.match(after.body, /value="\+1:remove" aria-pressed="true"[^>]*>👍 2</);
    assert.equal((await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: 'heart:add' })).status, 303, 'the same form sent again');
    assert.deepEqual(await issueReactions(), [[alice.login, '+1'], [bob.login, 'heart'], [bob.login, '+1']], 'changes nothing');
    assert.equal((await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: 'heart:remove' })).status, 303);
    assert.deepEqual(await issueReactions(), [[alice.login, '+1'], [bob.login, '+1']]);

    const onComment = await bobWeb.post(`${at}/comments/${comment.id}/reactions`, { authenticity_token: token, reaction: 'rocket:add' });
    assert.equal(onComment.status, 303);
    assert.equal(onComment.location, `${at}#comment-${comment.id}`);
    const { data: commentReactions } = await kit.reactions.listForIssueComment({ ...r, comment_id: comment.id });
    assert.deepEqual(commentReactions.map((x) => [x.user?.login, x.content]), [[bob.login, 'rocket']]);
    assert.match((await page(bobWeb, at)).body, /id="reactions-comment-\d+"[\s\S]*?value="rocket:remove" aria-pressed="true"[^>]*>🚀 1</);
    assert.equal((await bobWeb.post(`${base}/issues/${other.number}/comments/${comment.id}/reactions`, { authenticity_token: token, reaction: 'eyes:add' })).status, 404, 'a comment of another issue');

    const { data: prComment } = await kit.issues.createComment({ ...r, issue_number: pull, body: 'On the pull request' });
    const onPull = await bobWeb.post(`${base}/pull/${pull}/reactions`, { authenticity_token: token, reaction: 'eyes:add' });
    assert.equal(onPull.location, `${base}/pull/${pull}#issue-body`);
    assert.equal((await bobWeb.post(`${base}/pull/${pull}/comments/${prComment.id}/reactions`, { authenticity_token: token, reaction: 'hooray:add' })).status, 303);
    assert.deepEqual((await kit.reactions.listForIssue({ ...r, issue_number: pull })).data.map((x) => x.content), ['eyes']);
    assert.deepEqual((await kit.reactions.listForIssueComment({ ...r, comment_id: prComment.id })).data.map((x) => x.content), ['hooray']);

    const anonymous = await page(new WebClient(t), at);
    assert.doesNotMatch(anonymous.body, /name="reaction"/, 'no buttons for readers who are not signed in');
    assert.match(anonymous.body, /<ul class="reactions" id="reactions-issue" aria-label="Reactions"><li class="badge" data-content="\+1" aria-label="thumbs up: 2">👍 2<\/li><\/ul>/);
  });

  test('refused reactions answer inline in their bar and change nothing; forged posts are refused; a private repository is a 404', async () => {
    const kit = t.octokit(alice.token).rest;
    await kit.repos.createForAuthenticatedUser({ name: 'shed', auto_init: true });
    const { data: issue } = await kit.issues.create({ owner: alice.login, repo: 'shed', title: 'Soon archived' });
    const at = `/${alice.login}/shed/issues/${issue.number}`;
    const token = csrfIn((await page(bobWeb, at)).body);
    const count = async () => (await kit.reactions.listForIssue({ owner: alice.login, repo: 'shed', issue_number: issue.number })).data.length;

    const unknown = await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: 'smile:add' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body, /id="reactions-issue"[^>]*><input type="hidden" name="authenticity_token"[^>]*><div class="flash error" role="alert">Choose one of the reactions\.<\/div>/);
    assert.equal((await bobWeb.post(`${at}/reactions`, { reaction: 'heart:add' })).status, 403, 'no CSRF token');
    assert.equal((await bobWeb.post(`${at}/reactions`, { authenticity_token: 'f'.repeat(64), reaction: 'heart:add' })).status, 403, 'a forged token');

    await kit.repos.update({ owner: alice.login, repo: 'shed', archived: true });
    const archived = await bobWeb.post(`${at}/reactions`, { authenticity_token: token, reaction: 'heart:add' });
    assert.equal(archived.status, 403, 'as the API answers on an archived repository');
    assert.match(archived.body, /<article class="comment box" id="issue-body">[\s\S]*role="alert">Repository was archived so is read-only\.<\/div><\/article>/, 'in the issue\'s box');
    assert.equal(await count(), 0, 'nothing was left');
    const api = await t.request(`/repos/${alice.login}/shed/issues/${issue.number}/reactions`, { method: 'POST', token: bob.token, json: { content: 'heart' } });
    assert.equal(api.status, 403, 'the API refuses it the same way');

    const secret = `/${alice.login}/vault/pull/${privatePull}/reactions`;
    const hidden = await bobWeb.post(secret, { authenticity_token: token, reaction: 'heart:add' });
    assert.equal(hidden.status, 404);
    assert.deepEqual((await kit.reactions.listForIssue({ owner: alice.login, repo: 'vault', issue_number: privatePull })).data, []);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('a reviewer requests changes and reacts from the page', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}/pull/${pull}`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', bob.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForSelector('#review-body');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the review form and reaction buttons are accessible');
      await p.fill('#review-body', 'Changes from the browser');
      await p.check('#review-event-request_changes');
      await p.click('#review-submit');
      await p.waitForSelector('article.review[data-state="CHANGES_REQUESTED"]:has-text("Changes from the browser")');
      const last = (await reviewsOf(repo, pull)).at(-1)!;
      assert.deepEqual([last.user?.login, last.state, last.body], [bob.login, 'CHANGES_REQUESTED', 'Changes from the browser']);
      assert.ok(p.url().endsWith(`#review-${last.id}`));
      await p.click('#reactions-issue button[data-content="hooray"]');
      await p.waitForSelector('#reactions-issue button[data-content="hooray"][aria-pressed="true"]');
      const { data: reactions } = await t.octokit(alice.token).rest.reactions.listForIssue({ owner: alice.login, repo, issue_number: pull, content: 'hooray' });
      assert.deepEqual(reactions.map((x) => x.user?.login), [bob.login]);
      await context.close();
    });
  });
});
