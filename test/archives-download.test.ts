// GET …/tarball/{ref} and …/zipball/{ref}: 302 to Wharf's download address, which
// streams git archive of the ref's commit; a private repository's address carries a
// signed token that works without credentials, for a short time only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';
import { DOWNLOAD_TTL_MS } from '../src/modules/releases/archives.service.ts';

const run = promisify(execFile);
const clock = new TestClock();
let t: TestServer;
let dir: string;

before(async () => {
  t = await startTestServer({ clock });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wharf-archives-'));
});
after(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** The file names in an archive, as tar or unzip lists them. */
async function listing(bytes: ArrayBuffer, kind: 'tar.gz' | 'zip'): Promise<string[]> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${kind}`);
  await fs.writeFile(file, Buffer.from(bytes));
  const { stdout } = kind === 'zip' ? await run('zipinfo', ['-1', file]) : await run('tar', ['-tzf', file]);
  return stdout.split('\n').filter(Boolean).sort();
}

async function repoWithFile(isPrivate: boolean) {
  const user = await createUser(t);
  const kit = t.octokit(user.token);
  const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: `arch-${isPrivate ? 'p' : 'o'}`, auto_init: true, private: isPrivate });
  const { data } = await kit.rest.repos.createOrUpdateFileContents({
    owner: user.login, repo: repo.name, path: 'src/a.txt', message: 'a', content: Buffer.from('a').toString('base64'),
  });
  return { user, kit, owner: user.login, repo: repo.name, sha: data.commit.sha! };
}

test('a public repository: 302 to the download address; Octokit follows it and gets the archive', async () => {
  const r = await repoWithFile(false);
  const res = await t.request(`/repos/${r.owner}/${r.repo}/tarball/main`, { redirect: 'manual' });
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('location'), `${t.baseUrl}/codeload/${r.owner}/${r.repo}/legacy.tar.gz/${r.sha}`);
  const prefix = `${r.owner}-${r.repo}-${r.sha.slice(0, 7)}`;
  const expected = [`${prefix}/`, `${prefix}/README.md`, `${prefix}/src/`, `${prefix}/src/a.txt`];

  const tar = await t.octokit().rest.repos.downloadTarballArchive({ owner: r.owner, repo: r.repo, ref: 'main' });
  assert.equal(tar.status, 200);
  assert.deepEqual(await listing(tar.data as ArrayBuffer, 'tar.gz'), expected);
  const zip = await r.kit.rest.repos.downloadZipballArchive({ owner: r.owner, repo: r.repo, ref: r.sha });
  assert.equal(zip.headers['content-type'], 'application/zip');
  assert.deepEqual(await listing(zip.data as ArrayBuffer, 'zip'), expected);

  assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/tarball/no-such-ref`, { redirect: 'manual' })).status, 404);
  assert.equal((await t.request(`/codeload/${r.owner}/${r.repo}/legacy.zip/${'0'.repeat(40)}`)).status, 404);
});

test('a private repository: the link works without credentials until it expires; others get 404', async () => {
  const r = await repoWithFile(true);
  assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/zipball/main`, { redirect: 'manual' })).status, 404);
  const res = await t.request(`/repos/${r.owner}/${r.repo}/zipball/main`, { token: r.user.token, redirect: 'manual' });
  assert.equal(res.status, 302);
  const location = new URL(res.headers.get('location')!);
  assert.equal(location.pathname, `/codeload/${r.owner}/${r.repo}/legacy.zip/${r.sha}`);
  assert.match(location.searchParams.get('token') ?? '', /^\d+\.[\w-]+$/);

  const path = `${location.pathname}${location.search}`;
  const got = await t.request(path);
  assert.equal(got.status, 200);
  assert.ok((await listing(await got.arrayBuffer(), 'zip')).includes(`${r.owner}-${r.repo}-${r.sha.slice(0, 7)}/src/a.txt`));
  // Without a token, or with one altered or made for another format, nothing.
  assert.equal((await t.request(location.pathname)).status, 404);
  assert.equal((await t.request(`${location.pathname}?token=${location.searchParams.get('token')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`)).status, 404);
  assert.equal((await t.request(path.replace('legacy.zip', 'legacy.tar.gz'))).status, 404);
  // The owner's own token still opens it without the link's token.
  assert.equal((await t.request(location.pathname, { token: r.user.token })).status, 200);

  clock.advance(DOWNLOAD_TTL_MS + 1);
  assert.equal((await t.request(path)).status, 404, 'the link expired');
  assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/tarball/nope`, { token: r.user.token, redirect: 'manual' })).status, 404);
});
