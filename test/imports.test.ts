// Source imports from git (issue #20): a real git server on loopback (git http-backend,
// basic auth on part of it), the spec's status table walked by real situations, the
// authors mapped through a rewrite, large files, cancel, webhooks, and a restart of
// Wharf in the middle of an import.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';
import { eventually, Receiver } from './helpers/webhook-receiver.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { GitSourceServer, writeFile } from './helpers/import-sources.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const LARGE = 2000;
const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WHARF_IMPORT_LARGE_FILE_BYTES: String(LARGE),
  WHARF_IMPORT_POLL_MS: '50',
  WHARF_WEBHOOK_POLL_MS: '50',
};

let t: TestServer;
let alice: CreatedUser;
let source: GitSourceServer;
let sourceRoot: string;
const receiver = new Receiver();

async function commitAs(work: string, who: [string, string], files: Record<string, string>, message: string): Promise<void> {
  for (const [name, content] of Object.entries(files)) writeFile(work, name, content);
  await gitOk(['add', '-A'], { cwd: work });
  await gitOk(['commit', '-q', '-m', message], {
    cwd: work, env: { GIT_AUTHOR_NAME: who[0], GIT_AUTHOR_EMAIL: who[1], GIT_COMMITTER_NAME: who[0], GIT_COMMITTER_EMAIL: who[1] },
  });
}

/** A history with two authors, a branch, an annotated tag and a file over the threshold. */
async function makeSource(name: string): Promise<void> {
  const work = tempDir('wharf-import-src-');
  await gitOk(['init', '-q', '-b', 'main', work]);
  await commitAs(work, ['Ada Source', 'ada@source.example'], { 'README.md': '# project\n' }, 'first');
  await commitAs(work, ['Bo Source', 'bo@source.example'], { 'big.bin': 'x'.repeat(LARGE + 500) }, 'add a big file');
  await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
  await commitAs(work, ['Bo Source', 'bo@source.example'], { 'feature.txt': 'feature\n' }, 'feature work');
  await gitOk(['checkout', '-q', 'main'], { cwd: work });
  await commitAs(work, ['Ada Source', 'ada@source.example'], { 'README.md': '# project\n\nmore\n' }, 'second');
  await gitOk(['tag', '-a', 'v1.0', '-m', 'release one'], {
    cwd: work, env: { GIT_COMMITTER_NAME: 'Ada Source', GIT_COMMITTER_EMAIL: 'ada@source.example' },
  });
  await gitOk(['clone', '-q', '--bare', work, path.join(sourceRoot, `${name}.git`)]);
}

async function history(gitDir: string): Promise<string[]> {
  const out = await gitOk(['--git-dir', gitDir, 'log', '--all', '--format=%an <%ae>|%cn <%ce>|%s|%T']);
  return out.trim().split('\n').sort();
}

async function cloneOf(r: CreatedRepo): Promise<string> {
  const dir = path.join(tempDir('wharf-import-clone-'), 'c.git');
  await gitOk(['clone', '-q', '--mirror', cloneUrl(t.baseUrl, r.owner, r.repo, alice.login, alice.token), dir]);
  return dir;
}

type ImportBody = Record<string, unknown> & { status: string };

async function getImport(r: CreatedRepo): Promise<ImportBody> {
  const res = await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token });
  assert.equal(res.status, 200);
  return (await res.json()) as ImportBody;
}

async function waitStatus(r: CreatedRepo, status: string): Promise<ImportBody> {
  let last: ImportBody | undefined;
  return eventually(async () => {
    const body = await getImport(r);
    last = body;
    if (body.status === 'error' && status !== 'error') throw new Error(`import failed: ${JSON.stringify(body)}`);
    return body.status === status ? body : undefined;
  }, 30_000, `import status ${status}`).catch((err: Error) => {
    throw new Error(`${err.message}; last seen: ${JSON.stringify(last)}`);
  });
}

async function put(r: CreatedRepo, body: Record<string, unknown>): Promise<Response> {
  return t.request(`/repos/${r.owner}/${r.repo}/import`, { method: 'PUT', token: alice.token, json: body });
}

async function patch(r: CreatedRepo, suffix: string, body: Record<string, unknown>): Promise<Response> {
  return t.request(`/repos/${r.owner}/${r.repo}/import${suffix}`, { method: 'PATCH', token: alice.token, json: body });
}

async function hookOn(r: CreatedRepo): Promise<void> {
  const res = await t.request(`/repos/${r.owner}/${r.repo}/hooks`, {
    method: 'POST', token: alice.token,
    json: { config: { url: receiver.url(`/hook/${r.repo}`), content_type: 'json' }, events: ['repository_import', 'push'] },
  });
  assert.equal(res.status, 201);
}

function importEvents(r: CreatedRepo): { status: string }[] {
  return receiver.received.filter((x) => x.path === `/hook/${r.repo}` && x.headers['x-github-event'] === 'repository_import')
    .map((x) => JSON.parse(x.body) as { status: string });
}

before(async () => {
  sourceRoot = tempDir('wharf-import-root-');
  await makeSource('project');
  await makeSource('private/project');
  source = await new GitSourceServer(sourceRoot, { prefix: '/private/', user: 'reader', password: 's3cret' }).start();
  await receiver.start();
  t = await startTestServer({ env: ENV });
  alice = await createUser(t);
});

after(async () => {
  await t.close();
  await source.stop();
  await receiver.stop();
});

describe('source imports from git', () => {
  test('bad URLs, sources imports may not reach, and non-empty repositories are refused, changing nothing', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    for (const vcs_url of ['not a url', 'ftp://127.0.0.1/x', `http://127.0.0.2:${source.port}/project.git`, `http://u:p@127.0.0.1:${source.port}/project.git`]) {
      const res = await put(r, { vcs_url });
      assert.equal(res.status, 422, vcs_url);
    }
    const refused = await (await put(r, { vcs_url: `http://127.0.0.2:${source.port}/project.git` })).json() as { errors: { message: string }[] };
    assert.match(refused.errors[0]!.message, /may not reach/);
    assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token })).status, 404);
    const full = await createRepo(t, alice);
    assert.equal((await put(full, { vcs_url: source.url('project.git') })).status, 422);
    const bob = await createUser(t);
    assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/import`, { method: 'PUT', token: bob.token, json: { vcs_url: source.url('project.git') } })).status, 403);
  });

  test('a git source is detected, imported, mapped and pushed; authors remap the history; opt_out drops large files', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    await hookOn(r);
    const res = await put(r, { vcs_url: source.url('project.git') });
    assert.equal(res.status, 201);
    const started = (await res.json()) as ImportBody;
    assert.equal(res.headers.get('location'), `${t.baseUrl}/repos/${r.owner}/${r.repo}/import`);
    assert.equal(started.status, 'detecting');
    assert.equal(started.vcs, null);

    const done = await waitStatus(r, 'complete');
    assert.equal(done.vcs, 'git');
    assert.equal(done.commit_count, 4);
    assert.equal(done.authors_count, 2);
    assert.equal(done.push_percent, 100);
    assert.equal(done.has_large_files, true);
    assert.equal(done.large_files_count, 1);
    assert.equal(done.authors_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/import/authors`);
    // Unmapped, the history is the source's, commit for commit.
    assert.deepEqual(await history(await cloneOf(r)), await history(path.join(sourceRoot, 'project.git')));
    const refs = await gitOk(['--git-dir', await cloneOf(r), 'for-each-ref', '--format=%(refname)']);
    assert.deepEqual(refs.trim().split('\n').sort(), ['refs/heads/feature', 'refs/heads/main', 'refs/tags/v1.0']);
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: r.owner, repo: r.repo });
    assert.equal(repo.default_branch, 'main');

    const large = (await (await t.request(`/repos/${r.owner}/${r.repo}/import/large_files`, { token: alice.token })).json()) as Record<string, unknown>[];
    assertMatchesOpenApi('get', '/repos/{owner}/{repo}/import/large_files', 200, large);
    assert.equal(large.length, 1);
    assert.equal(large[0]!.path, 'big.bin');
    assert.equal(large[0]!.size, LARGE + 500);
    assert.ok(['refs/heads/main', 'refs/heads/feature', 'refs/tags/v1.0'].includes(large[0]!.ref_name as string));

    // Authors: listed, `since` pages, and a mapping rewrites the history and pushes it again.
    const authors = (await (await t.request(`/repos/${r.owner}/${r.repo}/import/authors`, { token: alice.token })).json()) as { id: number; remote_id: string; remote_name: string; email: string }[];
    assertMatchesOpenApi('get', '/repos/{owner}/{repo}/import/authors', 200, authors);
    assert.deepEqual(authors.map((a) => a.remote_id).sort(), ['ada@source.example', 'bo@source.example']);
    const since = (await (await t.request(`/repos/${r.owner}/${r.repo}/import/authors?since=${authors[0]!.id}`, { token: alice.token })).json()) as unknown[];
    assert.equal(since.length, 1);
    const ada = authors.find((a) => a.remote_id === 'ada@source.example')!;
    const mapped = await patch(r, `/authors/${ada.id}`, { email: 'ada@wharf.example', name: 'Ada Lovelace' });
    assert.equal(mapped.status, 200);
    const mappedBody = await mapped.json() as Record<string, unknown>;
    assertMatchesOpenApi('patch', '/repos/{owner}/{repo}/import/authors/{author_id}', 200, mappedBody);
    assert.equal(mappedBody.email, 'ada@wharf.example');
    assert.equal((await patch(r, '/authors/999999', { email: 'x@y.z' })).status, 404);
    assert.equal((await patch(r, `/authors/${ada.id}`, { email: 'x> y' })).status, 422);
    await eventually(async () => {
      const h = await history(await cloneOf(r));
      return h.some((l) => l.startsWith('Ada Lovelace <ada@wharf.example>|Ada Lovelace <ada@wharf.example>|second')) ? h : undefined;
    }, 30_000, 'mapped history');
    await waitStatus(r, 'complete');
    const expected = (await history(path.join(sourceRoot, 'project.git'))).map((l) => l.split('|').slice(0, 3).join('|')
      .replaceAll('Ada Source <ada@source.example>', 'Ada Lovelace <ada@wharf.example>')).sort();
    assert.deepEqual((await history(await cloneOf(r))).map((l) => l.split('|').slice(0, 3).join('|')).sort(), expected);

    // opt_out: the large file leaves the history.
    const lfs = await patch(r, '/lfs', { use_lfs: 'opt_out' });
    assert.equal(lfs.status, 200);
    assert.equal(((await lfs.json()) as ImportBody).use_lfs, 'opt_out');
    assert.equal((await patch(r, '/lfs', { use_lfs: 'maybe' })).status, 422);
    await eventually(async () => {
      const files = await gitOk(['--git-dir', await cloneOf(r), 'log', '--all', '--name-only', '--format=']);
      return files.includes('big.bin') ? undefined : true;
    }, 30_000, 'large file dropped');
    await waitStatus(r, 'complete');

    // Webhooks: the import's success, and the pushes that brought the history.
    await eventually(async () => (importEvents(r).filter((e) => e.status === 'success').length >= 3 ? true : undefined), 20_000, 'import events');
    const hook = receiver.received.find((x) => x.path === `/hook/${r.repo}` && x.headers['x-github-event'] === 'repository_import')!;
    assertMatchesWebhookSchema('repository_import', null, JSON.parse(hook.body));
    await eventually(async () => (receiver.received.some((x) => x.path === `/hook/${r.repo}` && x.headers['x-github-event'] === 'push') ? true : undefined), 20_000, 'push events');
  });

  test('a source asking for credentials: auth_failed, then wrong ones (detection_needs_auth), then the right ones: complete; credentials never shown', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    assert.equal((await put(r, { vcs: 'git', vcs_url: source.url('private/project.git') })).status, 201);
    const failed = await waitStatus(r, 'auth_failed');
    assert.equal(failed.vcs, 'git');
    const wrong = await patch(r, '', { vcs_username: 'reader', vcs_password: 'wrong' });
    assert.equal(wrong.status, 200);
    assert.equal(((await wrong.json()) as ImportBody).status, 'detecting');
    await waitStatus(r, 'detection_needs_auth');
    // While the fetch with the right password is under way, no process shows it in its arguments.
    source.hold();
    source.heldCount = 0;
    try {
      assert.equal((await patch(r, '', { vcs_username: 'reader', vcs_password: 's3cret' })).status, 200);
      await eventually(async () => (source.heldCount > 0 ? true : undefined), 20_000, 'fetch under way');
      const shown = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('s3cret');
        } catch {
          return false;
        }
      });
      assert.deepEqual(shown, []);
    } finally {
      source.release();
    }
    const done = await waitStatus(r, 'complete');
    assert.equal(done.message, 'Done');
    assert.ok(!JSON.stringify(done).includes('s3cret'));
    assert.deepEqual(await history(await cloneOf(r)), await history(path.join(sourceRoot, 'private/project.git')));
    // Stored sealed, and dropped once the import ended.
    const row = await t.server.ctx.db.selectFrom('source_imports').select('credentials').where('repository_id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal(row.credentials, null);
  });

  test('a URL serving no source control: detection_found_nothing; a restart (empty PATCH) detects again', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    assert.equal((await put(r, { vcs_url: source.url('nothing-here.git') })).status, 201);
    const nothing = await waitStatus(r, 'detection_found_nothing');
    assert.match(String(nothing.status_text), /No git, Subversion or Mercurial/);
    // The message says what to do next, as the step wrote it.
    assert.equal(nothing.message, nothing.status_text);
    const restarted = await patch(r, '', {});
    assert.equal(restarted.status, 200);
    assert.equal(((await restarted.json()) as ImportBody).status, 'detecting');
    await waitStatus(r, 'detection_found_nothing');
    // tfvc: answered honestly.
    const tf = await createRepo(t, alice, { autoInit: false });
    assert.equal((await put(tf, { vcs: 'tfvc', vcs_url: source.url('project.git'), tfvc_project: 'p' })).status, 201);
    const error = await waitStatus(tf, 'error');
    assert.equal(error.failed_step, 'importing');
    assert.match(String(error.status_text), /tfvc.*not supported/i);
  });

  test('cancelling an import under way stops it: nothing is pushed and a cancelled event is sent', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    await hookOn(r);
    source.hold();
    try {
      assert.equal((await put(r, { vcs: 'git', vcs_url: source.url('project.git') })).status, 201);
      await eventually(async () => (source.heldCount > 0 ? true : undefined), 20_000, 'fetch under way');
      assert.equal((await getImport(r)).status, 'importing');
      assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/import`, { method: 'DELETE', token: alice.token })).status, 204);
      assert.equal((await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token })).status, 404);
    } finally {
      source.release();
    }
    await t.server.imports.idle();
    const { data: branches } = await t.octokit(alice.token).rest.repos.listBranches({ owner: r.owner, repo: r.repo });
    assert.equal(branches.length, 0);
    await eventually(async () => (importEvents(r).some((e) => e.status === 'cancelled') ? true : undefined), 20_000, 'cancelled event');
  });

  test('a restart of Wharf in the middle of an import resumes it', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    source.hold();
    source.heldCount = 0;
    assert.equal((await put(r, { vcs: 'git', vcs_url: source.url('project.git') })).status, 201);
    await eventually(async () => (source.heldCount > 0 ? true : undefined), 20_000, 'fetch under way');
    assert.equal((await getImport(r)).status, 'importing');
    const first = t;
    await first.server.close();
    source.release();
    t = await startTestServer({ env: ENV, shareWith: first });
    (t as { close(): Promise<void> }).close = async () => {
      await t.server.close();
      await first.close().catch(() => undefined);
    };
    const done = await waitStatus(r, 'complete');
    assert.equal(done.commit_count, 4);
    assert.deepEqual(await history(await cloneOf(r)), await history(path.join(sourceRoot, 'project.git')));
  });
});
