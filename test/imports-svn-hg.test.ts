// Source imports from Subversion (svnserve, git svn) and Mercurial (hg serve,
// git-remote-hg), on loopback: a Subversion root with two projects (the user chooses
// one), a password-protected Subversion repository, and a Mercurial repository with
// branches, a bookmark, a tag and a file over the large-file threshold kept in LFS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { ToolServer, writeFile } from './helpers/import-sources.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const run = promisify(execFile);
const LARGE = 2000;

let t: TestServer;
let alice: CreatedUser;
let svnRoot: string;
let hgDir: string;
const svnserve = new ToolServer();
const hgServe = new ToolServer();

type ImportBody = Record<string, unknown> & { status: string };

async function getImport(r: CreatedRepo): Promise<ImportBody> {
  const res = await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token });
  assert.equal(res.status, 200);
  return (await res.json()) as ImportBody;
}

async function waitStatus(r: CreatedRepo, status: string): Promise<ImportBody> {
  let last: ImportBody | undefined;
  return eventually(async () => {
    last = await getImport(r);
    if (last.status === 'error' && status !== 'error') throw new Error(`import failed: ${JSON.stringify(last)}`);
    return last.status === status ? last : undefined;
  }, 60_000, `import status ${status}`).catch((err: Error) => {
    throw new Error(`${err.message}; last seen: ${JSON.stringify(last)}`);
  });
}

async function send(r: CreatedRepo, method: string, suffix: string, body: Record<string, unknown>): Promise<Response> {
  return t.request(`/repos/${r.owner}/${r.repo}/import${suffix}`, { method, token: alice.token, json: body });
}

async function cloneOf(r: CreatedRepo): Promise<string> {
  const dir = path.join(tempDir('wharf-import-clone-'), 'c.git');
  await gitOk(['clone', '-q', '--mirror', cloneUrl(t.baseUrl, r.owner, r.repo, alice.login, alice.token), dir]);
  return dir;
}

async function refsOf(dir: string): Promise<string[]> {
  return (await gitOk(['--git-dir', dir, 'for-each-ref', '--format=%(refname)'])).trim().split('\n').sort();
}

async function makeSvn(): Promise<void> {
  svnRoot = tempDir('wharf-import-svn-');
  const url = (repo: string, p: string) => `file://${svnRoot}/${repo}/${p}`;
  for (const repo of ['multi', 'secret']) {
    await run('svnadmin', ['create', path.join(svnRoot, repo)]);
    await run('svn', ['mkdir', '-q', '--parents', '-m', 'layout', '--username', 'carol',
      url(repo, 'proj-a/trunk'), url(repo, 'proj-a/branches'), url(repo, 'proj-a/tags'),
      ...(repo === 'multi' ? [url(repo, 'proj-b/trunk'), url(repo, 'proj-b/branches'), url(repo, 'proj-b/tags')] : [])]);
    const wc = tempDir('wharf-import-wc-');
    await run('svn', ['checkout', '-q', url(repo, 'proj-a/trunk'), wc]);
    writeFile(wc, 'a.txt', 'hello\n');
    await run('svn', ['add', '-q', path.join(wc, 'a.txt')]);
    await run('svn', ['commit', '-q', '-m', 'add a', '--username', 'dave', wc]);
    await run('svn', ['copy', '-q', '-m', 'branch b1', '--username', 'carol', url(repo, 'proj-a/trunk'), url(repo, 'proj-a/branches/b1')]);
    await run('svn', ['copy', '-q', '-m', 'tag t1', '--username', 'dave', url(repo, 'proj-a/trunk'), url(repo, 'proj-a/tags/t1')]);
  }
  fs.writeFileSync(path.join(svnRoot, 'secret/conf/svnserve.conf'), '[general]\nanon-access = none\nauth-access = read\npassword-db = passwd\nrealm = secret\n');
  fs.writeFileSync(path.join(svnRoot, 'secret/conf/passwd'), '[users]\nreader = s3cret\n');
}

async function makeHg(): Promise<void> {
  hgDir = path.join(tempDir('wharf-import-hg-'), 'src');
  const hg = (args: string[], user = 'Hana Hg <hana@hg.example>') => run('hg', ['--cwd', hgDir, '--config', `ui.username=${user}`, ...args], { env: { ...process.env, HGPLAIN: '1', HGRCPATH: '/dev/null' } });
  await run('hg', ['init', hgDir]);
  writeFile(hgDir, 'README', 'hg project\n');
  await hg(['add', 'README']);
  await hg(['commit', '-m', 'first']);
  writeFile(hgDir, 'big.bin', 'y'.repeat(LARGE + 100));
  await hg(['add', 'big.bin']);
  await hg(['commit', '-m', 'big file'], 'Ivo Hg <ivo@hg.example>');
  await hg(['branch', 'stable']);
  writeFile(hgDir, 'stable.txt', 'stable\n');
  await hg(['add', 'stable.txt']);
  await hg(['commit', '-m', 'on stable'], 'Ivo Hg <ivo@hg.example>');
  await hg(['update', 'default']);
  await hg(['tag', 'v1']);
  await hg(['bookmark', 'bm']);
}

before(async () => {
  await makeSvn();
  await makeHg();
  await svnserve.start('svnserve', (p) => ['-d', '--foreground', '-r', svnRoot, '--listen-port', String(p), '--listen-host', '127.0.0.1']);
  await hgServe.start('hg', (p) => ['serve', '-R', hgDir, '-p', String(p), '-a', '127.0.0.1', '--config', 'web.push_ssl=false']);
  t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WHARF_IMPORT_LARGE_FILE_BYTES: String(LARGE), WHARF_IMPORT_POLL_MS: '50' } });
  alice = await createUser(t);
});

after(async () => {
  await t.close();
  await svnserve.stop();
  await hgServe.stop();
});

describe('source imports from Subversion and Mercurial', () => {
  test('a Subversion root with two projects: detection_found_multiple, then the chosen one is imported with its branches and tags', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    assert.equal((await send(r, 'PUT', '', { vcs_url: `svn://127.0.0.1:${svnserve.port}/multi` })).status, 201);
    const multiple = await waitStatus(r, 'detection_found_multiple');
    assert.deepEqual(multiple.project_choices, [
      { vcs: 'subversion', tfvc_project: null, human_name: 'proj-a' },
      { vcs: 'subversion', tfvc_project: null, human_name: 'proj-b' },
    ]);
    assert.equal((await send(r, 'PATCH', '', { vcs: 'subversion', human_name: 'no-such-project' })).status, 422);
    const chosen = await send(r, 'PATCH', '', { vcs: 'subversion', tfvc_project: null, human_name: 'proj-a' });
    assert.equal(chosen.status, 200, await chosen.clone().text());
    assert.equal(((await chosen.json()) as ImportBody).status, 'importing');
    const done = await waitStatus(r, 'complete');
    assert.equal(done.vcs, 'subversion');
    const mirror = await cloneOf(r);
    assert.deepEqual(await refsOf(mirror), ['refs/heads/b1', 'refs/heads/master', 'refs/tags/t1']);
    const log = (await gitOk(['--git-dir', mirror, 'log', '--all', '--format=%an|%s'])).trim().split('\n').sort();
    assert.deepEqual(log, ['carol|branch b1', 'carol|layout', 'dave|add a', 'dave|tag t1']);
    const authors = (await (await t.request(`/repos/${r.owner}/${r.repo}/import/authors`, { token: alice.token })).json()) as { remote_name: string; remote_id: string }[];
    assert.deepEqual(authors.map((a) => a.remote_name).sort(), ['carol', 'dave']);
    assert.ok(authors.every((a) => /^(carol|dave)@[0-9a-f-]{36}$/.test(a.remote_id)));
  });

  test('a Subversion repository needing a password: auth_failed, then credentials: complete', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    assert.equal((await send(r, 'PUT', '', { vcs: 'subversion', vcs_url: `svn://127.0.0.1:${svnserve.port}/secret/proj-a` })).status, 201);
    await waitStatus(r, 'auth_failed');
    assert.equal((await send(r, 'PATCH', '', { vcs_username: 'reader', vcs_password: 's3cret' })).status, 200);
    await waitStatus(r, 'complete');
    assert.deepEqual(await refsOf(await cloneOf(r)), ['refs/heads/b1', 'refs/heads/master', 'refs/tags/t1']);
  });

  test('a Mercurial repository is detected and imported (branches, bookmark, tag, authors); opt_in keeps its large file in LFS', async () => {
    const r = await createRepo(t, alice, { autoInit: false });
    assert.equal((await send(r, 'PUT', '', { vcs_url: `http://127.0.0.1:${hgServe.port}/` })).status, 201);
    const done = await waitStatus(r, 'complete');
    assert.equal(done.vcs, 'mercurial');
    assert.equal(done.has_large_files, true);
    const mirror = await cloneOf(r);
    assert.deepEqual(await refsOf(mirror), ['refs/heads/bm', 'refs/heads/master', 'refs/heads/stable', 'refs/tags/v1']);
    const hgLog = (await run('hg', ['log', '-R', hgDir, '--template', '{author}|{desc}\\n'], { env: { ...process.env, HGPLAIN: '1', HGRCPATH: '/dev/null' } })).stdout;
    const gitLog = await gitOk(['--git-dir', mirror, 'log', '--all', '--format=%an <%ae>|%s']);
    assert.deepEqual(gitLog.trim().split('\n').sort(), hgLog.trim().split('\n').sort());

    assert.equal((await send(r, 'PATCH', '/lfs', { use_lfs: 'opt_in' })).status, 200);
    const pointer = await eventually(async () => {
      const text = await gitOk(['--git-dir', await cloneOf(r), 'show', 'master:big.bin']).catch(() => '');
      return text.startsWith('version https://git-lfs.github.com/spec/v1') ? text : undefined;
    }, 60_000, 'LFS pointer');
    await waitStatus(r, 'complete');
    const oid = /oid sha256:([0-9a-f]{64})/.exec(pointer)![1]!;
    assert.match(pointer, new RegExp(`size ${LARGE + 100}`));
    const stored = path.join(t.dataDir, 'lfs', String(r.id), 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
    assert.equal(fs.readFileSync(stored, 'utf8'), 'y'.repeat(LARGE + 100));
  });
});
