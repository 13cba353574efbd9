// The release and tag forms of the web interface: "Draft a new release" (a tag, existing
// or new at a chosen branch; name, notes, draft, pre-release), edit and delete a release,
// upload an asset (a multipart form) and delete one, and delete a tag from the tags page,
// each through the releases, assets or git refs service for those it lets write. Each
// success is checked through the API; each refusal comes back inline and changes nothing
// (the API's 422s, a read-only collaborator's 403 as the API answers it); forged posts
// are refused; an outsider sees a private repository's forms as 404. Headless Chromium
// drafts one with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, USER_AGENT, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createRepo } from './factories/issues.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient, type WebResponse } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web forms: releases and tags', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  const repo = 'quay';
  let owner: string;
  let base: string;
  let developSha: string;
  let mainSha: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(alice.token).rest;
  const releases = async (o = owner, r = repo) => (await kit().repos.listReleases({ owner: o, repo: r })).data;
  const tagSha = async (tag: string, o = owner, r = repo) => {
    const res = await t.request(`/repos/${o}/${r}/git/ref/tags/${tag}`, { token: alice.token });
    return res.status === 200 ? ((await res.json()) as { object: { sha: string } }).object.sha : null;
  };

  /** A multipart form post, as a browser sends a form with a file. */
  async function upload(c: WebClient, path: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }): Promise<WebResponse> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const res = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST', body: form, redirect: 'manual',
      headers: { 'user-agent': USER_AGENT, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
  }

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
    mainSha = (await kit().repos.getBranch({ owner, repo, branch: 'main' })).data.commit.sha;
    await kit().git.createRef({ owner, repo, ref: 'refs/heads/develop', sha: mainSha });
    developSha = (await kit().repos.createOrUpdateFileContents({
      owner, repo, path: 'next.txt', branch: 'develop', message: 'Next', content: Buffer.from('next\n').toString('base64'),
    })).data.commit.sha!;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    carolWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
    assert.equal((await carolWeb.signIn(carol.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('draft a new release: offered to writers only; the API\'s refusals inline with nothing made; a new tag at the chosen branch', async () => {
    assert.match((await page(aliceWeb, `${base}/releases`)).body, new RegExp(`href="${base}/releases/new" id="new-release"`));
    assert.doesNotMatch((await page(carolWeb, `${base}/releases`)).body, /id="new-release"/, 'not for a read-only collaborator');
    assert.doesNotMatch((await page(new WebClient(t), `${base}/releases`)).body, /id="new-release"/);
    const signedOut = await page(new WebClient(t), `${base}/releases/new`);
    assert.equal(signedOut.status, 302);
    assert.match(signedOut.location ?? '', /^\/login\?return_to=/);
    assert.equal((await page(carolWeb, `${base}/releases/new`)).status, 404, 'as upstream, the form is not there for a reader');

    const form = await page(aliceWeb, `${base}/releases/new`);
    assert.equal(form.status, 200);
    assert.match(form.body, /<select id="release-target-field" name="target_commitish"><option value="main" selected="">main<\/option><option value="develop">develop<\/option>/);
    const token = csrfIn(form.body);
    const post = (fields: Record<string, string>) => aliceWeb.post(`${base}/releases`, { authenticity_token: token, target_commitish: 'main', ...fields });

    const blank = await post({ tag_name: '', name: 'Kept title', body: 'Kept notes' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /<div class="flash error" role="alert">tag_name is missing<\/div>/);
    assert.match(blank.body, /value="Kept title"/);
    assert.match(blank.body, /Kept notes<\/textarea>/);
    const badName = await post({ tag_name: 'v1..0' });
    assert.equal(badName.status, 422);
    assert.match(badName.body, /role="alert">tag_name /);
    const api = await t.request(`/repos/${owner}/${repo}/releases`, { method: 'POST', token: alice.token, json: { tag_name: 'v9', target_commitish: 'nowhere' } });
    assert.equal(api.status, 422, 'the API refuses a target that names nothing');
    const badTarget = await post({ tag_name: 'v9', target_commitish: 'nowhere' });
    assert.equal(badTarget.status, 422);
    assert.match(badTarget.body, /role="alert">[^<]*target_commitish/);
    assert.match(badTarget.body, /<option value="nowhere" selected="">nowhere<\/option>/, 'what was chosen is shown again');
    assert.equal((await aliceWeb.post(`${base}/releases`, { tag_name: 'v1.0' })).status, 403, 'no token');
    assert.equal((await aliceWeb.post(`${base}/releases`, { authenticity_token: 'a'.repeat(64), tag_name: 'v1.0' })).status, 403, 'forged token');
    assert.deepEqual(await releases(), [], 'nothing was made');
    assert.equal(await tagSha('v1.0'), null);

    const made = await post({ tag_name: 'v1.0', target_commitish: 'develop', name: 'First', body: 'The **first** one', prerelease: '1' });
    assert.equal(made.status, 303);
    const [r] = await releases();
    assert.ok(r);
    assert.deepEqual([r.tag_name, r.target_commitish, r.name, r.body, r.draft, r.prerelease, r.author.login], ['v1.0', 'develop', 'First', 'The **first** one', false, true, alice.login]);
    assert.equal(made.location, new URL(r.html_url).pathname, 'to its html_url');
    assert.equal(await tagSha('v1.0'), developSha, 'the new tag is at the chosen branch');
    const shown = await page(aliceWeb, made.location!);
    assert.match(shown.body, /The <strong>first<\/strong> one/);
    assert.match(shown.body, new RegExp(`href="${base}/releases/edit/v1.0">Edit<`));
    assert.doesNotMatch((await page(carolWeb, made.location!)).body, /class="button secondary edit-release"/);

    const twice = await post({ tag_name: 'v1.0' });
    assert.equal(twice.status, 422);
    assert.match(twice.body, /role="alert">[^<]*already exists/);
    assert.equal((await releases()).length, 1);

    // A draft of an existing tag: no new tag, not published.
    await kit().git.createRef({ owner, repo, ref: 'refs/tags/v0.9', sha: mainSha });
    const draft = await post({ tag_name: 'v0.9', name: '', draft: '1' });
    assert.equal(draft.status, 303);
    const d = (await releases()).find((x) => x.tag_name === 'v0.9')!;
    assert.deepEqual([d.draft, d.name, d.published_at], [true, null, null], 'an empty title is none');
  });

  test('edit and delete a release: the API\'s release changes; refusals inline change nothing', async () => {
    const { data: rel } = await kit().repos.createRelease({ owner, repo, tag_name: 'v2.0', name: 'Two', body: 'Before', prerelease: true });
    const edit = `${base}/releases/edit/v2.0`;
    const form = await page(aliceWeb, edit);
    assert.equal(form.status, 200);
    assert.match(form.body, /id="release-tag-field" name="tag_name" required="" aria-describedby="release-tag-hint" value="v2.0"/);
    assert.match(form.body, /id="release-prerelease-field" name="prerelease" checked="" value="1"/);
    assert.equal((await page(carolWeb, edit)).status, 404);
    assert.equal((await page(aliceWeb, `${base}/releases/edit/v404`)).status, 404);
    const token = csrfIn(form.body);
    const get = async () => (await kit().repos.getRelease({ owner, repo, release_id: rel.id })).data;

    const blank = await aliceWeb.post(`${base}/releases/${rel.id}`, { authenticity_token: token, tag_name: ' ', name: 'Typed', body: 'Typed notes' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /id="edit-release-form"[\s\S]*role="alert">tag_name is missing</);
    assert.match(blank.body, /Typed notes<\/textarea>/);
    const taken = await aliceWeb.post(`${base}/releases/${rel.id}`, { authenticity_token: token, tag_name: 'v1.0', name: 'Two' });
    assert.equal(taken.status, 422, 'another release has that tag');
    const byCarol = await carolWeb.post(`${base}/releases/${rel.id}`, { authenticity_token: csrfIn((await page(carolWeb, base)).body), tag_name: 'v2.0', name: 'Carol was here' });
    assert.equal(byCarol.status, 403, 'as the API refuses a reader');
    const now = await get();
    assert.deepEqual([now.tag_name, now.name, now.body, now.prerelease], ['v2.0', 'Two', 'Before', true], 'unchanged');

    const saved = await aliceWeb.post(`${base}/releases/${rel.id}`, { authenticity_token: token, tag_name: 'v2.0', target_commitish: 'main', name: 'Two, final', body: '' });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `${base}/releases/tag/v2.0`);
    const after = await get();
    assert.deepEqual([after.name, after.body, after.prerelease, after.draft], ['Two, final', null, false, false], 'an unticked box is false, an emptied body none');

    const carolDelete = await carolWeb.post(`${base}/releases/${rel.id}/delete`, { authenticity_token: csrfIn((await page(carolWeb, base)).body) });
    assert.equal(carolDelete.status, 403);
    assert.match(carolDelete.body, /id="delete-release"[\s\S]*role="alert"/);
    assert.equal((await get()).id, rel.id, 'still there');
    assert.equal((await aliceWeb.post(`${base}/releases/${rel.id}/delete`, {})).status, 403, 'no token');
    const deleted = await aliceWeb.post(`${base}/releases/${rel.id}/delete`, { authenticity_token: token });
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, `${base}/releases`);
    assert.equal((await t.request(`/repos/${owner}/${repo}/releases/${rel.id}`, { token: alice.token })).status, 404);
    assert.ok(await tagSha('v2.0'), 'its tag stays, as upstream');
  });

  test('upload an asset with a multipart form and delete it; a taken name and a reader refused inline', async () => {
    const { data: rel } = await kit().repos.createRelease({ owner, repo, tag_name: 'v3.0', name: 'Three' });
    const edit = `${base}/releases/edit/v3.0`;
    const form = await page(aliceWeb, edit);
    assert.match(form.body, new RegExp(`<form method="post" action="${base}/releases/${rel.id}/assets" enctype="multipart/form-data" id="upload-asset-form"`, 'i'));
    const token = csrfIn(form.body);
    const bytes = Buffer.from([0, 1, 2, 250, 13, 10, 45, 45, 0, 255]);
    const to = `${base}/releases/${rel.id}/assets`;
    const assets = async () => (await kit().repos.listReleaseAssets({ owner, repo, release_id: rel.id })).data;

    assert.equal((await upload(aliceWeb, to, {}, { name: 'tool.bin', type: 'application/x-tool', bytes })).status, 403, 'no token');
    const noName = await upload(aliceWeb, to, { authenticity_token: token, name: '', label: 'Kept label' });
    assert.equal(noName.status, 422, 'no file and no name: the API\'s missing name');
    assert.match(noName.body, /id="release-assets"[\s\S]*role="alert">name is missing</);
    assert.match(noName.body, /id="asset-label-field" name="label" value="Kept label"/);
    assert.deepEqual(await assets(), []);

    const sent = await upload(aliceWeb, to, { authenticity_token: token, name: '', label: 'The tool' }, { name: 'tool.bin', type: 'application/x-tool', bytes });
    assert.equal(sent.status, 303);
    assert.equal(sent.location, `${edit}#release-assets`);
    const [a] = await assets();
    assert.ok(a);
    assert.deepEqual([a.name, a.label, a.size, a.content_type, a.uploader?.login], ['tool.bin', 'The tool', bytes.length, 'application/x-tool', alice.login]);
    const down = await t.request(`/repos/${owner}/${repo}/releases/assets/${a.id}`, { token: alice.token, headers: { accept: 'application/octet-stream' } });
    assert.deepEqual(Buffer.from(await down.arrayBuffer()), bytes, 'the bytes as sent');
    assert.match((await page(aliceWeb, edit)).body, /data-asset="tool.bin"/);

    const again = await upload(aliceWeb, to, { authenticity_token: token, name: 'tool.bin' }, { name: 'other.bin', type: 'text/plain', bytes: Buffer.from('x') });
    assert.equal(again.status, 422);
    assert.match(again.body, /role="alert">[^<]*already exists/);
    const carolToken = csrfIn((await page(carolWeb, base)).body);
    const byCarol = await upload(carolWeb, to, { authenticity_token: carolToken, name: 'carol.txt' }, { name: 'carol.txt', type: 'text/plain', bytes: Buffer.from('c') });
    assert.equal(byCarol.status, 403);
    assert.deepEqual((await assets()).map((x) => x.name), ['tool.bin'], 'nothing more');

    const carolDelete = await carolWeb.post(`${base}/releases/assets/${a.id}/delete`, { authenticity_token: carolToken });
    assert.equal(carolDelete.status, 403);
    assert.equal((await assets()).length, 1);
    const gone = await aliceWeb.post(`${base}/releases/assets/${a.id}/delete`, { authenticity_token: token });
    assert.equal(gone.status, 303);
    assert.deepEqual(await assets(), []);
    assert.equal((await aliceWeb.post(`${base}/releases/assets/${a.id}/delete`, { authenticity_token: token })).status, 404, 'already gone');
  });

  test('delete a tag from the tags page: writers only, as the git refs API; refusals inline', async () => {
    await kit().git.createRef({ owner, repo, ref: 'refs/tags/old', sha: mainSha });
    const tags = await page(aliceWeb, `${base}/tags`);
    assert.match(tags.body, /<input type="hidden" name="tag" value="old"\/><button type="submit" class="danger" aria-label="Delete tag old">/);
    assert.doesNotMatch((await page(carolWeb, `${base}/tags`)).body, /aria-label="Delete tag/);
    assert.doesNotMatch((await page(new WebClient(t), `${base}/tags`)).body, /aria-label="Delete tag/);
    const token = csrfIn(tags.body);

    const api = await t.request(`/repos/${owner}/${repo}/git/refs/tags/old`, { method: 'DELETE', token: carol.token });
    const byCarol = await carolWeb.post(`${base}/tags/delete`, { authenticity_token: csrfIn((await page(carolWeb, base)).body), tag: 'old' });
    assert.equal(byCarol.status, api.status, 'as the API answers a reader');
    assert.equal(byCarol.status, 403);
    assert.match(byCarol.body, /role="alert"/);
    const missing = await aliceWeb.post(`${base}/tags/delete`, { authenticity_token: token, tag: 'never-was' });
    assert.equal(missing.status, 422);
    assert.match(missing.body, /id="tags-heading"[\s\S]*role="alert">Reference does not exist</);
    assert.equal((await aliceWeb.post(`${base}/tags/delete`, { tag: 'old' })).status, 403, 'no token');
    assert.equal(await tagSha('old'), mainSha, 'still there');

    const deleted = await aliceWeb.post(`${base}/tags/delete`, { authenticity_token: token, tag: 'old' });
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, `${base}/tags`);
    assert.equal(await tagSha('old'), null);
  });

  test('an outsider sees a private repository\'s release forms as 404 and changes nothing', async () => {
    const vault = `/${alice.login}/vault`;
    const { data: secret } = await kit().repos.createRelease({ owner: alice.login, repo: 'vault', tag_name: 'secret-1', name: 'Secret plan' });
    const bobToken = csrfIn((await page(bobWeb, base)).body);
    assert.equal((await page(bobWeb, `${vault}/releases/new`)).status, 404);
    assert.equal((await page(bobWeb, `${vault}/releases/edit/secret-1`)).status, 404);
    const posts: [string, Record<string, string>][] = [
      [`${vault}/releases`, { tag_name: 'peek' }],
      [`${vault}/releases/${secret.id}`, { tag_name: 'secret-1', name: 'Peeking' }],
      [`${vault}/releases/${secret.id}/delete`, {}],
      [`${vault}/tags/delete`, { tag: 'secret-1' }],
    ];
    for (const [path, fields] of posts) {
      const res = await bobWeb.post(path, { authenticity_token: bobToken, ...fields });
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(res.body, /Secret plan/);
    }
    const up = await upload(bobWeb, `${vault}/releases/${secret.id}/assets`, { authenticity_token: bobToken, name: 'x.txt' }, { name: 'x.txt', type: 'text/plain', bytes: Buffer.from('x') });
    assert.equal(up.status, 404);
    const list = await releases(alice.login, 'vault');
    assert.deepEqual(list.map((r) => [r.tag_name, r.name, r.assets.length]), [['secret-1', 'Secret plan', 0]]);
    assert.ok(await tagSha('secret-1', alice.login, 'vault'));
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('draft a new release from the releases page, then attach a file', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}${base}/releases`);
      await p.click('#sign-in-link');
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.click('#new-release');
      await p.fill('#release-tag-field', 'v5.0');
      await p.selectOption('#release-target-field', 'develop');
      await p.fill('#release-name-field', 'From the browser');
      await p.fill('#release-body-field', 'Made with a click');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the form is accessible');
      await p.click('#publish-release');
      await p.waitForSelector('#release');
      const made = (await releases()).find((x) => x.tag_name === 'v5.0')!;
      assert.deepEqual([made.name, made.body, made.target_commitish], ['From the browser', 'Made with a click', 'develop']);
      assert.equal(p.url(), made.html_url);
      // The browser's own multipart post of a file.
      await p.click('.edit-release');
      await p.setInputFiles('#asset-file-field', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await p.click('#upload-asset');
      await p.waitForSelector('[data-asset="notes.txt"]');
      const { data: list } = await kit().repos.listReleaseAssets({ owner, repo, release_id: made.id });
      assert.deepEqual(list.map((a) => [a.name, a.size, a.content_type]), [['notes.txt', 5, 'text/plain']]);
      await context.close();
    });
  });
});
