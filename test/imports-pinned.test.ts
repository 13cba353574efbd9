// Source imports connect to the address their check judged (issue #22, DNS rebinding):
// the source is named by host names only Wharf's resolver knows (a DNS server of the
// test's own, WHARF_WEBHOOK_DNS_SERVERS); the tools' own resolver (the system's) does not
// know them, so an import completes only if each tool connects to the checked address
// rather than looking the name up again: git svn and svn through svn:// with the address
// in the URL (the history still names the URL as given), Mercurial and git-remote-hg
// through the wharfpin extension (src/git/import-hg-pin.py).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { DnsResponder } from './helpers/dns-responder.ts';
import { ToolServer, writeFile } from './helpers/import-sources.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const run = promisify(execFile);
const SVN_HOST = 'svn.source.test';
const HG_HOST = 'hg.source.test';

let t: TestServer;
let alice: CreatedUser;
let dns: DnsResponder;
const svnserve = new ToolServer();
const hgServe = new ToolServer();

before(async () => {
  const svnRoot = tempDir('wharf-pinned-svn-');
  await run('svnadmin', ['create', path.join(svnRoot, 'repo')]);
  const url = `file://${svnRoot}/repo`;
  await run('svn', ['mkdir', '-q', '--parents', '-m', 'layout', '--username', 'carol', `${url}/trunk`, `${url}/branches`, `${url}/tags`]);
  const wc = tempDir('wharf-pinned-wc-');
  await run('svn', ['checkout', '-q', `${url}/trunk`, wc]);
  writeFile(wc, 'a.txt', 'hello\n');
  await run('svn', ['add', '-q', path.join(wc, 'a.txt')]);
  await run('svn', ['commit', '-q', '-m', 'add a', '--username', 'dave', wc]);

  const hgDir = path.join(tempDir('wharf-pinned-hg-'), 'src');
  const hgEnv = { ...process.env, HGPLAIN: '1', HGRCPATH: '/dev/null' };
  await run('hg', ['init', hgDir]);
  writeFile(hgDir, 'README', 'hg project\n');
  await run('hg', ['--cwd', hgDir, 'add', 'README'], { env: hgEnv });
  await run('hg', ['--cwd', hgDir, '--config', 'ui.username=Hana <hana@hg.example>', 'commit', '-m', 'first'], { env: hgEnv });

  await svnserve.start('svnserve', (p) => ['-d', '--foreground', '-r', svnRoot, '--listen-port', String(p), '--listen-host', '127.0.0.1']);
  await hgServe.start('hg', (p) => ['serve', '-R', hgDir, '-p', String(p), '-a', '127.0.0.1', '--config', 'web.push_ssl=false']);
  dns = new DnsResponder((name, type) => (name === SVN_HOST || name === HG_HOST ? (type === 'A' ? ['127.0.0.1'] : []) : null));
  await dns.start();
  t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WHARF_WEBHOOK_DNS_SERVERS: dns.server, WHARF_IMPORT_POLL_MS: '50' } });
  alice = await createUser(t);
});

after(async () => {
  await t?.close();
  await dns?.stop();
  await svnserve.stop();
  await hgServe.stop();
});

async function imported(r: CreatedRepo, vcsUrl: string): Promise<{ vcs: string; mirror: string }> {
  const res = await t.request(`/repos/${r.owner}/${r.repo}/import`, { method: 'PUT', token: alice.token, json: { vcs_url: vcsUrl } });
  assert.equal(res.status, 201, await res.clone().text());
  let last: Record<string, unknown> = {};
  await eventually(async () => {
    last = await (await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token })).json() as Record<string, unknown>;
    if (last.status === 'error' || String(last.status).startsWith('detection_found')) throw new Error(`import ended: ${JSON.stringify(last)}`);
    return last.status === 'complete' ? true : undefined;
  }, 60_000, 'import complete');
  const mirror = path.join(tempDir('wharf-pinned-clone-'), 'c.git');
  await gitOk(['clone', '-q', '--mirror', cloneUrl(t.baseUrl, r.owner, r.repo, alice.login, alice.token), mirror]);
  return { vcs: String(last.vcs), mirror };
}

test('the system resolver does not know the source\'s names (else this test would show nothing)', async () => {
  await assert.rejects(run('getent', ['hosts', SVN_HOST]));
  await assert.rejects(run('getent', ['hosts', HG_HOST]));
});

test('Subversion over svn://, named by a name only Wharf\'s resolver knows: imported from the checked address; the history names the URL as given', async () => {
  const r = await createRepo(t, alice, { autoInit: false });
  const source = `svn://${SVN_HOST}:${svnserve.port}/repo`;
  const { vcs, mirror } = await imported(r, source);
  assert.equal(vcs, 'subversion');
  const log = (await gitOk(['--git-dir', mirror, 'log', '--format=%an|%s|%b', 'master'])).trim();
  assert.match(log, /dave\|add a\|/);
  assert.match(log, new RegExp(`git-svn-id: ${source.replace(/[.]/g, '\\.')}/trunk@2 `));
  assert.doesNotMatch(log, /127\.0\.0\.1/);
});

test('Mercurial over http, named by a name only Wharf\'s resolver knows: detected and imported from the checked address', async () => {
  const r = await createRepo(t, alice, { autoInit: false });
  const { vcs, mirror } = await imported(r, `http://${HG_HOST}:${hgServe.port}/`);
  assert.equal(vcs, 'mercurial');
  assert.equal((await gitOk(['--git-dir', mirror, 'log', '--format=%an|%s', 'master'])).trim(), 'Hana|first');
});
