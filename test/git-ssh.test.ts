// git clone, fetch and push over SSH against Wharf's own SSH server, with OpenSSH's
// client and the git binary: user keys (ed25519, rsa), deploy keys (write, read-only),
// refusals in upstream's words, and pushes taking the same path as over HTTP (push
// webhook, commits in the API, protected branches).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { git, gitOk, tempDir } from './helpers/git.ts';
import { eventually, ReceiverPool } from './helpers/webhook-receiver.ts';
import { quarantineDirs } from '../src/git/quarantine.ts';
import { listEvents } from '../src/events/outbox.ts';
import { allPushesRecorded, anyPushUnrecorded } from '../src/git/push-recordings.ts';
import { withRefRecordingLock } from '../src/modules/git-http/git-http.service.ts';
import { Urls } from '../src/urls.ts';
import { loadConfig } from '../src/config.ts';
import ssh2 from 'ssh2';

interface Key {
  file: string;
  pub: string;
}

function run(cmd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.on('error', () => { /* the command may exit before reading */ });
    child.stdin?.end(input ?? '');
  });
}

describe('git over SSH', () => {
  let t: TestServer;
  let port: number;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let knownHosts: string;
  const keys: Record<string, Key> = {};
  const pool = new ReceiverPool();
  const home = tempDir('wharf-ssh-');
  let closed = false;

  async function newKey(name: string, type: 'ed25519' | 'rsa'): Promise<Key> {
    const file = path.join(home, name);
    const r = await run('ssh-keygen', ['-q', '-t', type, ...(type === 'rsa' ? ['-b', '2048'] : []), '-N', '', '-C', `${name}@test`, '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    return { file, pub: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
  }

  function sshCommand(key: Key): string {
    return `ssh -i ${key.file} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -o BatchMode=yes -p ${port}`;
  }

  function sshEnv(key: Key): Record<string, string> {
    return { GIT_SSH_COMMAND: sshCommand(key) };
  }

  function remote(owner: string, repo: string): string {
    return `ssh://git@127.0.0.1:${port}/${owner}/${repo}.git`;
  }

  async function commitFile(dir: string, file: string, content: string, message: string): Promise<string> {
    fs.writeFileSync(path.join(dir, file), content);
    await gitOk(['add', file], { cwd: dir });
    await gitOk(['commit', '-q', '-m', message], { cwd: dir });
    return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  }

  before(async () => {
    t = await startTestServer({ ssh: true, env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    assert.ok(t.server.sshPort);
    port = t.server.sshPort;
    alice = await createUser(t, ['repo', 'user', 'write:public_key', 'admin:public_key', 'admin:repo_hook']);
    bob = await createUser(t, ['repo', 'user', 'write:public_key']);
    const [ed, rsa, bobs, stranger, writer, reader, elsewhere] = await Promise.all([
      newKey('alice-ed25519', 'ed25519'), newKey('alice-rsa', 'rsa'), newKey('bob', 'ed25519'), newKey('stranger', 'ed25519'),
      newKey('deploy-write', 'ed25519'), newKey('deploy-read', 'ed25519'), newKey('deploy-elsewhere', 'ed25519'),
    ]);
    Object.assign(keys, { ed, rsa, bobs, stranger, writer, reader, elsewhere });
    // Host-key checking is real: known_hosts holds what GET /meta publishes, nothing else.
    const meta = await (await t.request('/meta')).json() as { ssh_keys: string[] };
    knownHosts = path.join(home, 'known_hosts');
    fs.writeFileSync(knownHosts, meta.ssh_keys.map((k) => `[127.0.0.1]:${port} ${k}\n`).join(''));
    const kit = t.octokit(alice.token);
    await kit.rest.users.createPublicSshKeyForAuthenticatedUser({ title: 'ed', key: ed.pub });
    await kit.rest.users.createPublicSshKeyForAuthenticatedUser({ title: 'rsa', key: rsa.pub });
    await t.octokit(bob.token).rest.users.createPublicSshKeyForAuthenticatedUser({ title: 'bob', key: bobs.pub });
    await kit.rest.repos.createForAuthenticatedUser({ name: 'dock', auto_init: true, private: true });
    await kit.rest.repos.createForAuthenticatedUser({ name: 'quay', auto_init: true });
    await kit.rest.repos.createForAuthenticatedUser({ name: 'pier', auto_init: true, private: true });
    await kit.rest.repos.createDeployKey({ owner: alice.login, repo: 'dock', title: 'writer', key: writer.pub, read_only: false });
    await kit.rest.repos.createDeployKey({ owner: alice.login, repo: 'dock', title: 'reader', key: reader.pub, read_only: true });
    await kit.rest.repos.createDeployKey({ owner: alice.login, repo: 'pier', title: 'elsewhere', key: elsewhere.pub, read_only: false });
  });
  after(async () => {
    await pool.stopAll();
    if (!closed) await t.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('ssh_url names the SSH port; the REST and GraphQL addresses agree', async () => {
    const { data } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'dock' });
    assert.equal(data.ssh_url, remote(alice.login, 'dock'));
    assert.equal(data.clone_url, `${t.baseUrl}/${alice.login}/dock.git`);
    const res = await t.request('/graphql', { method: 'POST', token: alice.token, json: { query: `{ repository(owner: "${alice.login}", name: "dock") { sshUrl } }` } });
    assert.equal(((await res.json()) as { data: { repository: { sshUrl: string } } }).data.repository.sshUrl, data.ssh_url);
  });

  test('ssh_url takes upstream\'s scp-like form on port 22', () => {
    assert.equal(new Urls('https://wharf.example:8443', 22).sshRemote('alice', 'dock'), 'git@wharf.example:alice/dock.git');
    assert.equal(new Urls('https://wharf.example', 2200).sshRemote('alice', 'dock'), 'ssh://git@wharf.example:2200/alice/dock.git');
  });

  test('a deploy key removed after the connection opened runs nothing', async () => {
    const key = await newKey('deploy-revoked', 'ed25519');
    const kit = t.octokit(alice.token);
    const { data: deploy } = await kit.rest.repos.createDeployKey({ owner: alice.login, repo: 'dock', title: 'revoked', key: key.pub, read_only: true });
    const client = new ssh2.Client();
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve()).once('error', reject);
      client.connect({ host: '127.0.0.1', port, username: 'git', privateKey: fs.readFileSync(key.file) });
    });
    try {
      await kit.rest.repos.deleteDeployKey({ owner: alice.login, repo: 'dock', key_id: deploy.id });
      const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve, reject) => {
        client.exec(`git-upload-pack '${alice.login}/dock.git'`, (err, channel) => {
          if (err) return reject(err);
          let errText = '';
          channel.stderr.on('data', (c: Buffer) => { errText += c.toString(); });
          channel.on('data', () => { /* nothing is expected */ });
          channel.on('exit', (exitCode: number) => channel.on('close', () => resolve({ code: exitCode, stderr: errText })));
        });
      });
      assert.equal(code, 1);
      assert.match(stderr, /ERROR: Permission denied \(publickey\)\./);
    } finally {
      client.end();
    }
  });

  test('a user key (ed25519) clones, pushes and fetches; the push raises the push webhook and shows in the API', async () => {
    const rx = await pool.start();
    const kit = t.octokit(alice.token);
    await kit.rest.repos.createWebhook({ owner: alice.login, repo: 'dock', events: ['push'], config: { url: rx.url(), content_type: 'json' } });
    const work = tempDir();
    const { data: repo } = await kit.rest.repos.get({ owner: alice.login, repo: 'dock' });
    await gitOk(['clone', '-q', repo.ssh_url, work], { env: sshEnv(keys.ed!) });
    const head = await commitFile(work, 'cargo.txt', 'crates\n', 'Load cargo over SSH');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.ed!) });
    // Recorded by the time alice asks (the helper waits for it too): answered before recorded, as over HTTP.
    const ownKeys = (await kit.rest.users.listPublicSshKeysForAuthenticatedUser()).data;
    assert.ok(ownKeys.find((k) => k.title === 'ed')!.last_used, 'the key\'s use is noted');
    assert.equal(ownKeys.find((k) => k.title === 'rsa')!.last_used, null);
    const { data: commit } = await kit.rest.repos.getCommit({ owner: alice.login, repo: 'dock', ref: 'main' });
    assert.equal(commit.sha, head);
    assert.equal(commit.commit.message, 'Load cargo over SSH');
    const [delivery] = await rx.waitFor(1, (r) => r.headers['x-github-event'] === 'push');
    const payload = JSON.parse(delivery!.body) as { ref: string; after: string; pusher: { name: string }; sender: { login: string }; commits: { message: string }[] };
    assert.equal(payload.ref, 'refs/heads/main');
    assert.equal(payload.after, head);
    assert.equal(payload.pusher.name, alice.login);
    assert.equal(payload.sender.login, alice.login);
    assert.deepEqual(payload.commits.map((c) => c.message), ['Load cargo over SSH']);
    // fetch: another clone's commit arrives.
    const other = tempDir();
    await gitOk(['clone', '-q', repo.ssh_url, other], { env: sshEnv(keys.ed!) });
    const next = await commitFile(other, 'more.txt', 'more\n', 'More');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: other, env: sshEnv(keys.ed!) });
    await gitOk(['fetch', '-q', 'origin'], { cwd: work, env: sshEnv(keys.ed!) });
    assert.equal((await gitOk(['rev-parse', 'origin/main'], { cwd: work })).trim(), next);
  });

  test('a push is answered once git exits and recorded after, as over HTTP; the pusher\'s next request waits for it (issue #12)', async () => {
    const kit = t.octokit(alice.token);
    const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'berth', auto_init: true });
    const work = tempDir();
    await gitOk(['clone', '-q', repo.ssh_url, work], { env: sshEnv(keys.ed!) });
    const head = await commitFile(work, 'held.txt', 'held\n', 'Held');
    // The recording is held, without timing, by holding the repository's ref recording lock (every recording takes it).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => { held = resolve; });
    const released = withRefRecordingLock(t.server.ctx, repo.id, async () => { held(); await gate; });
    await holding;
    // git itself, not the helper (which waits for recordings): before, the exit status waited for the recording (here, for ever).
    const pushed = await run('git', ['-C', work, 'push', '-q', 'origin', 'HEAD:main'], sshEnv(keys.ed!));
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.ok(anyPushUnrecorded());
    assert.deepEqual(await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id }), []);
    const seen = kit.rest.repos.getCommit({ owner: alice.login, repo: 'berth', ref: 'main' });
    release();
    await released;
    assert.equal((await seen).data.sha, head);
    await allPushesRecorded();
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id });
    assert.deepEqual(pushes.map((e) => e.payload.ref), ['refs/heads/main']);
  });

  test('an rsa user key works with the ~owner/repo path without .git; git archive --remote too', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', `ssh://git@127.0.0.1:${port}/~${alice.login}/quay`, work], { env: sshEnv(keys.rsa!) });
    const head = await commitFile(work, 'rsa.txt', 'rsa\n', 'By RSA');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.rsa!) });
    const { data } = await t.octokit(alice.token).rest.repos.getBranch({ owner: alice.login, repo: 'quay', branch: 'main' });
    assert.equal(data.commit.sha, head);
    const listing = await git(['archive', `--remote=${remote(alice.login, 'quay')}`, '--format=tar', 'main', 'rsa.txt'], { env: sshEnv(keys.rsa!) });
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /rsa\.txt/);
  });

  test('protocol v2 is used when asked for, v0 otherwise', async () => {
    const v2 = await git(['-c', 'protocol.version=2', 'ls-remote', remote(alice.login, 'quay')], { env: { ...sshEnv(keys.ed!), GIT_TRACE_PACKET: '1' } });
    assert.equal(v2.code, 0, v2.stderr);
    assert.match(v2.stderr, /< version 2/);
    assert.match(v2.stdout, /refs\/heads\/main/);
    const v0 = await git(['-c', 'protocol.version=0', 'ls-remote', remote(alice.login, 'quay')], { env: { ...sshEnv(keys.ed!), GIT_TRACE_PACKET: '1' } });
    assert.equal(v0.code, 0, v0.stderr);
    assert.doesNotMatch(v0.stderr, /< version 2/);
  });

  test('a write deploy key clones and pushes its repository; pushes are recorded as the one who added the key', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', remote(alice.login, 'dock'), work], { env: sshEnv(keys.writer!) });
    const head = await commitFile(work, 'deploy.txt', 'deployed\n', 'Deploy');
    await gitOk(['push', '-q', 'origin', 'HEAD:release'], { cwd: work, env: sshEnv(keys.writer!) });
    const { data } = await t.octokit(alice.token).rest.repos.getBranch({ owner: alice.login, repo: 'dock', branch: 'release' });
    assert.equal(data.commit.sha, head);
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'dock' });
    const push = (await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id })).at(-1)!;
    assert.equal(push.payload.ref, 'refs/heads/release');
    assert.equal(push.actorId, alice.id);
  });

  test('a read-only deploy key clones but may not push: upstream\'s message', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', remote(alice.login, 'dock'), work], { env: sshEnv(keys.reader!) });
    await commitFile(work, 'nope.txt', 'nope\n', 'Nope');
    const r = await git(['push', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.reader!) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /ERROR: The key you are authenticating with has been marked as read only\./);
  });

  test('refusals: an unknown key, another repository\'s deploy key, a user without access', async () => {
    const unknown = await git(['ls-remote', remote(alice.login, 'quay')], { env: sshEnv(keys.stranger!) });
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Permission denied \(publickey\)/);
    const otherRepo = await git(['ls-remote', remote(alice.login, 'dock')], { env: sshEnv(keys.elsewhere!) });
    assert.notEqual(otherRepo.code, 0);
    assert.match(otherRepo.stderr, /ERROR: Repository not found\./);
    const hidden = await git(['ls-remote', remote(alice.login, 'dock')], { env: sshEnv(keys.bobs!) });
    assert.notEqual(hidden.code, 0);
    assert.match(hidden.stderr, /ERROR: Repository not found\./);
    assert.match(hidden.stderr, /Could not read from remote repository/);
    // Bob reads the public repository but may not push to it.
    const work = tempDir();
    await gitOk(['clone', '-q', remote(alice.login, 'quay'), work], { env: sshEnv(keys.bobs!) });
    await commitFile(work, 'bob.txt', 'bob\n', 'Bob was here');
    const denied = await git(['push', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.bobs!) });
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, new RegExp(`ERROR: Permission to ${alice.login}/quay\\.git denied to ${bob.login}\\.`));
    const missing = await git(['ls-remote', remote(alice.login, 'no-such-repo')], { env: sshEnv(keys.ed!) });
    assert.match(missing.stderr, /ERROR: Repository not found\./);
  });

  test('ssh git@host greets the user (or the deploy key\'s repository) and exits 1', async () => {
    const asUser = await run('ssh', [...sshCommand(keys.ed!).split(' ').slice(1), 'git@127.0.0.1']);
    assert.equal(asUser.code, 1);
    assert.match(asUser.stderr, new RegExp(`Hi ${alice.login}! You've successfully authenticated, but Wharf does not provide shell access\\.`));
    const asKey = await run('ssh', [...sshCommand(keys.writer!).split(' ').slice(1), '-T', 'git@127.0.0.1']);
    assert.equal(asKey.code, 1);
    assert.match(asKey.stderr, new RegExp(`Hi ${alice.login}/dock! You've successfully authenticated`));
    const other = await run('ssh', [...sshCommand(keys.ed!).split(' ').slice(1), 'git@127.0.0.1', 'ls', '-la']);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /Invalid command/);
  });

  test('a force-push to a protected branch is refused over SSH as over HTTP', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.repos.updateBranchProtection({
      owner: alice.login, repo: 'quay', branch: 'main', required_status_checks: null, enforce_admins: true, required_pull_request_reviews: null, restrictions: null,
    });
    const work = tempDir();
    await gitOk(['clone', '-q', remote(alice.login, 'quay'), work], { env: sshEnv(keys.ed!) });
    const before = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
    await commitFile(work, 'rewrite.txt', 'x\n', 'Rewritten');
    const r = await git(['push', '--force', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.ed!) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH006: Protected branch update failed for refs\/heads\/main\./);
    assert.match(r.stderr, /remote: error: Cannot force-push to this branch/);
    const { data } = await kit.rest.repos.getBranch({ owner: alice.login, repo: 'quay', branch: 'main' });
    assert.equal(data.commit.sha, before);
  });

  test('a push an admin makes around a classic rule is accepted over SSH with the bypassed-rules notice', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: 'slip', auto_init: true });
    await kit.rest.repos.updateBranchProtection({
      owner: alice.login, repo: 'slip', branch: 'main', required_status_checks: null, enforce_admins: false,
      required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null,
    });
    const work = tempDir();
    await gitOk(['clone', '-q', remote(alice.login, 'slip'), work], { env: sshEnv(keys.ed!) });
    const head = await commitFile(work, 'direct.txt', 'x\n', 'Straight to main');
    const r = await git(['push', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv(keys.ed!) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /remote: Bypassed rule violations for refs\/heads\/main:\s*\nremote:\s*\nremote: - Changes must be made through a pull request\.\s*\nremote:\s*\n/);
    const { data } = await kit.rest.repos.getBranch({ owner: alice.login, repo: 'slip', branch: 'main' });
    assert.equal(data.commit.sha, head);
  });

  test('a suspended user\'s key is refused; it works again once unsuspended', async () => {
    const admin = t.octokit(ADMIN_TOKEN);
    await admin.request('PUT /users/{username}/suspended', { username: bob.login });
    const r = await git(['ls-remote', remote(alice.login, 'quay')], { env: sshEnv(keys.bobs!) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Permission denied \(publickey\)/);
    await admin.request('DELETE /users/{username}/suspended', { username: bob.login });
    await gitOk(['ls-remote', remote(alice.login, 'quay')], { env: sshEnv(keys.bobs!) });
  });

  test('an interrupted push leaves no journal row, no quarantine and no git process', async () => {
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'pier' });
    const args = [...sshCommand(keys.ed!).split(' ').slice(1), 'git@127.0.0.1', `git-receive-pack '${alice.login}/pier.git'`];
    const ssh = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let advertised = '';
    await new Promise<void>((resolve) => ssh.stdout.on('data', (c: Buffer) => {
      advertised += c.toString('latin1');
      if (advertised.endsWith('0000')) resolve();
    }));
    const old = /^[0-9a-f]{4}([0-9a-f]{40}) refs\/heads\/main/m.exec(advertised)![1]!;
    const line = `${old} ${'1'.repeat(40)} refs/heads/main\0report-status\n`;
    // The update, then the start of a pack that never ends.
    ssh.stdin.write(`${(line.length + 4).toString(16).padStart(4, '0')}${line}0000`);
    ssh.stdin.write(Buffer.from('5041434b0000000200000064', 'hex'));
    const journaled = async () => (await t.server.ctx.db.selectFrom('push_journal').select('id').where('repository_id', '=', repo.id).execute()).length;
    const dir = path.join(t.dataDir, 'repos', `${repo.id}.git`);
    // git waits for the rest of the pack in its quarantine; the push is journaled.
    await eventually(async () => (await quarantineDirs(dir)).length === 1 ? true : undefined, 10_000, 'quarantine made');
    assert.equal(await journaled(), 1);
    ssh.kill('SIGKILL');
    await eventually(async () => (await journaled()) === 0 ? true : undefined, 10_000, 'journal closed');
    await eventually(async () => (await quarantineDirs(dir)).length === 0 ? true : undefined, 10_000, 'quarantine removed');
    const ps = await run('ps', ['-eo', 'args']);
    assert.doesNotMatch(ps.stdout, new RegExp(`receive-pack ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('closing the server ends sessions still open instead of waiting for them', async () => {
    const args = [...sshCommand(keys.ed!).split(' ').slice(1), 'git@127.0.0.1', `git-upload-pack '${alice.login}/quay.git'`];
    const ssh = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => ssh.stdout.once('data', () => resolve()));
    const exited = new Promise<number | null>((resolve) => ssh.once('exit', (code) => resolve(code)));
    closed = true;
    await t.close();
    assert.notEqual(await exited, 0);
  });
});

describe('WHARF_SSH_PORT', () => {
  test('2222 by default, any port when set, 0 turns the SSH server off', async () => {
    assert.equal(loadConfig({}).sshPort, 2222);
    assert.equal(loadConfig({ WHARF_SSH_PORT: '2200' }).sshPort, 2200);
    assert.throws(() => loadConfig({ WHARF_SSH_PORT: '70000' }), /WHARF_SSH_PORT/);
    // The test servers start with WHARF_SSH_PORT=0: nothing listens for SSH.
    const off = await startTestServer();
    try {
      assert.equal(off.server.sshPort, null);
      assert.equal((await off.request('/meta')).status, 200);
    } finally {
      await off.close();
    }
  });
});
