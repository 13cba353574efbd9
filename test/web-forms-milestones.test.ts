// The milestone forms of the web interface: new (/{o}/{r}/milestones/new), edit
// (/{o}/{r}/milestones/{n}/edit), close and reopen, through the milestones service, for
// those it lets write (push access). Each success is checked through the API; each
// refusal comes back inline and changes nothing; forged posts are refused; a read-only
// collaborator is refused as the API refuses them (403 on a post, no forms), an outsider
// sees a private repository's forms as 404. Headless Chromium makes and closes one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createRepo } from './factories/issues.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: milestones', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  const repo = 'quay';
  /** An organization of alice's: only there may a collaborator be given read access alone. */
  let owner: string;
  let base: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const milestonesOf = async (name = repo) =>
    (await t.octokit(alice.token).rest.issues.listMilestones({ owner: name === repo ? owner : alice.login, repo: name, state: 'all' })).data;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    for (const u of [alice, bob, carol]) await setPassword(t, u.login, PASSWORD);
    owner = (await createOrg(t, alice.login)).login;
    await createRepo(t, alice, { name: repo, org: owner });
    await createRepo(t, alice, { name: 'vault', private: true });
    await addCollaborator(t, alice.token, { owner, repo }, carol, 'pull');
    base = `/${owner}/${repo}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    carolWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
    assert.equal((await carolWeb.signIn(carol.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the new-milestone form: offered to writers only; refusals inline with nothing made; then the API\'s milestone', async () => {
    assert.match((await page(aliceWeb, `${base}/milestones`)).body, new RegExp(`href="${base}/milestones/new" id="new-milestone"`));
    assert.doesNotMatch((await page(carolWeb, `${base}/milestones`)).body, /id="new-milestone"/, 'not for a read-only collaborator');
    assert.doesNotMatch((await page(new WebClient(t), `${base}/milestones`)).body, /id="new-milestone"/);
    const signedOut = await page(new WebClient(t), `${base}/milestones/new`);
    assert.equal(signedOut.status, 302);
    assert.match(signedOut.location ?? '', /^\/login\?return_to=/);
    assert.equal((await page(carolWeb, `${base}/milestones/new`)).status, 404, 'as upstream, the form is not there for a reader');

    const form = await page(aliceWeb, `${base}/milestones/new`);
    assert.equal(form.status, 200);
    assert.match(form.body, new RegExp(`<form method="post" action="${base}/milestones" class="box" id="new-milestone-form"`));
    const token = csrfIn(form.body);
    const blank = await aliceWeb.post(`${base}/milestones`, { authenticity_token: token, title: ' ', description: 'Kept words', due_on: '' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /<div class="flash error" role="alert">title is missing<\/div>/);
    assert.match(blank.body, /Kept words<\/textarea>/);
    const badDate = await aliceWeb.post(`${base}/milestones`, { authenticity_token: token, title: 'Dated', due_on: 'someday' });
    assert.equal(badDate.status, 422);
    assert.match(badDate.body, /role="alert">due_on is invalid</);
    assert.match(badDate.body, /value="someday"/);
    assert.equal((await aliceWeb.post(`${base}/milestones`, { title: 'No token' })).status, 403);
    assert.equal((await aliceWeb.post(`${base}/milestones`, { authenticity_token: 'a'.repeat(64), title: 'Forged' })).status, 403);
    assert.deepEqual(await milestonesOf(), [], 'nothing was made');

    const made = await aliceWeb.post(`${base}/milestones`, { authenticity_token: token, title: 'v2.0', due_on: '2031-05-04', description: 'The **second** one' });
    assert.equal(made.status, 303);
    const [m] = await milestonesOf();
    assert.ok(m);
    assert.deepEqual([m.title, m.description, m.state, m.creator?.login], ['v2.0', 'The **second** one', 'open', alice.login]);
    assert.equal(m.due_on?.slice(0, 10), '2031-05-04');
    assert.equal(made.location, new URL(m.html_url).pathname, 'to its html_url');
    const shown = await page(aliceWeb, made.location!);
    assert.match(shown.body, /The <strong>second<\/strong> one/);
    assert.match(shown.body, new RegExp(`href="${base}/milestones/${m.number}/edit" class="button"|class="button" href="${base}/milestones/${m.number}/edit"`));

    const twice = await aliceWeb.post(`${base}/milestones`, { authenticity_token: token, title: 'v2.0' });
    assert.equal(twice.status, 422);
    assert.match(twice.body, /role="alert">title already exists</);
    assert.equal((await milestonesOf()).length, 1);
  });

  test('the edit form, close and reopen: the API\'s milestone changes; refusals inline change nothing', async () => {
    const kit = t.octokit(alice.token).rest.issues;
    const { data: m } = await kit.createMilestone({ owner, repo, title: 'Edit me', due_on: '2030-01-15T00:00:00Z', description: 'Before' });
    const at = `${base}/milestones/${m.number}`;
    const form = await page(aliceWeb, `${at}/edit`);
    assert.equal(form.status, 200);
    assert.match(form.body, /id="milestone-title-field" name="title" required="" value="Edit me"/);
    assert.match(form.body, /type="date" id="milestone-due-field" name="due_on" value="2030-01-15"/);
    assert.match(form.body, />Before<\/textarea>/);
    assert.equal((await page(carolWeb, `${at}/edit`)).status, 404);
    assert.equal((await page(aliceWeb, `${base}/milestones/999/edit`)).status, 404);
    const token = csrfIn(form.body);
    const get = async () => (await kit.getMilestone({ owner, repo, milestone_number: m.number })).data;

    const blank = await aliceWeb.post(at, { authenticity_token: token, title: '', due_on: '', description: 'Typed' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /id="edit-milestone-form"[\s\S]*role="alert">title is missing</);
    assert.match(blank.body, />Typed<\/textarea>/);
    const badState = await aliceWeb.post(at, { authenticity_token: token, state: 'gone' });
    assert.equal(badState.status, 422);
    assert.match(badState.body, /role="alert">state is invalid</);
    assert.deepEqual([(await get()).title, (await get()).state, (await get()).description], ['Edit me', 'open', 'Before'], 'unchanged');

    const saved = await aliceWeb.post(at, { authenticity_token: token, title: 'Edited', due_on: '', description: '' });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `${base}/milestone/${m.number}`);
    const edited = await get();
    assert.deepEqual([edited.title, edited.due_on, edited.description, edited.state], ['Edited', null, null, 'open'], 'an emptied date and description are cleared');

    const page1 = await page(aliceWeb, `${base}/milestone/${m.number}`);
    assert.match(page1.body, /<input type="hidden" name="state" value="closed"\/><button type="submit" class="secondary" id="close-milestone">Close milestone/);
    const closed = await aliceWeb.post(at, { authenticity_token: token, state: 'closed' });
    assert.equal(closed.status, 303);
    const after = await get();
    assert.equal(after.state, 'closed');
    assert.ok(after.closed_at);
    assert.equal(after.title, 'Edited', 'the state alone changed');
    assert.match((await page(aliceWeb, `${base}/milestone/${m.number}`)).body, /id="reopen-milestone">Reopen milestone/);
    assert.equal((await aliceWeb.post(at, { authenticity_token: token, state: 'open' })).status, 303);
    assert.deepEqual([(await get()).state, (await get()).closed_at], ['open', null]);
  });

  test('a read-only collaborator is refused as the API refuses them; an outsider sees a private repository\'s forms as 404', async () => {
    const { data: m } = await t.octokit(alice.token).rest.issues.createMilestone({ owner, repo, title: 'Guarded' });
    const token = csrfIn((await page(carolWeb, `${base}/milestones`)).body);
    const api = await t.request(`/repos/${owner}/${repo}/milestones`, { method: 'POST', token: carol.token, json: { title: 'By carol' } });
    assert.equal(api.status, 403, 'the API');
    const made = await carolWeb.post(`${base}/milestones`, { authenticity_token: token, title: 'By carol' });
    assert.equal(made.status, 403, 'the form');
    assert.match(made.body, /role="alert"/);
    const closed = await carolWeb.post(`${base}/milestones/${m.number}`, { authenticity_token: token, state: 'closed' });
    assert.equal(closed.status, 403);
    const list = await milestonesOf();
    assert.ok(!list.some((x) => x.title === 'By carol'), 'nothing was made');
    assert.equal(list.find((x) => x.number === m.number)?.state, 'open', 'nor closed');

    const { data: secret } = await t.octokit(alice.token).rest.issues.createMilestone({ owner: alice.login, repo: 'vault', title: 'Secret plan' });
    const vault = `/${alice.login}/vault`;
    const bobToken = csrfIn((await page(bobWeb, base)).body);
    assert.equal((await page(bobWeb, `${vault}/milestones/new`)).status, 404);
    assert.equal((await page(bobWeb, `${vault}/milestones/${secret.number}/edit`)).status, 404);
    const hidden = await bobWeb.post(`${vault}/milestones`, { authenticity_token: bobToken, title: 'Peeking' });
    assert.equal(hidden.status, 404);
    assert.doesNotMatch(hidden.body, /Secret plan/);
    assert.equal((await bobWeb.post(`${vault}/milestones/${secret.number}`, { authenticity_token: bobToken, state: 'closed' })).status, 404);
    const inVault = await milestonesOf('vault');
    assert.deepEqual(inVault.map((x) => [x.title, x.state]), [['Secret plan', 'open']]);
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('make a milestone from the list, then close it', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}/milestones`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.click('#new-milestone');
      await p.fill('#milestone-title-field', 'From the browser');
      await p.fill('#milestone-due-field', '2032-02-29');
      await p.fill('#milestone-description-field', 'Made with a click');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the form is accessible');
      await p.click('#create-milestone');
      await p.waitForSelector('#milestone-title');
      const made = (await milestonesOf()).find((x) => x.title === 'From the browser')!;
      assert.deepEqual([made.description, made.due_on?.slice(0, 10)], ['Made with a click', '2032-02-29']);
      assert.equal(p.url(), made.html_url);
      await p.click('#close-milestone');
      await p.waitForSelector('#milestone-state:text-is("Closed")');
      assert.equal((await milestonesOf()).find((x) => x.number === made.number)?.state, 'closed');
      await context.close();
    });
  });
});
