// The release forms' make_latest choice and their Generate release notes button (the web
// interface): the notes are the ones POST …/releases/generate-notes makes, put in the
// form's body below what it said, nothing saved; make_latest as the API takes it (yes, no,
// by date and version), checked through GET …/releases/latest; an unknown choice refused
// inline with nothing changed; readers get a 404, forged posts a 403. Headless Chromium
// generates notes (the page has no script: the button posts the form), with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { repoWithFeature } from './factories/pulls.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: release notes and the latest release', () => {
  let t: TestServer;
  let alice: CreatedUser;
  /** No role on the public repository. */
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let repo: string;
  let base: string;
  let pullUrl: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(alice.token).rest;
  const releases = async () => (await kit().repos.listReleases({ owner: alice.login, repo })).data;
  const latest = async () => (await kit().repos.getLatestRelease({ owner: alice.login, repo })).data.tag_name;
  const bodyField = (html: string) => /<textarea id="release-body-field" name="body" rows="10">([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? null;
  const checkedLatest = (html: string) => /<input type="radio" id="release-latest-(\w+)" name="make_latest" checked=""/.exec(html)?.[1] ?? null;
  const form = (token: string, fields: Record<string, string>) => ({ authenticity_token: token, target_commitish: 'main', name: '', body: '', ...fields });

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    repo = (await repoWithFeature(t, alice)).clone.repo;
    const { data: pull } = await kit().pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main', title: 'Shiny feature' });
    await kit().pulls.merge({ owner: alice.login, repo, pull_number: pull.number });
    pullUrl = pull.html_url;
    base = `/${alice.login}/${repo}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    for (const [c, u] of [[aliceWeb, alice], [bobWeb, bob]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('Generate release notes: the API\'s notes in the body, below what it said; nothing saved; refusals inline', async () => {
    const shown = await page(aliceWeb, `${base}/releases/new`);
    assert.equal(checkedLatest(shown.body), 'true', 'latest by default, as the API');
    assert.match(shown.body, /id="publish-release">Save release<\/button> <button type="submit" name="generate_notes" value="1" class="secondary" id="generate-notes">/, 'after Save: Enter saves');
    const token = csrfIn(shown.body);
    const { data: api } = await kit().repos.generateReleaseNotes({ owner: alice.login, repo, tag_name: 'v1.0.0', target_commitish: 'main' });
    assert.match(api.body, /Shiny feature/);

    const filled = await aliceWeb.post(`${base}/releases`, form(token, { tag_name: 'v1.0.0', body: 'Intro', make_latest: 'false', generate_notes: '1' }));
    assert.equal(filled.status, 200);
    const body = bodyField(filled.body)!.replace(/&#x27;/g, '\'').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    assert.equal(body, `Intro\n\n${api.body}`);
    assert.ok(body.includes(`in ${pullUrl}`));
    assert.match(filled.body, /id="release-name-field" name="name"[^>]* value="v1\.0\.0"/, 'titled by the notes when the form had no title');
    assert.equal(checkedLatest(filled.body), 'false', 'the other fields as typed');
    assert.match(filled.body, /id="release-tag-field" name="tag_name"[^>]* value="v1\.0\.0"/);
    assert.deepEqual(await releases(), [], 'nothing saved');

    const noTag = await aliceWeb.post(`${base}/releases`, form(token, { tag_name: '', body: 'Kept', generate_notes: '1' }));
    assert.equal(noTag.status, 422);
    assert.match(noTag.body, /role="alert">[^<]*tag_name/);
    assert.equal(bodyField(noTag.body), 'Kept');
    const asApi = await t.request(`/repos/${alice.login}/${repo}/releases/generate-notes`, { method: 'POST', token: bob.token, json: { tag_name: 'v1' } });
    const asPage = await bobWeb.post(`${base}/releases`, form(csrfIn((await page(bobWeb, '/')).body), { tag_name: 'v1', generate_notes: '1' }));
    assert.ok(asApi.status === 403 || asApi.status === 404, `the API refuses a reader: ${asApi.status}`);
    assert.equal(asPage.status, asApi.status, 'and so does the page');
    assert.doesNotMatch(asPage.body, /Shiny feature/, 'no notes for a reader');
    assert.equal((await aliceWeb.post(`${base}/releases`, { tag_name: 'v1', generate_notes: '1' })).status, 403, 'no token');
    assert.deepEqual(await releases(), []);
  });

  test('make_latest: no keeps the latest where it was, yes on edit moves it; an unknown choice refused with nothing changed', async () => {
    const token = csrfIn((await page(aliceWeb, `${base}/releases/new`)).body);
    assert.equal((await aliceWeb.post(`${base}/releases`, form(token, { tag_name: 'v1', make_latest: 'true' }))).status, 303);
    assert.equal((await aliceWeb.post(`${base}/releases`, form(token, { tag_name: 'v2', make_latest: 'false' }))).status, 303);
    assert.equal(await latest(), 'v1', 'v2 not made the latest');
    const bad = await aliceWeb.post(`${base}/releases`, form(token, { tag_name: 'v3', make_latest: 'sometimes' }));
    assert.equal(bad.status, 422);
    assert.match(bad.body, /role="alert">Choose whether this is the latest release/);
    assert.deepEqual((await releases()).map((r) => r.tag_name).sort(), ['v1', 'v2'], 'nothing made');

    const edit = await page(aliceWeb, `${base}/releases/edit/v2`);
    assert.equal(checkedLatest(edit.body), 'false', 'the stored choice');
    const v2 = (await releases()).find((r) => r.tag_name === 'v2')!;
    const refused = await aliceWeb.post(`${base}/releases/${v2.id}`, form(token, { tag_name: 'v2', make_latest: 'always' }));
    assert.equal(refused.status, 422);
    assert.equal(await latest(), 'v1');
    assert.equal((await aliceWeb.post(`${base}/releases/${v2.id}`, form(token, { tag_name: 'v2', make_latest: 'true' }))).status, 303);
    assert.equal(await latest(), 'v2');
    assert.equal(checkedLatest((await page(aliceWeb, `${base}/releases/edit/v2`)).body), 'true');

    const notes = await aliceWeb.post(`${base}/releases/${v2.id}`, form(token, { tag_name: 'v2', generate_notes: '1' }));
    assert.equal(notes.status, 200, 'the edit form generates too');
    assert.match(bodyField(notes.body)!, /\*\*Full Changelog\*\*: /);
    assert.equal((await kit().repos.getRelease({ owner: alice.login, repo, release_id: v2.id })).data.body, null, 'nothing saved');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the writer generates notes and saves the release as not the latest; axe finds nothing serious', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login`);
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.goto(`${t.baseUrl}${base}/releases/new`);
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      await p.fill('#release-tag-field', 'v9');
      await p.click('#generate-notes');
      await p.waitForSelector('#release-body-field');
      assert.match(await p.inputValue('#release-body-field'), /Shiny feature/);
      await p.check('#release-latest-false');
      await p.click('#publish-release');
      await p.waitForURL(/\/releases\/tag\/v9$/);
      const made = (await releases()).find((r) => r.tag_name === 'v9')!;
      assert.match(made.body ?? '', /## What's Changed/);
      assert.equal(await latest(), 'v2', 'not made the latest');
      await context.close();
    });
  });
});
