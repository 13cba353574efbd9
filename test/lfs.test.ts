// Git LFS (basic transfer) served by Wharf: the real git-lfs client pushes and clones
// large files over HTTP with a token from git's credential helper, an import with
// use_lfs opt_in clones with its large files smudged (its commits name them in
// .gitattributes), and the batch, download, upload
// and verify endpoints answer as git-lfs's docs/api describe, refusals included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, USER_AGENT, type TestServer } from './helpers/server.ts';
import { gitOk, tempDir } from './helpers/git.ts';
import { GitSourceServer, writeFile } from './helpers/import-sources.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { createOrg, createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { addCollaborator } from './factories/issues.ts';

const LFS = 'application/vnd.git-lfs+json';
const LARGE = 2000;

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;
let carol: CreatedUser;
let source: GitSourceServer;
let sourceRoot: string;

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const basic = (u: CreatedUser) => `Basic ${Buffer.from(`${u.login}:${u.token}`).toString('base64')}`;

function objectFile(r: CreatedRepo, oid: string): string {
  return path.join(t.dataDir, 'lfs', String(r.id), 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
}

/**
 * A global git config for `user`: git-lfs's filters (as `git lfs install` writes them)
 * and a credential store holding the user's token, so that git and git-lfs both
 * authenticate as a user of Wharf would, through git's credential helper.
 */
function gitEnvFor(user: CreatedUser): Record<string, string> {
  const dir = tempDir('wharf-lfs-home-');
  const credentials = path.join(dir, 'credentials');
  const url = new URL(t.baseUrl);
  url.username = user.login;
  url.password = user.token;
  fs.writeFileSync(credentials, `${url.toString().replace(/\/$/, '')}\n`, { mode: 0o600 });
  const config = path.join(dir, 'gitconfig');
  fs.writeFileSync(config, [
    '[filter "lfs"]', '\tclean = git-lfs clean -- %f', '\tsmudge = git-lfs smudge -- %f', '\tprocess = git-lfs filter-process', '\trequired = true',
    '[credential]', `\thelper = store --file=${credentials}`,
  ].join('\n'));
  return { GIT_CONFIG_GLOBAL: config, HOME: dir };
}

function remote(r: CreatedRepo): string {
  return `${t.baseUrl}/${r.owner}/${r.repo}.git`;
}

async function lfsRequest(pathname: string, user: CreatedUser | null, init: { method: string; json?: unknown; body?: Buffer; headers?: Record<string, string> }): Promise<Response> {
  const headers: Record<string, string> = { accept: LFS, ...init.headers };
  if (user) headers.authorization = basic(user);
  if (init.json !== undefined) headers['content-type'] = LFS;
  return t.request(pathname, { method: init.method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body && new Uint8Array(init.body) });
}

interface BatchAnswer {
  transfer: string;
  hash_algo: string;
  objects: {
    oid: string; size: number; authenticated?: boolean;
    actions?: Record<string, { href: string; header?: Record<string, string>; expires_in: number }>;
    error?: { code: number; message: string };
  }[];
}

async function batch(r: CreatedRepo, user: CreatedUser | null, body: unknown, suffix = '.git'): Promise<Response> {
  return lfsRequest(`/${r.owner}/${r.repo}${suffix}/info/lfs/objects/batch`, user, { method: 'POST', json: body });
}

async function batchOk(r: CreatedRepo, user: CreatedUser | null, body: unknown, suffix = '.git'): Promise<BatchAnswer> {
  const res = await batch(r, user, body, suffix);
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^application\/vnd\.git-lfs\+json/);
  return (await res.json()) as BatchAnswer;
}

async function put(r: CreatedRepo, user: CreatedUser | null, oid: string, body: Buffer): Promise<Response> {
  return lfsRequest(`/${r.owner}/${r.repo}.git/info/lfs/objects/${oid}`, user, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } });
}

/** An LFS error answer: the status, LFS's media type and error form. */
async function assertLfsError(res: Response, status: number, message?: RegExp): Promise<{ message: string; request_id?: string }> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/vnd\.git-lfs\+json/);
  const body = JSON.parse(text) as { message: string; request_id?: string };
  assert.equal(typeof body.message, 'string');
  if (message) assert.match(body.message, message);
  return body;
}

before(async () => {
  sourceRoot = tempDir('wharf-lfs-source-');
  source = await new GitSourceServer(sourceRoot).start();
  t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WHARF_IMPORT_LARGE_FILE_BYTES: String(LARGE), WHARF_IMPORT_POLL_MS: '50' } });
  alice = await createUser(t);
  bob = await createUser(t);
  carol = await createUser(t);
});

after(async () => {
  await t.close();
  await source.stop();
});

describe('Git LFS', () => {
  test('git lfs push stores the object in Wharf; a fresh clone gets the real content through LFS', async () => {
    const r = await createRepo(t, alice, { private: true });
    const env = gitEnvFor(alice);
    const work = path.join(tempDir(), 'work');
    await gitOk(['clone', '-q', remote(r), work], { env });
    await gitOk(['lfs', 'install', '--local'], { cwd: work, env });
    await gitOk(['lfs', 'track', '*.bin'], { cwd: work, env });
    const content = randomBytes(300 * 1024);
    fs.writeFileSync(path.join(work, 'cargo.bin'), content);
    await gitOk(['add', '.gitattributes', 'cargo.bin'], { cwd: work, env });
    await gitOk(['commit', '-q', '-m', 'Load cargo'], { cwd: work, env });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work, env });

    const oid = sha256(content);
    assert.deepEqual(fs.readFileSync(objectFile(r, oid)), content, 'the pushed object is stored under its oid');
    // git holds the pointer only.
    const pointer = await gitOk(['cat-file', '-p', 'HEAD:cargo.bin'], { cwd: work, env });
    assert.equal(pointer, `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n`);

    const again = path.join(tempDir(), 'again');
    await gitOk(['clone', '-q', remote(r), again], { env });
    assert.deepEqual(fs.readFileSync(path.join(again, 'cargo.bin')), content, 'the clone smudged the pointer to the real file');
    assert.equal(await gitOk(['cat-file', '-p', 'HEAD:cargo.bin'], { cwd: again, env }), pointer);
  });

  test('after an import with use_lfs opt_in, a plain clone with git lfs gets the real content: each commit names its LFS files in .gitattributes, beside the source\'s own lines', async () => {
    const letters = (n: number, from: number) => Buffer.from(Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i + from) % 26))).join(''));
    const big = letters(LARGE + 700, 0);
    const spaced = letters(LARGE + 300, 7);
    // Ada: the source's own .gitattributes (no final newline), a large file; Bo: a
    // second one under a name with a space and another .gitattributes line; a branch
    // that removes the first large file.
    const src = tempDir('wharf-lfs-src-');
    const ada = { GIT_AUTHOR_NAME: 'Ada Source', GIT_AUTHOR_EMAIL: 'ada@source.example', GIT_COMMITTER_NAME: 'Ada Source', GIT_COMMITTER_EMAIL: 'ada@source.example' };
    const bo = { GIT_AUTHOR_NAME: 'Bo Source', GIT_AUTHOR_EMAIL: 'bo@source.example', GIT_COMMITTER_NAME: 'Bo Source', GIT_COMMITTER_EMAIL: 'bo@source.example' };
    const commit = async (message: string, env: Record<string, string>) => {
      await gitOk(['add', '-A'], { cwd: src });
      await gitOk(['commit', '-q', '-m', message], { cwd: src, env });
    };
    await gitOk(['init', '-q', '-b', 'main', src]);
    writeFile(src, 'README.md', '# imported\n');
    writeFile(src, '.gitattributes', '*.txt text');
    await commit('the project', ada);
    writeFile(src, 'big.bin', big);
    await commit('a large file', ada);
    await gitOk(['checkout', '-q', '-b', 'slim'], { cwd: src });
    fs.rmSync(path.join(src, 'big.bin'));
    writeFile(src, 'notes.txt', 'no large file here\n');
    await commit('without the large file', bo);
    await gitOk(['checkout', '-q', 'main'], { cwd: src });
    writeFile(src, 'assets/big file.bin', spaced);
    writeFile(src, '.gitattributes', '*.txt text\n*.md text\n');
    await commit('another large file', bo);
    const sourceGit = path.join(sourceRoot, 'large.git');
    await gitOk(['clone', '-q', '--bare', src, sourceGit]);

    const shape = async (gitDir: string) => (await gitOk(['--git-dir', gitDir, 'log', '--all', '--format=%an <%ae>|%cn <%ce>|%s'])).trim().split('\n').sort();
    // Each commit's .gitattributes, by subject.
    const attributesOf = async (gitDir: string) => {
      const subjects = (await gitOk(['--git-dir', gitDir, 'log', '--all', '--format=%H %s'])).trim().split('\n');
      const out: Record<string, string> = {};
      for (const line of subjects) {
        const space = line.indexOf(' ');
        out[line.slice(space + 1)] = await gitOk(['--git-dir', gitDir, 'show', `${line.slice(0, space)}:.gitattributes`]);
      }
      return out;
    };
    const sourceAttributes = await attributesOf(sourceGit);
    const r = await createRepo(t, alice, { autoInit: false });
    const env = gitEnvFor(alice);
    const mirrorOf = async () => {
      const mirror = path.join(tempDir(), 'm.git');
      await gitOk(['clone', '-q', '--mirror', remote(r), mirror], { env });
      return mirror;
    };

    const importPath = `/repos/${r.owner}/${r.repo}/import`;
    const status = async () => ((await (await t.request(importPath, { token: alice.token })).json()) as { status: string }).status;
    assert.equal((await t.request(importPath, { method: 'PUT', token: alice.token, json: { vcs_url: source.url('large.git') } })).status, 201);
    await eventually(async () => ((await status()) === 'complete' ? true : undefined), 30_000, 'import complete');
    // Undecided: the large files as they are, and the source's .gitattributes untouched.
    let mirror = await mirrorOf();
    assert.deepEqual(await attributesOf(mirror), sourceAttributes);
    assert.deepEqual(await shape(mirror), await shape(sourceGit));

    assert.equal((await t.request(`${importPath}/lfs`, { method: 'PATCH', token: alice.token, json: { use_lfs: 'opt_in' } })).status, 200);
    mirror = await eventually(async () => {
      const m = await mirrorOf();
      const text = await gitOk(['--git-dir', m, 'show', 'main:big.bin'], { env }).catch(() => '');
      return text.startsWith('version https://git-lfs.github.com/spec/v1') && (await status()) === 'complete' ? m : undefined;
    }, 60_000, 'the large file as an LFS pointer');
    const line = (p: string) => `${p} filter=lfs diff=lfs merge=lfs -text\n`;
    assert.deepEqual(await attributesOf(mirror), {
      'the project': '*.txt text',
      'a large file': `*.txt text\n${line('/big.bin')}`,
      'without the large file': '*.txt text',
      'another large file': `*.txt text\n*.md text\n${line('/assets/big[[:space:]]file.bin')}${line('/big.bin')}`,
    });
    assert.deepEqual(await shape(mirror), await shape(sourceGit), 'commits and authors as the source has them');

    // A plain clone: git-lfs smudges every pointer, by the attributes the commits hold.
    const clone = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', remote(r), clone], { env });
    assert.deepEqual(fs.readFileSync(path.join(clone, 'big.bin')), big);
    assert.deepEqual(fs.readFileSync(path.join(clone, 'assets', 'big file.bin')), spaced);
    assert.match(await gitOk(['cat-file', '-p', 'HEAD:big.bin'], { cwd: clone, env }), new RegExp(`^version https://git-lfs.github.com/spec/v1\noid sha256:${sha256(big)}\nsize ${big.length}\n$`));
    assert.equal(await gitOk(['status', '--porcelain'], { cwd: clone, env }), '', 'the work tree is clean');
    await gitOk(['checkout', '-q', 'slim'], { cwd: clone, env });
    assert.equal(fs.existsSync(path.join(clone, 'big.bin')), false);

    // opt_out: the large files leave the history, and with them the LFS lines.
    assert.equal((await t.request(`${importPath}/lfs`, { method: 'PATCH', token: alice.token, json: { use_lfs: 'opt_out' } })).status, 200);
    mirror = await eventually(async () => {
      const m = await mirrorOf();
      const files = await gitOk(['--git-dir', m, 'log', '--all', '--name-only', '--format='], { env });
      return !files.includes('big') && (await status()) === 'complete' ? m : undefined;
    }, 60_000, 'the large files dropped');
    assert.deepEqual(await attributesOf(mirror), sourceAttributes);
    assert.deepEqual(await shape(mirror), await shape(sourceGit));
  });

  test('the batch API: upload and verify actions from the base URL, nothing for stored objects, download actions, per-object 404 and 422', async () => {
    const r = await createRepo(t, alice, { private: true });
    const content = Buffer.from('an object sent through the batch API\n');
    const oid = sha256(content);
    const missing = sha256('never uploaded');

    const up = await batchOk(r, alice, { operation: 'upload', transfers: ['basic'], ref: { name: 'refs/heads/main' }, objects: [{ oid, size: content.length }, { oid: 'not-an-oid', size: 3 }] });
    assert.equal(up.transfer, 'basic');
    assert.equal(up.hash_algo, 'sha256');
    const [wanted, bad] = up.objects;
    assert.equal(wanted!.oid, oid);
    assert.equal(wanted!.size, content.length);
    assert.equal(wanted!.actions!.upload!.href, `${t.baseUrl}/${r.owner}/${r.repo}.git/info/lfs/objects/${oid}`);
    assert.equal(wanted!.actions!.verify!.href, `${t.baseUrl}/${r.owner}/${r.repo}.git/info/lfs/verify`);
    assert.deepEqual(wanted!.actions!.upload!.header, { Authorization: basic(alice) });
    assert.ok(wanted!.actions!.upload!.expires_in > 0);
    assert.equal(bad!.error!.code, 422);
    assert.equal(bad!.actions, undefined);

    // The client follows the actions as given.
    const upload = wanted!.actions!.upload!;
    const stored = await fetch(upload.href, { method: 'PUT', headers: { ...upload.header, 'content-type': 'application/octet-stream', 'user-agent': USER_AGENT }, body: content });
    assert.equal(stored.status, 200, await stored.clone().text());
    const verify = wanted!.actions!.verify!;
    const verified = await fetch(verify.href, { method: 'POST', headers: { ...verify.header, 'content-type': LFS, accept: LFS, 'user-agent': USER_AGENT }, body: JSON.stringify({ oid, size: content.length }) });
    assert.equal(verified.status, 200, await verified.clone().text());
    assert.deepEqual(fs.readFileSync(objectFile(r, oid)), content);

    const again = await batchOk(r, alice, { operation: 'upload', objects: [{ oid, size: content.length }] });
    assert.deepEqual(again.objects, [{ oid, size: content.length }], 'a stored object gets no actions');

    // Without the .git suffix, as a remote may be named.
    const down = await batchOk(r, alice, { operation: 'download', objects: [{ oid, size: content.length }, { oid: missing, size: 5 }, { oid: oid.toUpperCase(), size: 1 }] }, '');
    const download = down.objects[0]!.actions!.download!;
    assert.equal(download.href, `${t.baseUrl}/${r.owner}/${r.repo}.git/info/lfs/objects/${oid}`);
    assert.deepEqual(down.objects[1], { oid: missing, size: 5, error: { code: 404, message: 'Object does not exist.' } });
    assert.equal(down.objects[2]!.error!.code, 422);
    const bytes = await fetch(download.href, { headers: { ...download.header, 'user-agent': USER_AGENT } });
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'application/octet-stream');
    assert.equal(bytes.headers.get('content-length'), String(content.length));
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), content);

    // Only basic transfers, only sha256 names, and a body that is a batch.
    await assertLfsError(await batch(r, alice, { operation: 'download', transfers: ['tus'], objects: [] }), 422, /basic/);
    await assertLfsError(await batch(r, alice, { operation: 'download', hash_algo: 'sha1', objects: [] }), 409, /sha1/);
    await assertLfsError(await batch(r, alice, { operation: 'copy', objects: [] }), 422);
    await assertLfsError(await batch(r, alice, { operation: 'download', objects: [{ oid, size: -1 }] }), 422);
  });

  test('uploads: bytes that are not the object are a 422 and store nothing; bad oids are a 422; verify checks what is stored', async () => {
    const r = await createRepo(t, alice, { private: true });
    const content = Buffer.from('the real content\n');
    const oid = sha256(content);
    const wrong = await put(r, alice, oid, Buffer.from('other content!!!!\n'));
    await assertLfsError(wrong, 422, /hashes to/);
    assert.equal(fs.existsSync(objectFile(r, oid)), false);
    const tmp = path.join(t.dataDir, 'lfs', String(r.id), 'tmp');
    assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], [], 'no temporary file is left');
    const looked = await batchOk(r, alice, { operation: 'download', objects: [{ oid, size: content.length }] });
    assert.equal(looked.objects[0]!.error!.code, 404);
    await assertLfsError(await lfsRequest(`/${r.owner}/${r.repo}.git/info/lfs/verify`, alice, { method: 'POST', json: { oid, size: content.length } }), 404);

    await assertLfsError(await put(r, alice, 'not-an-oid', content), 422, /SHA-256/);
    await assertLfsError(await lfsRequest(`/${r.owner}/${r.repo}.git/info/lfs/objects/not-an-oid`, alice, { method: 'GET' }), 422, /SHA-256/);

    assert.equal((await put(r, alice, oid, content)).status, 200);
    assert.deepEqual(fs.readFileSync(objectFile(r, oid)), content);
    await assertLfsError(await lfsRequest(`/${r.owner}/${r.repo}.git/info/lfs/verify`, alice, { method: 'POST', json: { oid, size: content.length + 1 } }), 422, /bytes/);
    const empty = await put(r, alice, sha256(''), Buffer.alloc(0));
    assert.equal(empty.status, 200, 'an empty object is an object');
  });

  test('who may: 401 with the challenge for anonymous callers, 404 where the caller cannot see, 403 for readers and archived repositories', async () => {
    // In an organization: only there may a collaborator be given read access alone.
    const org = await createOrg(t, alice.login);
    const closed = await createRepo(t, alice, { org: org.login, private: true });
    const open = await createRepo(t, alice);
    const content = Buffer.from('guarded\n');
    const oid = sha256(content);
    assert.equal((await put(closed, alice, oid, content)).status, 200);
    assert.equal((await put(open, alice, oid, content)).status, 200);
    const download = { operation: 'download', objects: [{ oid, size: content.length }] };
    const upload = { operation: 'upload', objects: [{ oid: sha256('new'), size: 3 }] };

    // Anonymous on a private repository: challenged, so git's credential helper is asked.
    const anon = await batch(closed, null, download);
    assert.match(anon.headers.get('lfs-authenticate') ?? '', /^Basic realm=/);
    assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    const body = await assertLfsError(anon, 401);
    assert.equal(body.request_id, anon.headers.get('x-service-request-id'));
    await assertLfsError(await lfsRequest(`/${closed.owner}/${closed.repo}.git/info/lfs/objects/${oid}`, null, { method: 'GET' }), 401);
    // Anonymous on a public repository: downloads need nothing, uploads credentials.
    const pub = await batchOk(open, null, download);
    assert.equal(pub.objects[0]!.actions!.download!.header, undefined);
    assert.deepEqual(Buffer.from(await (await t.request(`/${open.owner}/${open.repo}.git/info/lfs/objects/${oid}`)).arrayBuffer()), content);
    await assertLfsError(await batch(open, null, upload), 401);
    await assertLfsError(await put(open, null, oid, content), 401);

    // A user who cannot see the repository finds nothing there.
    await assertLfsError(await batch(closed, carol, download), 404);
    await assertLfsError(await lfsRequest(`/${closed.owner}/${closed.repo}.git/info/lfs/objects/${oid}`, carol, { method: 'GET' }), 404);
    await assertLfsError(await put(closed, carol, oid, content), 404);
    await assertLfsError(await batch({ ...closed, repo: 'no-such-repo' }, alice, download), 404);

    // A read-only collaborator downloads but may not upload; nor may anyone to a public repository they cannot push to.
    await addCollaborator(t, alice.token, closed, bob, 'pull');
    assert.ok((await batchOk(closed, bob, download)).objects[0]!.actions!.download);
    await assertLfsError(await batch(closed, bob, upload), 403, /denied/);
    await assertLfsError(await put(closed, bob, oid, content), 403);
    await assertLfsError(await batch(open, carol, upload), 403);

    // An archived repository is read-only, for LFS as for git.
    assert.equal((await t.request(`/repos/${open.owner}/${open.repo}`, { method: 'PATCH', token: alice.token, json: { archived: true } })).status, 200);
    await assertLfsError(await batch(open, alice, upload), 403, /archived/);
    assert.equal((await batchOk(open, alice, download)).objects[0]!.error, undefined);
  });

  test('deleting a repository removes its LFS objects', async () => {
    const r = await createRepo(t, alice);
    const content = Buffer.from('goes with its repository\n');
    assert.equal((await put(r, alice, sha256(content), content)).status, 200);
    assert.ok(fs.existsSync(objectFile(r, sha256(content))));
    const token = await createToken(t, alice.login, ['repo', 'delete_repo']);
    assert.equal((await t.request(`/repos/${r.owner}/${r.repo}`, { method: 'DELETE', token })).status, 204);
    assert.equal(fs.existsSync(path.join(t.dataDir, 'lfs', String(r.id))), false);
  });
});
