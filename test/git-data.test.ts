// The Git database API (blobs, trees, commits, refs, tags) against real repositories,
// checked with Octokit, the published OpenAPI description and the git binary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failureWithErrors as failure } from './helpers/failures.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

async function hashOf(bytes: Buffer): Promise<string> {
  const dir = tempDir();
  const file = path.join(dir, 'blob');
  fs.writeFileSync(file, bytes);
  return (await gitOk(['hash-object', file])).trim();
}

/** gpg, asynchronously (the server shares this process). */
function gpg(home: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('gpg', ['--batch', '--homedir', home, ...args], { encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function hasGpg(): Promise<boolean> {
  return new Promise((resolve) => execFile('gpg', ['--version'], (err) => resolve(!err)));
}

describe('git database API', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const repo = 'data-dock';

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'hidden-dock', auto_init: true, private: true });
  });
  after(() => t.close());

  test('blobs: 201 with a sha equal to git hash-object of the bytes, utf-8 and base64', async () => {
    const octokit = t.octokit(alice.token);
    const text = 'Ahoy, wharf! ⚓\n';
    const created = await octokit.rest.git.createBlob({ owner: alice.login, repo, content: text });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/git/blobs', 201, created.data);
    assert.equal(created.data.sha, (await git(['hash-object', '--stdin'], { input: text })).stdout.trim());
    assert.equal(created.data.url, `${t.baseUrl}/repos/${alice.login}/${repo}/git/blobs/${created.data.sha}`);
    assert.equal(created.headers.location, created.data.url);

    const binary = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));
    const b64 = await octokit.rest.git.createBlob({ owner: alice.login, repo, content: binary.toString('base64'), encoding: 'base64' });
    assert.equal(b64.data.sha, await hashOf(binary));

    const { data } = await octokit.rest.git.getBlob({ owner: alice.login, repo, file_sha: b64.data.sha });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}', 200, data);
    assert.equal(data.encoding, 'base64');
    assert.equal(data.size, 300);
    assert.equal(data.sha, b64.data.sha);
    assert.ok(data.node_id);
    // Upstream's form: lines of 60 characters, each ending in a newline.
    assert.ok(data.content.split('\n').slice(0, -1).every((l) => l.length <= 60));
    assert.equal(data.content.split('\n')[0]!.length, 60);
    assert.ok(data.content.endsWith('\n'));
    assert.deepEqual(Buffer.from(data.content, 'base64'), binary);
  });

  test('a blob with the raw media type is its bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const { data: blob } = await t.octokit(alice.token).rest.git.createBlob({ owner: alice.login, repo, content: bytes.toString('base64'), encoding: 'base64' });
    const res = await t.request(`/repos/${alice.login}/${repo}/git/blobs/${blob.sha}`, { token: alice.token, headers: { accept: 'application/vnd.github.raw' } });
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    const service = await t.request(`/repos/${alice.login}/${repo}/git/blobs/${blob.sha}`, { token: alice.token, headers: { accept: 'application/vnd.service.raw' } });
    assert.deepEqual(Buffer.from(await service.arrayBuffer()), bytes);
  });

  test('blob errors: bad base64 or encoding 422, unknown sha 404, malformed sha 422, no push access 403, hidden repository 404', async () => {
    const octokit = t.octokit(alice.token);
    const bad = await failure(octokit.rest.git.createBlob({ owner: alice.login, repo, content: '!!not base64!!', encoding: 'base64' }));
    assert.equal(bad.status, 422);
    assert.match(bad.message, /Base64/);
    const enc = await failure(octokit.rest.git.createBlob({ owner: alice.login, repo, content: 'x', encoding: 'latin-1' }));
    assert.equal(enc.status, 422);
    assert.equal(enc.errors?.[0]?.field, 'encoding');
    const missingContent = await t.request(`/repos/${alice.login}/${repo}/git/blobs`, { method: 'POST', token: alice.token, json: {} });
    assert.equal(missingContent.status, 422);
    assert.equal((await missingContent.json()).errors[0].code, 'missing_field');
    assert.equal((await failure(octokit.rest.git.getBlob({ owner: alice.login, repo, file_sha: 'a'.repeat(40) }))).status, 404);
    assert.equal((await failure(octokit.rest.git.getBlob({ owner: alice.login, repo, file_sha: 'not-a-sha' }))).status, 422);
    const { data: tree } = await octokit.rest.git.getTree({ owner: alice.login, repo, tree_sha: 'main' });
    assert.equal((await failure(octokit.rest.git.getBlob({ owner: alice.login, repo, file_sha: tree.sha }))).status, 404, 'a tree is not a blob');
    const denied = await failure(t.octokit(bob.token).rest.git.createBlob({ owner: alice.login, repo, content: 'x' }));
    assert.equal(denied.status, 403);
    assert.equal((await failure(t.octokit(bob.token).rest.git.createBlob({ owner: alice.login, repo: 'hidden-dock', content: 'x' }))).status, 404);
    const { data: readme } = await octokit.rest.git.getTree({ owner: alice.login, repo: 'hidden-dock', tree_sha: 'main' });
    assert.equal((await failure(t.octokit(bob.token).rest.git.getBlob({ owner: alice.login, repo: 'hidden-dock', file_sha: readme.tree[0]!.sha }))).status, 404);
    assert.equal((await failure(t.octokit().rest.git.getBlob({ owner: alice.login, repo: 'hidden-dock', file_sha: readme.tree[0]!.sha }))).status, 404);
  });

  test('a blob over 100 MB is refused with a 422 that says so', async () => {
    const res = await t.request(`/repos/${alice.login}/${repo}/git/blobs`, {
      method: 'POST', token: alice.token, headers: { 'content-type': 'application/json' },
      body: `{"content":"${'a'.repeat(100 * 1024 * 1024 + 1)}"}`,
    });
    assert.equal(res.status, 422);
    const body = await res.json();
    assert.match(body.message, /too large/);
    assert.equal(body.errors[0].field, 'content');
  });

  test('trees: nested paths, base_tree merges, sha null deletes; GET by sha or branch, recursive', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: blob } = await octokit.rest.git.createBlob({ owner, repo, content: 'shared\n' });
    const first = await octokit.rest.git.createTree({
      owner, repo, tree: [
        { path: 'docs/guide/intro.md', mode: '100644', type: 'blob', content: '# Intro\n' },
        { path: 'bin/run', mode: '100755', type: 'blob', sha: blob.sha },
        { path: 'top.txt', mode: '100644', content: 'top\n' },
      ],
    });
    assert.equal(first.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/git/trees', 201, first.data);
    assert.deepEqual(first.data.tree.map((e) => `${e.mode} ${e.type} ${e.path}`), ['040000 tree bin', '040000 tree docs', '100644 blob top.txt']);
    const topEntry = first.data.tree.find((e) => e.path === 'top.txt')!;
    assert.equal(topEntry.size, 4);
    assert.equal(topEntry.url, `${t.baseUrl}/repos/${owner}/${repo}/git/blobs/${topEntry.sha}`);

    const recursive = await octokit.rest.git.getTree({ owner, repo, tree_sha: first.data.sha, recursive: '1' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}', 200, recursive.data);
    assert.equal(recursive.data.truncated, false);
    assert.deepEqual(recursive.data.tree.map((e) => e.path), ['bin', 'bin/run', 'docs', 'docs/guide', 'docs/guide/intro.md', 'top.txt']);
    assert.equal(recursive.data.tree.find((e) => e.path === 'bin/run')!.mode, '100755');
    const flat = await octokit.rest.git.getTree({ owner, repo, tree_sha: first.data.sha });
    assert.equal(flat.data.tree.length, 3);

    const second = await octokit.rest.git.createTree({
      owner, repo, base_tree: first.data.sha, tree: [
        { path: 'docs/guide/more.md', mode: '100644', type: 'blob', content: 'more\n' },
        { path: 'top.txt', mode: '100644', type: 'blob', sha: null },
        { path: 'bin/run', mode: '100755', type: 'blob', sha: null },
      ],
    });
    const all = await octokit.rest.git.getTree({ owner, repo, tree_sha: second.data.sha, recursive: 'true' });
    assert.deepEqual(all.data.tree.map((e) => e.path), ['docs', 'docs/guide', 'docs/guide/intro.md', 'docs/guide/more.md'], 'an emptied directory disappears');
    // The untouched subtree keeps its sha: only the directories on the changed paths are rewritten.
    const unchanged = await octokit.rest.git.createTree({ owner, repo, base_tree: second.data.sha, tree: [{ path: 'new.txt', mode: '100644', content: 'n' }] });
    const docsBefore = all.data.tree.find((e) => e.path === 'docs')!.sha;
    assert.equal(unchanged.data.tree.find((e) => e.path === 'docs')!.sha, docsBefore);

    // GET accepts a branch name (and a commit) for tree_sha, as upstream does.
    const byBranch = await octokit.rest.git.getTree({ owner, repo, tree_sha: 'main' });
    assert.deepEqual(byBranch.data.tree.map((e) => e.path), ['README.md']);
    const { data: head } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    assert.equal((await octokit.rest.git.getTree({ owner, repo, tree_sha: head.object.sha })).data.sha, byBranch.data.sha);
    assert.equal((await failure(octokit.rest.git.getTree({ owner, repo, tree_sha: 'no-such-branch' }))).status, 404);
  });

  test('tree errors are 422 and write nothing', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: base } = await octokit.rest.git.createTree({ owner, repo, tree: [{ path: 'a.txt', mode: '100644', content: 'a' }] });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tree: [{ path: 'gone.txt', mode: '100644', type: 'blob', sha: null }], base_tree: base.sha }, /does not exist/],
      [{ tree: [{ path: 'x', mode: '100644', type: 'blob', sha: 'b'.repeat(40) }] }, /not a valid blob/],
      [{ tree: [{ path: 'x', mode: '040000', type: 'blob', content: 'x' }] }, /does not go with mode/],
      [{ tree: [{ path: 'x', mode: '100644', sha: 'b'.repeat(40), content: 'x' }] }, /either tree.sha or tree.content/],
      [{ tree: [{ path: 'x', mode: '100644' }] }, /either tree.sha or tree.content/],
      [{ tree: [{ path: '../escape', mode: '100644', content: 'x' }] }, /malformed path component/],
      [{ tree: [{ path: '.git/config', mode: '100644', content: 'x' }] }, /\.git/],
      [{ tree: [{ path: 'a.txt/inner', mode: '100644', content: 'x' }], base_tree: base.sha }, /runs through the file/],
      [{ tree: [{ path: 'x', mode: '100644', content: 'x' }], base_tree: 'c'.repeat(40) }, /base_tree/],
      [{ tree: [{ path: 'x', mode: '100600', content: 'x' }] }, /mode/],
    ];
    for (const [body, message] of cases) {
      const res = await t.request(`/repos/${owner}/${repo}/git/trees`, { method: 'POST', token: alice.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = await res.json();
      assert.match(`${err.message} ${JSON.stringify(err.errors)}`, message, JSON.stringify(body));
    }
    // The blob of a refused entry's content was never written.
    const marker = 'content of a refused tree entry';
    await t.request(`/repos/${owner}/${repo}/git/trees`, { method: 'POST', token: alice.token, json: { tree: [{ path: 'ok.txt', mode: '100644', content: marker }, { path: 'bad', mode: '100644', sha: null }] } });
    const sha = (await git(['hash-object', '--stdin'], { input: marker })).stdout.trim();
    assert.equal((await failure(octokit.rest.git.getBlob({ owner, repo, file_sha: sha }))).status, 404);
  });

  test('blob → tree → commit → ref: git clones the same tree and message; the ref change is recorded as a push', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: main } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/ref/{ref}', 200, main);
    const { data: parent } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: main.object.sha });
    const { data: tree } = await octokit.rest.git.createTree({ owner, repo, base_tree: parent.tree.sha, tree: [{ path: 'cargo/manifest.txt', mode: '100644', content: 'crates: 3\n' }] });
    const created = await octokit.rest.git.createCommit({
      owner, repo, message: 'Load the cargo\n\nThree crates.', tree: tree.sha, parents: [main.object.sha],
      author: { name: 'Ada Harbour', email: 'ada@example.com', date: '2024-03-01T10:20:30+05:30' },
    });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/git/commits', 201, created.data);
    assert.equal(created.data.message, 'Load the cargo\n\nThree crates.');
    assert.deepEqual(created.data.author, { name: 'Ada Harbour', email: 'ada@example.com', date: '2024-03-01T04:50:30Z' });
    assert.equal(created.data.committer.email, 'ada@example.com', 'committer defaults to the author');
    assert.deepEqual(created.data.parents.map((p) => p.sha), [main.object.sha]);
    assert.equal(created.data.tree.sha, tree.sha);
    assert.deepEqual({ verified: created.data.verification.verified, reason: created.data.verification.reason }, { verified: false, reason: 'unsigned' });
    assert.equal(created.data.html_url, `${t.baseUrl}/${owner}/${repo}/commit/${created.data.sha}`);
    const { data: fetched } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: created.data.sha });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', 200, fetched);
    assert.deepEqual(fetched, created.data);

    const ref = await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/cargo', sha: created.data.sha });
    assert.equal(ref.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/git/refs', 201, ref.data);
    assert.deepEqual(ref.data.object, { type: 'commit', sha: created.data.sha, url: `${t.baseUrl}/repos/${owner}/${repo}/git/commits/${created.data.sha}` });
    assert.equal(ref.data.url, `${t.baseUrl}/repos/${owner}/${repo}/git/refs/heads/cargo`);
    assert.equal(ref.headers.location, ref.data.url);

    const dir = tempDir();
    await gitOk(['clone', '-q', '-b', 'cargo', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), dir]);
    assert.equal((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim(), created.data.sha);
    assert.equal((await gitOk(['rev-parse', 'HEAD^{tree}'], { cwd: dir })).trim(), tree.sha);
    assert.equal(fs.readFileSync(path.join(dir, 'cargo/manifest.txt'), 'utf8'), 'crates: 3\n');
    assert.equal(await gitOk(['log', '-1', '--format=%B'], { cwd: dir }), 'Load the cargo\n\nThree crates.\n');
    // The timezone offset of the date given is kept in the object.
    assert.match(await gitOk(['cat-file', 'commit', 'HEAD'], { cwd: dir }), /^author Ada Harbour <ada@example.com> 1709268630 \+0530$/m);
    await gitOk(['fsck', '--strict'], { cwd: dir });

    const { data: repoData } = await octokit.rest.repos.get({ owner, repo });
    const creates = await listEvents(t.server.ctx, { event: 'create', repositoryId: repoData.id });
    assert.ok(creates.some((e) => e.payload.ref === 'cargo' && e.payload.ref_type === 'branch'));
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: repoData.id });
    const push = pushes.find((e) => e.payload.ref === 'refs/heads/cargo')!;
    assert.equal(push.payload.after, created.data.sha);
    assert.equal(push.actorId, alice.id);
  });

  test('refs created at the same time: each push and create event names only its own ref', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: main } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    const names = ['lane-1', 'lane-2', 'lane-3', 'lane-4', 'lane-5', 'lane-6'];
    await Promise.all(names.map((n) => octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${n}`, sha: main.object.sha })));
    const { data: repoData } = await octokit.rest.repos.get({ owner, repo });
    const creates = (await listEvents(t.server.ctx, { event: 'create', repositoryId: repoData.id })).filter((e) => String(e.payload.ref).startsWith('lane-'));
    assert.deepEqual(creates.map((e) => e.payload.ref).sort(), names);
    const pushes = (await listEvents(t.server.ctx, { event: 'push', repositoryId: repoData.id })).filter((e) => String(e.payload.ref).startsWith('refs/heads/lane-'));
    assert.deepEqual(pushes.map((e) => e.payload.ref).sort(), names.map((n) => `refs/heads/${n}`));
  });

  test('root and merge commits; commit errors are 422', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: tree } = await octokit.rest.git.createTree({ owner, repo, tree: [{ path: 'f', mode: '100644', content: 'f' }] });
    const { data: root } = await octokit.rest.git.createCommit({ owner, repo, message: 'root', tree: tree.sha });
    assert.deepEqual(root.parents, []);
    const { data: other } = await octokit.rest.git.createCommit({ owner, repo, message: 'other root', tree: tree.sha, parents: [] });
    const { data: merge } = await octokit.rest.git.createCommit({ owner, repo, message: 'merge', tree: tree.sha, parents: [root.sha, other.sha] });
    assert.deepEqual(merge.parents.map((p) => p.sha), [root.sha, other.sha]);
    // Without an author the authenticated user writes it, now.
    assert.equal(merge.author.name, alice.login);
    assert.equal(merge.author.email, `${alice.login}@example.com`);
    assert.ok(Math.abs(Date.parse(merge.author.date) - Date.now()) < 60_000);

    const cases: [Record<string, unknown>, RegExp][] = [
      [{ message: 'm', tree: 'd'.repeat(40) }, /Tree SHA does not exist/],
      [{ message: 'm', tree: root.sha }, /Tree SHA does not exist/],
      [{ message: 'm', tree: tree.sha, parents: ['e'.repeat(40)] }, /Parent SHA does not exist/],
      [{ message: 'm', tree: tree.sha, parents: [tree.sha] }, /Parent SHA does not exist or is not a commit/],
      [{ message: 'm', tree: tree.sha, author: { name: 'A', email: 'a@example.com', date: 'yesterday' } }, /date/],
      [{ message: 'm', tree: tree.sha, author: { name: 'A <evil>', email: 'a@example.com' } }, /author.name/],
      [{ message: 'm', tree: tree.sha, author: { name: 'A' } }, /author.email/],
      [{ tree: tree.sha }, /message/],
    ];
    for (const [body, message] of cases) {
      const res = await t.request(`/repos/${owner}/${repo}/git/commits`, { method: 'POST', token: alice.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = await res.json();
      assert.match(`${err.message} ${JSON.stringify(err.errors)}`, message, JSON.stringify(body));
    }
    assert.equal((await failure(octokit.rest.git.getCommit({ owner, repo, commit_sha: 'f'.repeat(40) }))).status, 404);
    assert.equal((await failure(octokit.rest.git.getCommit({ owner, repo, commit_sha: tree.sha }))).status, 404);
    assert.equal((await failure(t.octokit(bob.token).rest.git.createCommit({ owner, repo, message: 'm', tree: tree.sha }))).status, 403);
  });

  test('a signature is stored as the gpgsig header: git cat-file shows it and git verify-commit checks it', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: main } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    const { data: parent } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: main.object.sha });
    const author = { name: 'Signing Sailor', email: 'signer@example.com', date: '2024-05-06T07:08:09Z' };
    const message = 'Signed cargo\n';
    // What the client signs: the commit as it will be written, without the signature.
    const payload = `tree ${parent.tree.sha}\nparent ${parent.sha}\nauthor Signing Sailor <signer@example.com> 1714979289 +0000\ncommitter Signing Sailor <signer@example.com> 1714979289 +0000\n\n${message}`;
    const gpgAvailable = await hasGpg();
    let signature = '-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEEfakefakefakefakefake\n=abcd\n-----END PGP SIGNATURE-----\n';
    const home = tempDir('wharf-gpg-');
    if (gpgAvailable) {
      fs.chmodSync(home, 0o700);
      const gen = await gpg(home, ['--passphrase', '', '--pinentry-mode', 'loopback', '--quick-gen-key', 'Signing Sailor <signer@example.com>', 'ed25519', 'sign', 'never']);
      assert.equal(gen.code, 0, gen.stderr);
      const signed = await gpg(home, ['--armor', '--detach-sign', '--pinentry-mode', 'loopback', '--passphrase', ''], payload);
      assert.equal(signed.code, 0, signed.stderr);
      signature = signed.stdout;
    }
    const { data: commit } = await octokit.rest.git.createCommit({
      owner, repo, message, tree: parent.tree.sha, parents: [parent.sha], author, committer: author, signature,
    });
    assert.equal(commit.verification.signature?.trim(), signature.trim());
    assert.equal(commit.verification.payload, payload);
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/signed', sha: commit.sha });
    const dir = tempDir();
    await gitOk(['clone', '-q', '-b', 'signed', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), dir]);
    const raw = await gitOk(['cat-file', 'commit', commit.sha], { cwd: dir });
    assert.ok(raw.includes(`gpgsig ${signature.trimEnd().split('\n').join('\n ')}\n`), raw);
    assert.equal(raw.replace(/^gpgsig [^\n]*\n( [^\n]*\n)*/m, ''), payload, 'the object minus the signature is exactly the signed payload');
    if (gpgAvailable) {
      const verified = await git(['verify-commit', '-v', commit.sha], { cwd: dir, env: { GNUPGHOME: home } });
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Good signature from "Signing Sailor <signer@example.com>"/);
      await new Promise((resolve) => execFile('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: home } }, resolve));
    }
  });

  test('refs: get, matching, create, update (fast-forward or force), delete, with upstream messages', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: main } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    const { data: tree } = await octokit.rest.git.createTree({ owner, repo, tree: [{ path: 'r', mode: '100644', content: 'r' }] });
    const { data: ahead } = await octokit.rest.git.createCommit({ owner, repo, message: 'ahead', tree: tree.sha, parents: [main.object.sha] });
    const { data: unrelated } = await octokit.rest.git.createCommit({ owner, repo, message: 'unrelated', tree: tree.sha });

    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature/one', sha: main.object.sha });
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature/two', sha: main.object.sha });
    const got = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/feature/one' });
    assert.equal(got.data.ref, 'refs/heads/feature/one');
    const matching = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'heads/feature' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}', 200, matching.data);
    assert.deepEqual(matching.data.map((r) => r.ref), ['refs/heads/feature/one', 'refs/heads/feature/two']);
    assert.deepEqual((await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'heads/nothing-like-this' })).data, []);
    const everything = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: '' });
    assert.ok(everything.data.some((r) => r.ref === 'refs/heads/main'));

    const cases: [() => Promise<unknown>, number, RegExp][] = [
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature/one', sha: main.object.sha }), 422, /Reference already exists/],
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'heads/nope', sha: main.object.sha }), 422, /Reference name is invalid/],
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'refs/nope', sha: main.object.sha }), 422, /Reference name is invalid/],
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/bad..name', sha: main.object.sha }), 422, /Reference name is invalid/],
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/ghost', sha: '1'.repeat(40) }), 422, /Object does not exist/],
      [() => octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads/treeish', sha: tree.sha }), 422, /must point at a commit/],
      [() => octokit.rest.git.updateRef({ owner, repo, ref: 'heads/feature/one', sha: unrelated.sha }), 422, /Update is not a fast forward/],
      [() => octokit.rest.git.updateRef({ owner, repo, ref: 'heads/absent', sha: ahead.sha }), 422, /Reference does not exist/],
      [() => octokit.rest.git.deleteRef({ owner, repo, ref: 'heads/absent' }), 422, /Reference does not exist/],
      [() => octokit.rest.git.getRef({ owner, repo, ref: 'heads/absent' }), 404, /Not Found/],
      [() => octokit.rest.git.getRef({ owner, repo, ref: 'heads/feature' }), 404, /Not Found/],
      [() => t.octokit(bob.token).rest.git.createRef({ owner, repo, ref: 'refs/heads/bobs', sha: main.object.sha }), 403, /push access/],
      [() => t.octokit(bob.token).rest.git.deleteRef({ owner, repo, ref: 'heads/feature/one' }), 403, /push access/],
    ];
    for (const [call, status, message] of cases) {
      const f = await failure(call);
      assert.equal(f.status, status, f.message);
      assert.match(f.message, message);
    }
    assert.equal((await octokit.rest.git.getRef({ owner, repo, ref: 'heads/feature/one' })).data.object.sha, main.object.sha, 'refused updates changed nothing');

    const ff = await octokit.rest.git.updateRef({ owner, repo, ref: 'heads/feature/one', sha: ahead.sha });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/git/refs/{ref}', 200, ff.data);
    assert.equal(ff.data.object.sha, ahead.sha);
    const forced = await octokit.rest.git.updateRef({ owner, repo, ref: 'heads/feature/one', sha: unrelated.sha, force: true });
    assert.equal(forced.data.object.sha, unrelated.sha);
    const remote = await gitOk(['ls-remote', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), 'refs/heads/feature/one']);
    assert.ok(remote.startsWith(unrelated.sha));

    const del = await octokit.rest.git.deleteRef({ owner, repo, ref: 'heads/feature/one' });
    assert.equal(del.status, 204);
    assert.equal((await failure(octokit.rest.git.getRef({ owner, repo, ref: 'heads/feature/one' }))).status, 404);
    const { data: repoData } = await octokit.rest.repos.get({ owner, repo });
    const pushes = (await listEvents(t.server.ctx, { event: 'push', repositoryId: repoData.id })).filter((e) => e.payload.ref === 'refs/heads/feature/one');
    assert.deepEqual(pushes.map((p) => [p.payload.created, p.payload.forced, p.payload.deleted]), [[true, false, false], [false, false, false], [false, true, false], [false, false, true]]);
    const deletes = await listEvents(t.server.ctx, { event: 'delete', repositoryId: repoData.id });
    assert.ok(deletes.some((e) => e.payload.ref === 'feature/one'));
  });

  test('annotated tags: the object is written without a ref; a ref then makes it a tag git sees', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: main } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    const created = await octokit.rest.git.createTag({
      owner, repo, tag: 'v1.0.0', message: 'First release', object: main.object.sha, type: 'commit',
      tagger: { name: 'Release Bot', email: 'release@example.com', date: '2024-01-02T03:04:05Z' },
    });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/git/tags', 201, created.data);
    assert.equal(created.data.tag, 'v1.0.0');
    assert.equal(created.data.message, 'First release');
    assert.deepEqual(created.data.tagger, { name: 'Release Bot', email: 'release@example.com', date: '2024-01-02T03:04:05Z' });
    assert.deepEqual(created.data.object, { type: 'commit', sha: main.object.sha, url: `${t.baseUrl}/repos/${owner}/${repo}/git/commits/${main.object.sha}` });
    assert.equal(created.data.verification?.reason, 'unsigned');
    const { data: fetched } = await octokit.rest.git.getTag({ owner, repo, tag_sha: created.data.sha });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/tags/{tag_sha}', 200, fetched);
    assert.deepEqual(fetched, created.data);
    assert.deepEqual((await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags/' })).data, [], 'no ref yet');

    const ref = await octokit.rest.git.createRef({ owner, repo, ref: 'refs/tags/v1.0.0', sha: created.data.sha });
    assert.equal(ref.data.object.type, 'tag');
    assert.equal(ref.data.object.url, `${t.baseUrl}/repos/${owner}/${repo}/git/tags/${created.data.sha}`);
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), dir]);
    assert.equal((await gitOk(['cat-file', '-t', 'v1.0.0'], { cwd: dir })).trim(), 'tag');
    assert.equal((await gitOk(['rev-parse', 'v1.0.0^{commit}'], { cwd: dir })).trim(), main.object.sha);
    assert.match(await gitOk(['cat-file', 'tag', 'v1.0.0'], { cwd: dir }), /^tagger Release Bot <release@example.com> 1704164645 \+0000$/m);

    assert.equal((await failure(octokit.rest.git.createTag({ owner, repo, tag: 'v2', message: 'm', object: '2'.repeat(40), type: 'commit' }))).status, 422);
    const mismatch = await failure(octokit.rest.git.createTag({ owner, repo, tag: 'v2', message: 'm', object: main.object.sha, type: 'tree' }));
    assert.equal(mismatch.status, 422);
    assert.match(mismatch.message, /is a commit, not a tree/);
    assert.equal((await failure(octokit.rest.git.createTag({ owner, repo, tag: 'bad..tag', message: 'm', object: main.object.sha, type: 'commit' }))).status, 422);
    assert.equal((await failure(octokit.rest.git.getTag({ owner, repo, tag_sha: main.object.sha }))).status, 404);
  });

  test('an empty repository: writes work and the first ref sets the default branch; reads of history are 409', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'empty-data' });
    const empty = { owner, repo: 'empty-data' };
    for (const call of [
      () => octokit.rest.git.getRef({ ...empty, ref: 'heads/main' }),
      () => octokit.rest.git.listMatchingRefs({ ...empty, ref: 'heads' }),
      () => octokit.rest.git.getBlob({ ...empty, file_sha: '3'.repeat(40) }),
      () => octokit.rest.git.getCommit({ ...empty, commit_sha: '3'.repeat(40) }),
    ]) {
      const f = await failure(call);
      assert.equal(f.status, 409);
      assert.equal(f.message, 'Git Repository is empty.');
    }
    const { data: blob } = await octokit.rest.git.createBlob({ ...empty, content: 'first\n' });
    assert.equal((await octokit.rest.git.getBlob({ ...empty, file_sha: blob.sha })).data.size, 6, 'what was written can be read back');
    const { data: tree } = await octokit.rest.git.createTree({ ...empty, tree: [{ path: 'first.txt', mode: '100644', type: 'blob', sha: blob.sha }] });
    const { data: commit } = await octokit.rest.git.createCommit({ ...empty, message: 'First', tree: tree.sha });
    await octokit.rest.git.createRef({ ...empty, ref: 'refs/heads/trunk', sha: commit.sha });
    const { data: repoData } = await octokit.rest.repos.get(empty);
    assert.equal(repoData.default_branch, 'trunk');
    assert.ok(repoData.size > 0);
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, 'empty-data', owner, alice.token), dir]);
    assert.equal((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: dir })).trim(), 'trunk');
    assert.equal(fs.readFileSync(path.join(dir, 'first.txt'), 'utf8'), 'first\n');
  });

  test('an archived repository refuses writes', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'archived-data', auto_init: true });
    await octokit.rest.repos.update({ owner: alice.login, repo: 'archived-data', archived: true });
    const f = await failure(octokit.rest.git.createBlob({ owner: alice.login, repo: 'archived-data', content: 'x' }));
    assert.equal(f.status, 403);
    assert.match(f.message, /archived/);
  });
});
