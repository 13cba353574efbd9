// Releases, release assets and tags through Octokit and plain fetch: every endpoint
// with its status, headers, body (checked against the published OpenAPI schemas) and
// the state after the call; the tag made on publish; drafts hidden from readers;
// make_latest; generated notes from real merged pull requests; real bytes up and down;
// 4xx on bad input with nothing changed; release webhooks delivered.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';
import { failsWith } from './helpers/failures.ts';
import { headerOf, ReceiverPool, type Received } from './helpers/webhook-receiver.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { createRepoWithHead } from './factories/repos.ts';
import { cloneAs, commitFiles, checkout, push } from './factories/pulls.ts';
import { requestJson } from './helpers/json-request.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';

const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_RETRY_BASE_MS: '100',
  WHARF_WEBHOOK_POLL_MS: '200',
};

let t: TestServer;
const pool = new ReceiverPool();

before(async () => { t = await startTestServer({ env: ENV }); });
after(async () => {
  await t.close();
  await pool.stopAll();
});

const RELEASES = '/repos/{owner}/{repo}/releases';
const ONE = '/repos/{owner}/{repo}/releases/{release_id}';
const ASSET = '/repos/{owner}/{repo}/releases/assets/{asset_id}';

interface Repo { id: number; owner: string; repo: string; head: string }

const newRepo = (owner: CreatedUser, priv = false): Promise<Repo> => createRepoWithHead(t, owner, { private: priv });
const send = (method: string, path: string, token: string | undefined, json?: unknown) => requestJson(t, method, path, token, json);

async function tagSha(r: Repo, tag: string): Promise<string | null> {
  const res = await send('GET', `/repos/${r.owner}/${r.repo}/git/ref/tags/${tag}`, undefined);
  return res.status === 200 ? res.body.object.sha : null;
}

async function releaseRows(repositoryId: number) {
  return t.server.ctx.db.selectFrom('releases').selectAll().where('repository_id', '=', repositoryId).orderBy('id').execute();
}

async function assetRows(repositoryId: number) {
  return t.server.ctx.db.selectFrom('release_assets').selectAll().where('repository_id', '=', repositoryId).orderBy('id').execute();
}

/** Uploads bytes at the release's upload_url (the URI template expanded by Octokit, as gh and uploadReleaseAsset do). */
async function upload(token: string, uploadUrl: string, name: string, bytes: Buffer, contentType = 'application/zip', label?: string) {
  return t.octokit(token).request({
    method: 'POST', url: uploadUrl, name, ...(label ? { label } : {}), data: bytes,
    headers: { 'content-type': contentType, 'content-length': bytes.length },
  });
}

describe('creating and reading releases', () => {
  test('201 with Location and the published record; the tag is made at the default branch', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const res = await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1.0.0', name: 'First', body: 'Hello **world**' });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', RELEASES, 201, res.data);
    const rel = res.data;
    const url = `${t.baseUrl}/repos/${r.owner}/${r.repo}/releases/${rel.id}`;
    assert.equal(rel.url, url);
    assert.equal(res.headers.location, url);
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'public_repo, repo');
    assert.equal(rel.assets_url, `${url}/assets`);
    assert.equal(rel.upload_url, `${url}/assets{?name,label}`);
    assert.equal(rel.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/releases/tag/v1.0.0`);
    assert.equal(Buffer.from(rel.node_id, 'base64').toString(), `07:Release${rel.id}`);
    assert.equal(rel.tag_name, 'v1.0.0');
    assert.equal(rel.target_commitish, 'main');
    assert.equal(rel.name, 'First');
    assert.equal(rel.body, 'Hello **world**');
    assert.equal(rel.draft, false);
    assert.equal(rel.prerelease, false);
    assert.equal(rel.author.login, alice.login);
    assert.ok(rel.published_at);
    assert.deepEqual(rel.assets, []);
    assert.equal(rel.tarball_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/tarball/v1.0.0`);
    assert.equal(await tagSha(r, 'v1.0.0'), r.head);

    const got = await kit.rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: rel.id });
    assertMatchesOpenApi('GET', ONE, 200, got.data);
    assert.deepEqual(got.data, rel);
    const byTag = await kit.rest.repos.getReleaseByTag({ owner: r.owner, repo: r.repo, tag: 'v1.0.0' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/releases/tags/{tag}', 200, byTag.data);
    assert.equal(byTag.data.id, rel.id);
    // Readers see published releases, anonymous ones too.
    const anon = await t.octokit().rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: rel.id });
    assert.equal(anon.data.id, rel.id);
    const repoRecord = (await kit.rest.repos.get({ owner: r.owner, repo: r.repo })).data;
    const releasesUrl = repoRecord.releases_url.replace('{/id}', `/${rel.id}`);
    assert.equal((await send('GET', new URL(releasesUrl).pathname, undefined)).body.id, rel.id);
  });

  test('an existing tag is used as it is; target_commitish names a branch or a sha', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const c = await cloneAs(t, r.owner, r.repo, alice);
    await checkout(c, 'feature', true);
    const featureSha = await commitFiles(c, { 'f.txt': 'feature' }, 'feature work');
    await push(c, 'feature');
    const byBranch = await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v2', target_commitish: 'feature' });
    assert.equal(byBranch.data.target_commitish, 'feature');
    assert.equal(await tagSha(r, 'v2'), featureSha);
    const bySha = await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1', target_commitish: r.head });
    assert.equal(await tagSha(r, 'v1'), r.head);
    assert.equal(bySha.data.target_commitish, r.head);
    // A tag that exists already is not moved, whatever target_commitish says.
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/tags/pinned', sha: r.head });
    await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'pinned', target_commitish: 'feature' });
    assert.equal(await tagSha(r, 'pinned'), r.head);
  });

  test('drafts: no tag until published, hidden from readers, published_at null; publishing makes the tag', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const carol = await createUser(t);
    const r = await newRepo(alice);
    await addCollaborator(t, alice.token, r, carol, 'push');
    const kit = t.octokit(alice.token);
    const draft = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v0.1', draft: true })).data;
    assert.equal(draft.draft, true);
    assert.equal(draft.published_at, null);
    assert.equal(draft.tarball_url, null);
    assert.equal(await tagSha(r, 'v0.1'), null);
    await failsWith(t.octokit(bob.token).rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: draft.id }), 404);
    await failsWith(t.octokit().rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: draft.id }), 404);
    assert.deepEqual((await t.octokit(bob.token).rest.repos.listReleases({ owner: r.owner, repo: r.repo })).data, []);
    await failsWith(kit.rest.repos.getReleaseByTag({ owner: r.owner, repo: r.repo, tag: 'v0.1' }), 404);
    // Collaborators with push access see drafts.
    const seen = await t.octokit(carol.token).rest.repos.listReleases({ owner: r.owner, repo: r.repo });
    assert.deepEqual(seen.data.map((x) => x.id), [draft.id]);

    const published = await kit.rest.repos.updateRelease({ owner: r.owner, repo: r.repo, release_id: draft.id, draft: false });
    assertMatchesOpenApi('PATCH', ONE, 200, published.data);
    assert.equal(published.data.draft, false);
    assert.ok(published.data.published_at);
    assert.equal(await tagSha(r, 'v0.1'), r.head);
    assert.equal((await t.octokit(bob.token).rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: draft.id })).data.id, draft.id);
  });

  test('the Accept header chooses body, body_html and body_text', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const rel = (await t.octokit(alice.token).rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1', body: 'Hello **world**' })).data;
    const get = (accept: string) => t.request(`/repos/${r.owner}/${r.repo}/releases/${rel.id}`, { headers: { accept } }).then((x) => x.json() as Promise<Record<string, unknown>>);
    const full = await get('application/vnd.github.full+json');
    assertMatchesOpenApi('GET', ONE, 200, full);
    assert.equal(full.body, 'Hello **world**');
    assert.match(String(full.body_html), /<p>Hello <strong>world<\/strong><\/p>/);
    assert.equal(full.body_text, 'Hello world');
    const html = await get('application/vnd.github.html+json');
    assert.deepEqual([html.body, typeof html.body_html, html.body_text], [undefined, 'string', undefined]);
    const plain = await get('application/vnd.github+json');
    assert.deepEqual([plain.body, plain.body_html, plain.body_text], ['Hello **world**', undefined, undefined]);
  });

  test('mentions_count: the users with an account the body @mentions, each once, outside code; PATCH recounts', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const carol = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const body = `Thanks @${bob.login} and @${carol.login}, and again @${bob.login.toUpperCase()}; not @nobody-here-x9 nor \`@${alice.login}\`.`;
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1', body })).data;
    assert.equal(rel.mentions_count, 2);
    assert.equal((await kit.rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: rel.id })).data.mentions_count, 2);
    const edited = (await kit.rest.repos.updateRelease({ owner: r.owner, repo: r.repo, release_id: rel.id, body: 'No one' })).data;
    assert.equal(edited.mentions_count, 0);
    const listed = (await kit.rest.repos.listReleases({ owner: r.owner, repo: r.repo })).data;
    assert.equal(listed[0]!.mentions_count, 0);
  });

  test('a tag with a slash: by tag, html_url and browser_download_url', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'release/1.0' })).data;
    assert.equal(rel.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/releases/tag/release/1.0`);
    assert.equal(await tagSha(r, 'release/1.0'), r.head);
    assert.equal((await kit.rest.repos.getReleaseByTag({ ...o, tag: 'release/1.0' })).data.id, rel.id);
    assert.equal((await send('GET', `/repos/${r.owner}/${r.repo}/releases/tags/release/1.0`, undefined)).body.id, rel.id);
    const a = (await upload(alice.token, rel.upload_url, 'x.txt', Buffer.from('slash'), 'text/plain')).data as { browser_download_url: string };
    assert.equal(a.browser_download_url, `${t.baseUrl}/${r.owner}/${r.repo}/releases/download/release/1.0/x.txt`);
    assert.equal(await (await fetch(a.browser_download_url, { headers: { 'user-agent': 'test' } })).text(), 'slash');
  });

  test('lists are newest first and paged with Link', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const ids: number[] = [];
    for (const tag of ['a1', 'a2', 'a3']) ids.push((await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: tag })).data.id);
    const page1 = await kit.rest.repos.listReleases({ owner: r.owner, repo: r.repo, per_page: 2 });
    assertMatchesOpenApi('GET', RELEASES, 200, page1.data);
    assert.deepEqual(page1.data.map((x) => x.id), [ids[2], ids[1]]);
    assert.match(page1.headers.link ?? '', /rel="next"/);
    const page2 = await kit.rest.repos.listReleases({ owner: r.owner, repo: r.repo, per_page: 2, page: 2 });
    assert.deepEqual(page2.data.map((x) => x.id), [ids[0]]);
  });

  test('latest: not drafts, not prereleases; make_latest true, false and legacy', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    await failsWith(kit.rest.repos.getLatestRelease(o), 404);
    const v1 = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' })).data;
    await kit.rest.repos.createRelease({ ...o, tag_name: 'v2-rc', prerelease: true });
    await kit.rest.repos.createRelease({ ...o, tag_name: 'v2-draft', draft: true });
    const latest = await kit.rest.repos.getLatestRelease(o);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/releases/latest', 200, latest.data);
    assert.equal(latest.data.id, v1.id);
    // A newer release that is not to be latest leaves v1 latest.
    const v0 = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v0.9-backport', make_latest: 'false' })).data;
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.id, v1.id);
    const v3 = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v3' })).data;
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.id, v3.id);
    // Made latest again explicitly.
    await kit.rest.repos.updateRelease({ ...o, release_id: v1.id, make_latest: 'true' });
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.id, v1.id);
    await kit.rest.repos.updateRelease({ ...o, release_id: v1.id, make_latest: 'false' });
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.id, v3.id);
    await kit.rest.repos.updateRelease({ ...o, release_id: v0.id, make_latest: 'true' });
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.id, v0.id);
    // A prerelease made a full release is the newest release: latest.
    await kit.rest.repos.updateRelease({ ...o, release_id: (await kit.rest.repos.getReleaseByTag({ ...o, tag: 'v2-rc' })).data.id, prerelease: false });
    assert.equal((await kit.rest.repos.getLatestRelease(o)).data.tag_name, 'v2-rc');
  });
});

describe('updating and deleting releases', () => {
  test('PATCH keeps omitted fields, sets null; renaming the tag of a published release makes the new tag', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1', name: 'One', body: 'text' })).data;
    const res = await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, body: null as unknown as string, prerelease: true });
    assert.equal(res.data.name, 'One');
    assert.equal(res.data.body, null);
    assert.equal(res.data.prerelease, true);
    const renamed = await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, tag_name: 'v1.0.0' });
    assert.equal(renamed.data.tag_name, 'v1.0.0');
    assert.equal(await tagSha(r, 'v1.0.0'), r.head);
    const [row] = await releaseRows(r.id);
    assert.equal(row!.tag_name, 'v1.0.0');
    assert.equal(row!.body, null);
  });

  test('a published release turned back into a draft: published_at null, hidden again', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1' })).data;
    const res = await kit.rest.repos.updateRelease({ owner: r.owner, repo: r.repo, release_id: rel.id, draft: true });
    assert.equal(res.data.draft, true);
    assert.equal(res.data.published_at, null);
    await failsWith(t.octokit(bob.token).rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: rel.id }), 404);
  });

  test('DELETE answers 204; the release and its asset files go, the tag stays', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1' })).data;
    const asset = (await upload(alice.token, rel.upload_url, 'a.bin', Buffer.from('abc'))).data as { id: number };
    const res = await kit.rest.repos.deleteRelease({ owner: r.owner, repo: r.repo, release_id: rel.id });
    assert.equal(res.status, 204);
    assert.deepEqual(await releaseRows(r.id), []);
    assert.deepEqual(await assetRows(r.id), []);
    await failsWith(kit.rest.repos.getRelease({ owner: r.owner, repo: r.repo, release_id: rel.id }), 404);
    await failsWith(kit.rest.repos.getReleaseAsset({ owner: r.owner, repo: r.repo, asset_id: asset.id }), 404);
    assert.equal(await tagSha(r, 'v1'), r.head);
    const fs = await import('node:fs');
    assert.equal(fs.existsSync(`${t.dataDir}/release-assets/${r.id}/${asset.id}`), false);
  });
});

describe('bad input and rights: 4xx, nothing changed', () => {
  test('validation errors with the spec body', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const path = `/repos/${r.owner}/${r.repo}/releases`;
    const cases: [unknown, string, string][] = [
      [{}, 'tag_name', 'missing_field'],
      [{ tag_name: '' }, 'tag_name', 'missing_field'],
      [{ tag_name: 'bad..tag' }, 'tag_name', 'invalid'],
      [{ tag_name: 'has space' }, 'tag_name', 'invalid'],
      [{ tag_name: 'v9', target_commitish: 'no-such-branch' }, 'target_commitish', 'invalid'],
      [{ tag_name: 'v9', make_latest: 'maybe' }, 'make_latest', 'invalid'],
      [{ tag_name: 'v9', draft: 'yes' }, 'draft', 'invalid'],
      [{ tag_name: 'v9', name: 'x'.repeat(300) }, 'name', 'invalid'],
    ];
    for (const [body, field, code] of cases) {
      const res = await send('POST', path, alice.token, body);
      assert.equal(res.status, 422, JSON.stringify({ body, res: res.body }));
      assert.equal(res.body.message, 'Validation Failed');
      assert.ok(res.body.errors.some((e: { field: string; code: string }) => e.field === field && e.code === code), JSON.stringify(res.body));
    }
    const notJson = await t.request(path, { method: 'POST', token: alice.token, body: '{nope', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    assert.deepEqual(await releaseRows(r.id), []);
    assert.equal(await tagSha(r, 'v9'), null);
  });

  test('every body field of every write route, with values of every wrong kind: 4xx, never 5xx', { timeout: 120_000 }, async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'fuzz', body: 'kept' })).data;
    const asset = (await upload(alice.token, rel.upload_url, 'kept.bin', Buffer.from('kept'))).data as { id: number };
    const base = `/repos/${r.owner}/${r.repo}/releases`;
    const values: unknown[] = [1, -1, 2 ** 53, 1.5, true, {}, [], ['x'], null, '', ' ', 'a\u0000b', 'x'.repeat(130_000), '../..', '@{-1}', 'a.lock', '-rf', 'v1..v2', 'ünïcödé/ß'];
    const routes: [string, string, string[]][] = [
      ['PATCH', `${base}/${rel.id}`, ['tag_name', 'target_commitish', 'name', 'body', 'draft', 'prerelease', 'make_latest', 'discussion_category_name']],
      ['POST', `${base}/generate-notes`, ['tag_name', 'target_commitish', 'previous_tag_name', 'configuration_file_path']],
      ['PATCH', `${base}/assets/${asset.id}`, ['name', 'label', 'state']],
      ['POST', base, ['tag_name', 'target_commitish', 'name', 'body', 'draft', 'prerelease', 'make_latest', 'generate_release_notes']],
    ];
    const valid: Record<string, unknown> = { tag_name: 'fuzz-new' };
    for (const [method, path, fields] of routes) {
      for (const field of fields) {
        for (const value of values) {
          const body = method === 'POST' && path === base ? { ...valid, draft: true, [field]: value } : { [field]: value };
          const res = await send(method, path, alice.token, body);
          assert.ok(res.status < 500, `${method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 40)}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    for (const id of ['-1', 'abc', '1e3', '99999999999', '0']) {
      for (const path of [`${base}/${id}`, `${base}/assets/${id}`, `${base}/${id}/assets`]) {
        const res = await send('GET', path, alice.token);
        assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      }
    }
    for (const name of ['', '...', 'a\u0000b', 'x'.repeat(1000), '../../etc/passwd', 'ünï cödé.zip']) {
      const res = await t.request(`${base}/${rel.id}/assets?name=${encodeURIComponent(name)}&label=${encodeURIComponent(name)}`, {
        method: 'POST', token: alice.token, body: 'x', headers: { 'content-type': 'application/octet-stream' },
      });
      assert.ok(res.status < 500, `upload name=${name.slice(0, 20)}: ${res.status}`);
    }
    // What the fuzzing changed is only what valid values may change (draft: true among them): the kept asset's bytes are intact.
    const bytes = await t.request(`${base}/assets/${asset.id}`, { token: alice.token, headers: { accept: 'application/octet-stream' } });
    assert.equal(await bytes.text(), 'kept');
  });

  test('a second release of a tag is 422 already_exists; on PATCH too', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' });
    const other = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v2', draft: true })).data;
    const err = await failsWith(kit.rest.repos.createRelease({ ...o, tag_name: 'v1' }), 422);
    assert.deepEqual(err.errors, [{ resource: 'Release', field: 'tag_name', code: 'already_exists' }]);
    await failsWith(kit.rest.repos.updateRelease({ ...o, release_id: other.id, tag_name: 'v1' }), 422);
    assert.deepEqual((await releaseRows(r.id)).map((x) => x.tag_name), ['v1', 'v2']);
  });

  test('readers cannot write (403), strangers of private repositories get 404, archived repositories refuse writes', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' })).data;
    const bobKit = t.octokit(bob.token);
    await failsWith(bobKit.rest.repos.createRelease({ ...o, tag_name: 'v2' }), 403);
    await failsWith(bobKit.rest.repos.updateRelease({ ...o, release_id: rel.id, name: 'mine' }), 403);
    await failsWith(bobKit.rest.repos.deleteRelease({ ...o, release_id: rel.id }), 403);
    await failsWith(t.octokit().rest.repos.createRelease({ ...o, tag_name: 'v2' }), 401);
    await failsWith(bobKit.rest.repos.generateReleaseNotes({ ...o, tag_name: 'v2' }), 403);
    const upl = await t.request(`/repos/${r.owner}/${r.repo}/releases/${rel.id}/assets?name=x.bin`, { method: 'POST', token: bob.token, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(upl.status, 403);

    const p = await newRepo(alice, true);
    const prel = (await kit.rest.repos.createRelease({ owner: p.owner, repo: p.repo, tag_name: 'v1' })).data;
    await failsWith(bobKit.rest.repos.getRelease({ owner: p.owner, repo: p.repo, release_id: prel.id }), 404);
    await failsWith(bobKit.rest.repos.listReleases({ owner: p.owner, repo: p.repo }), 404);
    await failsWith(bobKit.rest.repos.listTags({ owner: p.owner, repo: p.repo }), 404);

    await kit.rest.repos.update({ ...o, archived: true });
    const archived = await failsWith(kit.rest.repos.createRelease({ ...o, tag_name: 'v3' }), 403);
    assert.match(archived.message, /archived/);
    await failsWith(kit.rest.repos.updateRelease({ ...o, release_id: rel.id, name: 'x' }), 403);
    assert.equal((await kit.rest.repos.getRelease({ ...o, release_id: rel.id })).data.name, null);
    assert.equal((await releaseRows(r.id)).length, 1);
  });

  test('concurrent releases of one tag and uploads of one name: one wins, the others are 422, never 5xx', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const path = `/repos/${r.owner}/${r.repo}/releases`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('POST', path, alice.token, { tag_name: 'race' })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 422, 422, 422, 422]);
    assert.equal((await releaseRows(r.id)).length, 1);
    const rel = answers.find((a) => a.status === 201)!.body;
    const uploads = await Promise.all(Array.from({ length: 4 }, (_, i) => t.request(`${path}/${rel.id}/assets?name=same.bin`, {
      method: 'POST', token: alice.token, body: `bytes ${i}`, headers: { 'content-type': 'application/octet-stream' },
    })));
    assert.deepEqual(uploads.map((u) => u.status).sort(), [201, 422, 422, 422]);
    const rows = await assetRows(r.id);
    assert.equal(rows.length, 1);
    const fs = await import('node:fs');
    // No file is left behind by the refused uploads.
    assert.deepEqual(fs.readdirSync(`${t.dataDir}/release-assets/${r.id}`), [String(rows[0]!.id)]);
  });

  test("deleting the repository removes its asset files", async () => {
    const alice = await createUser(t, ['repo', 'delete_repo']);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1' })).data;
    await upload(alice.token, rel.upload_url, 'a.bin', Buffer.from('abc'));
    const fs = await import('node:fs');
    assert.equal(fs.existsSync(`${t.dataDir}/release-assets/${r.id}`), true);
    await kit.rest.repos.delete({ owner: r.owner, repo: r.repo });
    const { eventually } = await import('./helpers/webhook-receiver.ts');
    await eventually(async () => (fs.existsSync(`${t.dataDir}/release-assets/${r.id}`) ? undefined : true), 5000, 'asset files removed');
  });

  test('unknown ids are 404; an id beyond any row is 422 or 404, never 5xx', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    for (const path of ['releases/999999', 'releases/assets/999999', 'releases/999999/assets', 'releases/tags/nope']) {
      const res = await send('GET', `/repos/${r.owner}/${r.repo}/${path}`, alice.token);
      assert.equal(res.status, 404, path);
    }
    const huge = await send('GET', `/repos/${r.owner}/${r.repo}/releases/99999999999999`, alice.token);
    assert.ok(huge.status >= 400 && huge.status < 500, String(huge.status));
  });
});

describe('release assets', () => {
  test('upload at upload_url, list, get JSON, download the bytes (counted), browser_download_url', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' })).data;
    const bytes = Buffer.from([0, 1, 2, 3, 255, 254, 10, 13, 0]);
    const res = await upload(alice.token, rel.upload_url, 'my tool (linux).tar.gz', bytes, 'application/gzip', 'Linux build');
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/releases/{release_id}/assets', 201, res.data);
    const a = res.data as Record<string, any>;
    assert.equal(a.name, 'my.tool.linux.tar.gz');
    assert.equal(a.label, 'Linux build');
    assert.equal(a.content_type, 'application/gzip');
    assert.equal(a.size, bytes.length);
    assert.equal(a.state, 'uploaded');
    assert.equal(a.download_count, 0);
    assert.equal(a.uploader.login, alice.login);
    assert.match(a.digest, /^sha256:[0-9a-f]{64}$/);
    assert.equal(a.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/releases/assets/${a.id}`);
    assert.equal(res.headers.location, a.url);
    assert.equal(a.browser_download_url, `${t.baseUrl}/${r.owner}/${r.repo}/releases/download/v1/my.tool.linux.tar.gz`);

    // Through Octokit's own method as well (its baseUrl is the upload host upstream).
    const viaMethod = await kit.rest.repos.uploadReleaseAsset({ ...o, release_id: rel.id, name: 'notes.txt', data: 'plain text' as unknown as string, baseUrl: t.baseUrl, headers: { 'content-type': 'text/plain' } });
    assert.equal(viaMethod.status, 201);

    const list = await kit.rest.repos.listReleaseAssets({ ...o, release_id: rel.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/releases/{release_id}/assets', 200, list.data);
    assert.deepEqual(list.data.map((x) => x.name), ['my.tool.linux.tar.gz', 'notes.txt']);
    const withAssets = (await kit.rest.repos.getRelease({ ...o, release_id: rel.id })).data;
    assert.deepEqual(withAssets.assets.map((x) => x.id), list.data.map((x) => x.id));

    const json = await t.octokit(bob.token).rest.repos.getReleaseAsset({ ...o, asset_id: a.id });
    assertMatchesOpenApi('GET', ASSET, 200, json.data);
    assert.equal(json.data.name, 'my.tool.linux.tar.gz');

    const raw = await t.request(`/repos/${r.owner}/${r.repo}/releases/assets/${a.id}`, { token: bob.token, headers: { accept: 'application/octet-stream' } });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('content-type'), 'application/gzip');
    assert.deepEqual(Buffer.from(await raw.arrayBuffer()), bytes);
    const browser = await fetch(a.browser_download_url, { headers: { 'user-agent': 'test' } });
    assert.equal(browser.status, 200);
    assert.deepEqual(Buffer.from(await browser.arrayBuffer()), bytes);
    // A HEAD request looks without downloading: not counted.
    const head = await fetch(a.browser_download_url, { method: 'HEAD', headers: { 'user-agent': 'test' } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(bytes.length));
    const counted = await kit.rest.repos.getReleaseAsset({ ...o, asset_id: a.id });
    assert.equal(counted.data.download_count, 2);
    const text = await t.request(`/repos/${r.owner}/${r.repo}/releases/assets/${viaMethod.data.id}`, { headers: { accept: 'application/octet-stream' } });
    assert.equal(await text.text(), 'plain text');
  });

  test('names unique per release (422), a name is required, rename and delete', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' })).data;
    const first = (await upload(alice.token, rel.upload_url, 'a.zip', Buffer.from('one'))).data as { id: number };
    const dup = await failsWith(upload(alice.token, rel.upload_url, 'a.zip', Buffer.from('two')), 422);
    assert.deepEqual(dup.errors, [{ resource: 'ReleaseAsset', field: 'name', code: 'already_exists' }]);
    const noName = await t.request(`/repos/${r.owner}/${r.repo}/releases/${rel.id}/assets`, { method: 'POST', token: alice.token, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(noName.status, 422);
    const onlyMarks = await t.request(`/repos/${r.owner}/${r.repo}/releases/${rel.id}/assets?name=${encodeURIComponent('***')}`, { method: 'POST', token: alice.token, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(onlyMarks.status, 422);
    assert.equal((await assetRows(r.id)).length, 1);
    const second = (await upload(alice.token, rel.upload_url, 'b.zip', Buffer.from('two'))).data as { id: number };
    await failsWith(kit.rest.repos.updateReleaseAsset({ ...o, asset_id: second.id, name: 'a.zip' }), 422);

    const renamed = await kit.rest.repos.updateReleaseAsset({ ...o, asset_id: first.id, name: 'c d.zip', label: 'C' });
    assertMatchesOpenApi('PATCH', ASSET, 200, renamed.data);
    assert.equal(renamed.data.name, 'c.d.zip');
    assert.equal(renamed.data.label, 'C');
    const raw = await t.request(`/${r.owner}/${r.repo}/releases/download/v1/c.d.zip`);
    assert.equal(await raw.text(), 'one');

    const del = await kit.rest.repos.deleteReleaseAsset({ ...o, asset_id: first.id });
    assert.equal(del.status, 204);
    assert.deepEqual((await assetRows(r.id)).map((x) => x.id), [second.id]);
    await failsWith(kit.rest.repos.getReleaseAsset({ ...o, asset_id: first.id }), 404);
  });

  test("a draft's assets are hidden from readers", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1', draft: true })).data;
    const a = (await upload(alice.token, rel.upload_url, 'x.bin', Buffer.from('secret'))).data as { id: number; browser_download_url: string };
    await failsWith(t.octokit(bob.token).rest.repos.getReleaseAsset({ owner: r.owner, repo: r.repo, asset_id: a.id }), 404);
    await failsWith(t.octokit(bob.token).rest.repos.listReleaseAssets({ owner: r.owner, repo: r.repo, release_id: rel.id }), 404);
    assert.equal((await fetch(a.browser_download_url, { headers: { 'user-agent': 'test' } })).status, 404);
  });
});

describe('tags and generated notes', () => {
  test('GET /tags lists tags with their commits (annotated ones peeled), paged', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    await kit.rest.git.createRef({ ...o, ref: 'refs/tags/v1', sha: r.head });
    const annotated = await kit.rest.git.createTag({ ...o, tag: 'v2', message: 'two', object: r.head, type: 'commit' });
    await kit.rest.git.createRef({ ...o, ref: 'refs/tags/v2', sha: annotated.data.sha });
    const res = await kit.rest.repos.listTags(o);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/tags', 200, res.data);
    assert.deepEqual(res.data.map((x) => [x.name, x.commit.sha]), [['v2', r.head], ['v1', r.head]]);
    assert.equal(res.data[0]!.zipball_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/zipball/refs/tags/v2`);
    const paged = await kit.rest.repos.listTags({ ...o, per_page: 1, page: 2 });
    assert.deepEqual(paged.data.map((x) => x.name), ['v1']);
    assert.match(paged.headers.link ?? '', /rel="prev"/);
  });

  test("a release's zipball_url and tarball_url (and a tag's) answer the tree of the tag's commit", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice, true);
    const kit = t.octokit(alice.token);
    const rel = (await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1' })).data;
    const prefix = `${r.owner}-${r.repo}-${r.head.slice(0, 7)}`;
    const zip = await t.request(new URL(rel.zipball_url!).pathname, { token: alice.token });
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.equal(zip.headers.get('content-disposition'), `attachment; filename=${prefix}.zip`);
    const zipBytes = Buffer.from(await zip.arrayBuffer());
    assert.equal(zipBytes.subarray(0, 2).toString(), 'PK');
    assert.ok(zipBytes.includes(`${prefix}/README.md`));
    const tar = await t.request(new URL(rel.tarball_url!).pathname, { token: alice.token });
    assert.equal(tar.status, 200);
    const { gunzipSync } = await import('node:zlib');
    const tarBytes = gunzipSync(Buffer.from(await tar.arrayBuffer()));
    assert.ok(tarBytes.includes(`${prefix}/README.md`));
    const tags = (await kit.rest.repos.listTags({ owner: r.owner, repo: r.repo })).data;
    assert.equal((await t.request(new URL(tags[0]!.zipball_url).pathname, { token: alice.token })).status, 200);
    // Readers only; unknown refs are 404.
    assert.equal((await t.request(new URL(rel.zipball_url!).pathname, { token: bob.token })).status, 404);
    assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/zipball/no-such-ref`, { token: alice.token })).status, 404);
  });

  test('generate-notes: the pull requests merged since the previous release, new contributors, the full changelog', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    await addCollaborator(t, alice.token, r, bob, 'push');
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    await kit.rest.repos.createRelease({ ...o, tag_name: 'v1' });
    const c = await cloneAs(t, r.owner, r.repo, bob);
    await checkout(c, 'fix', true);
    await commitFiles(c, { 'fix.txt': 'fixed' }, 'fix');
    await push(c, 'fix');
    const pr = (await t.octokit(bob.token).rest.pulls.create({ ...o, title: 'Fix the thing', head: 'fix', base: 'main' })).data;
    await kit.rest.pulls.merge({ ...o, pull_number: pr.number });
    const notes = await kit.rest.repos.generateReleaseNotes({ ...o, tag_name: 'v2' });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/releases/generate-notes', 200, notes.data);
    assert.equal(notes.data.name, 'v2');
    const prUrl = `${t.baseUrl}/${r.owner}/${r.repo}/pull/${pr.number}`;
    assert.equal(notes.data.body, [
      `## What's Changed\n* Fix the thing by @${bob.login} in ${prUrl}`,
      `## New Contributors\n* @${bob.login} made their first contribution in ${prUrl}`,
      `**Full Changelog**: ${t.baseUrl}/${r.owner}/${r.repo}/compare/v1...v2`,
    ].join('\n\n'));
    // Before v1 nothing was merged: only the changelog link.
    const first = await kit.rest.repos.generateReleaseNotes({ ...o, tag_name: 'v1' });
    assert.equal(first.data.body, `**Full Changelog**: ${t.baseUrl}/${r.owner}/${r.repo}/commits/v1`);
    await failsWith(kit.rest.repos.generateReleaseNotes({ ...o, tag_name: 'v3', previous_tag_name: 'nope' }), 422);
    // A release can take them at creation.
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v2', generate_release_notes: true, body: 'Intro' })).data;
    assert.equal(rel.name, 'v2');
    assert.equal(rel.body, `Intro\n\n${notes.data.body}`);
  });
});

describe('release webhooks', () => {
  test('created, published, released, prereleased, edited, unpublished, deleted are delivered with the published payload', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const rx = await pool.start();
    await kit.rest.repos.createWebhook({ ...o, events: ['release'], config: { url: rx.url(), content_type: 'json' } });
    const ofRelease = (x: Received) => headerOf(x, 'x-service-event') === 'release';
    const rel = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1', draft: true })).data;
    await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, draft: false, name: 'One' });
    await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, make_latest: 'true' });
    await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, prerelease: true });
    await kit.rest.repos.updateRelease({ ...o, release_id: rel.id, draft: true });
    await kit.rest.repos.deleteRelease({ ...o, release_id: rel.id });
    const got = await rx.waitFor(9, ofRelease);
    const payloads = got.map((x) => JSON.parse(x.body) as Record<string, any>);
    assert.deepEqual(payloads.map((p) => p.action), ['created', 'edited', 'published', 'released', 'edited', 'edited', 'prereleased', 'unpublished', 'deleted']);
    for (const p of payloads) {
      assertMatchesWebhookSchema('release', p.action, p);
      assert.equal(p.release.id, rel.id);
      assert.equal(p.repository.id, r.id);
      assert.equal(p.sender.login, alice.login);
    }
    assert.deepEqual(payloads[1]!.changes, { name: { from: '' } });
    assert.equal(payloads[2]!.release.draft, false);
    assert.deepEqual(payloads[4]!.changes, { make_latest: { to: true } });
    assert.deepEqual(payloads[5]!.changes, {});
    assert.equal(payloads[5]!.release.prerelease, true);
    assert.equal(payloads[7]!.release.draft, true);
  });
});

describe('GraphQL releases', () => {
  // The fields gh 2.23 asks for (release list and view), with REST's values for the same objects.
  const RELEASE_FIELDS = `id databaseId name tagName isDraft isPrerelease isLatest createdAt publishedAt updatedAt url resourcePath
    description descriptionHTML author { login } tagCommit { oid } tag { name target { oid } } repository { nameWithOwner }
    releaseAssets(first: 10) { totalCount nodes { id name size downloadCount url downloadUrl contentType uploadedBy { login } release { tagName } } }`;

  test('Repository.releases, release(tagName:), latestRelease and node(id:) show what REST shows; drafts only for writers', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const o = { owner: r.owner, repo: r.repo };
    const v1 = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v1', name: 'One', body: 'See **this**' })).data;
    await upload(alice.token, v1.upload_url, 'tool.zip', Buffer.from('zipzip'));
    const rc = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v2-rc', prerelease: true })).data;
    const draft = (await kit.rest.repos.createRelease({ ...o, tag_name: 'v3', draft: true })).data;
    const restV1 = (await kit.rest.repos.getRelease({ ...o, release_id: v1.id })).data;

    type Answer = { repository: { releases: { totalCount: number; nodes: Record<string, any>[] }; release: Record<string, any> | null; draft: Record<string, any> | null; latestRelease: Record<string, any> | null } };
    const query = `{ repository(owner: "${r.owner}", name: "${r.repo}") {
      releases(first: 10, orderBy: {field: CREATED_AT, direction: DESC}) { totalCount nodes { ${RELEASE_FIELDS} } }
      release(tagName: "v1") { ${RELEASE_FIELDS} }
      draft: release(tagName: "v3") { databaseId isDraft publishedAt tagCommit { oid } }
      latestRelease { databaseId } } }`;
    const mine = await gql(t, alice.token)<Answer>(query);
    assert.deepEqual(mine.repository.releases.nodes.map((n) => n.databaseId), [draft.id, rc.id, v1.id]);
    assert.equal(mine.repository.releases.totalCount, 3);
    assert.deepEqual(mine.repository.draft, { databaseId: draft.id, isDraft: true, publishedAt: null, tagCommit: null });
    assert.equal(mine.repository.latestRelease!.databaseId, v1.id);
    const one = mine.repository.release!;
    assert.equal(one.id, restV1.node_id);
    assert.equal(one.name, 'One');
    assert.equal(one.tagName, 'v1');
    assert.equal(one.isDraft, false);
    assert.equal(one.isPrerelease, false);
    assert.equal(one.isLatest, true);
    assert.equal(one.createdAt, restV1.created_at);
    assert.equal(one.publishedAt, restV1.published_at);
    assert.equal(one.url, restV1.html_url);
    assert.equal(one.resourcePath, `/${r.owner}/${r.repo}/releases/tag/v1`);
    assert.equal(one.description, 'See **this**');
    assert.match(one.descriptionHTML, /<strong>this<\/strong>/);
    assert.equal(one.author.login, alice.login);
    assert.equal(one.tagCommit.oid, r.head);
    assert.deepEqual(one.tag, { name: 'v1', target: { oid: r.head } });
    assert.equal(one.repository.nameWithOwner, `${r.owner}/${r.repo}`);
    const asset = restV1.assets[0]!;
    assert.deepEqual(one.releaseAssets, { totalCount: 1, nodes: [{
      id: asset.node_id, name: 'tool.zip', size: 6, downloadCount: 0, url: asset.browser_download_url, downloadUrl: asset.browser_download_url,
      contentType: 'application/zip', uploadedBy: { login: alice.login }, release: { tagName: 'v1' },
    }] });
    assert.equal(mine.repository.releases.nodes.find((n) => n.databaseId === rc.id)!.isLatest, false);

    // A reader: no draft in the list, release(tagName:) of a draft is null.
    const theirs = await gql(t, bob.token)<Answer>(query);
    assert.deepEqual(theirs.repository.releases.nodes.map((n) => n.databaseId), [rc.id, v1.id]);
    assert.equal(theirs.repository.draft, null);

    // node(id:) with REST's node_id; a draft's id is nothing to a reader.
    type NodeAnswer = { node: { databaseId?: number; name?: string } | null };
    const byId = await gql(t, bob.token)<NodeAnswer>(`{ node(id: "${v1.node_id}") { ... on Release { databaseId } } }`);
    assert.equal(byId.node!.databaseId, v1.id);
    const assetNode = await gql(t, bob.token)<NodeAnswer>(`{ node(id: "${asset.node_id}") { ... on ReleaseAsset { name } } }`);
    assert.equal(assetNode.node!.name, 'tool.zip');
    const hidden = await graphqlErrors(gql(t, bob.token)<NodeAnswer>(`{ node(id: "${draft.node_id}") { ... on Release { databaseId } } }`));
    assert.match(hidden.errors[0]!.message, /Could not resolve to a node/);
    assert.deepEqual(hidden.data, { node: null });
    const shown = await gql(t, alice.token)<NodeAnswer>(`{ node(id: "${draft.node_id}") { ... on Release { databaseId } } }`);
    assert.equal(shown.node!.databaseId, draft.id);
  });

  test("gh release list's query (RepositoryReleaseList, as githubv4 writes it) pages through every release", async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    for (const tag of ['g1', 'g2', 'g3']) await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: tag, draft: tag === 'g3' });
    const query = 'query RepositoryReleaseList($direction:OrderDirection!$endCursor:String$name:String!$owner:String!$perPage:Int!){repository(owner: $owner, name: $name){releases(first: $perPage, orderBy: {field: CREATED_AT, direction: $direction}, after: $endCursor){nodes{name,tagName,isDraft,isLatest,isPrerelease,createdAt,publishedAt},pageInfo{hasNextPage,endCursor}}}}';
    type Answer = { repository: { releases: { nodes: { tagName: string; isDraft: boolean; isLatest: boolean; publishedAt: string | null }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } };
    const seen: Answer['repository']['releases']['nodes'] = [];
    let endCursor: string | null = null;
    for (;;) {
      const page: Answer = await gql(t, alice.token)<Answer>(query, { owner: r.owner, name: r.repo, perPage: 2, endCursor, direction: 'DESC' });
      seen.push(...page.repository.releases.nodes);
      if (!page.repository.releases.pageInfo.hasNextPage) break;
      endCursor = page.repository.releases.pageInfo.endCursor;
    }
    assert.deepEqual(seen.map((n) => [n.tagName, n.isDraft, n.isLatest, n.publishedAt === null]), [['g3', true, false, true], ['g2', false, true, false], ['g1', false, false, false]]);
  });

  test('Repository.releases pages forwards with after, ordered by name too', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const made: number[] = [];
    for (const [tag, name] of [['t1', 'b'], ['t2', 'c'], ['t3', 'a']]) {
      made.push((await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: tag!, name: name! })).data.id);
    }
    type Page = { repository: { releases: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { databaseId: number; name: string }[] } } };
    const page = (args: string) => gql(t, alice.token)<Page>(`{ repository(owner: "${r.owner}", name: "${r.repo}") {
      releases(${args}) { pageInfo { hasNextPage endCursor } nodes { databaseId name } } } }`);
    const first = await page('first: 2');
    assert.deepEqual(first.repository.releases.nodes.map((n) => n.databaseId), [made[2], made[1]]);
    assert.equal(first.repository.releases.pageInfo.hasNextPage, true);
    const second = await page(`first: 2, after: "${first.repository.releases.pageInfo.endCursor}"`);
    assert.deepEqual(second.repository.releases.nodes.map((n) => n.databaseId), [made[0]]);
    // A release without a name sorts first on either dialect.
    await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 't4' });
    const byName = await page('first: 10, orderBy: {field: NAME, direction: ASC}');
    assert.deepEqual(byName.repository.releases.nodes.map((n) => n.name), [null, 'a', 'b', 'c']);
    const byNameDesc = await page('first: 10, orderBy: {field: NAME, direction: DESC}');
    assert.deepEqual(byNameDesc.repository.releases.nodes.map((n) => n.name), ['c', 'b', 'a', null]);
  });
});
