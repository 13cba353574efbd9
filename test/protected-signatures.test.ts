// Required signatures on git pushes (issue #21 § 1): each commit a push adds to a
// protected branch must carry a signature that Wharf's own verification (the
// `verification` object of the API) calls verified. The pre-receive hook asks the
// server over the push's signature channel (src/git/protected-push.ts). Real server,
// real git over HTTP and SSH; keys are made with openpgp.js and ssh-keygen, signed
// commit objects written by hand with `git hash-object`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as openpgp from 'openpgp';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { commitFiles, repoWithFeature, type Clone } from './factories/pulls.ts';
import { git, gitOk, tempDir } from './helpers/git.ts';
import { openSignatureChannel } from '../src/git/protected-push.ts';

type Json = Record<string, any>;

let t: TestServer;
before(async () => { t = await startTestServer({ ssh: true }); });
after(async () => { await t.close(); });

const REFUSED = /remote: error: GH006: Protected branch update failed for refs\/heads\/main\.\s*\nremote: error: Commits must have verified signatures\./;

async function pgpKey(email: string): Promise<{ privateKey: openpgp.PrivateKey; publicArmored: string }> {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'Test Signer', email }], format: 'object',
  });
  return { privateKey, publicArmored: publicKey.armor() };
}

/** The commit text with `signature` as its gpgsig header (continuation lines start with a space). */
function withGpgsig(text: string, signature: string): string {
  const [first, ...rest] = signature.replace(/\n$/, '').split('\n');
  const end = text.indexOf('\n\n');
  return `${text.slice(0, end + 1)}gpgsig ${first}\n${rest.map((l) => ` ${l}\n`).join('')}${text.slice(end + 1)}`;
}

async function sign(text: string, key: openpgp.PrivateKey): Promise<string> {
  return openpgp.sign({ message: await openpgp.createMessage({ binary: Buffer.from(text, 'utf8') }), signingKeys: key, detached: true });
}

describe('required signatures on pushes', () => {
  let owner: CreatedUser;
  let email: string;
  let registered: Awaited<ReturnType<typeof pgpKey>>;
  let stranger: Awaited<ReturnType<typeof pgpKey>>;
  let clone: Clone;
  let repo: string;
  let sshEnv: Record<string, string>;

  before(async () => {
    owner = await createUser(t, ['repo', 'user', 'admin:gpg_key', 'write:public_key']);
    // The address the site admin gave is the account's primary, verified one.
    email = `${owner.login}@example.com`;
    [registered, stranger] = await Promise.all([pgpKey(email), pgpKey(email)]);
    const added = await t.request('/user/gpg_keys', { method: 'POST', token: owner.token, json: { armored_public_key: registered.publicArmored } });
    assert.equal(added.status, 201, await added.clone().text());
    const made = await repoWithFeature(t, owner);
    clone = made.clone;
    repo = clone.repo;
    // The owner administers the repository: enforce_admins, or the rule would not bind them.
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', required_status_checks: null, enforce_admins: true,
      required_pull_request_reviews: null, restrictions: null, allow_force_pushes: true,
    });
    await kit.rest.repos.createCommitSignatureProtection({ owner: owner.login, repo, branch: 'main' });
    const sig = await kit.rest.repos.getCommitSignatureProtection({ owner: owner.login, repo, branch: 'main' });
    assert.equal(sig.data.enabled, true);

    const home = tempDir('wharf-sig-ssh-');
    const keyFile = path.join(home, 'id');
    await new Promise<void>((resolve, reject) => execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile], (err) => (err ? reject(err) : resolve())));
    await kit.rest.users.createPublicSshKeyForAuthenticatedUser({ title: 'sig', key: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim() });
    const meta = await (await t.request('/meta')).json() as { ssh_keys: string[] };
    const knownHosts = path.join(home, 'known_hosts');
    fs.writeFileSync(knownHosts, meta.ssh_keys.map((k) => `[127.0.0.1]:${t.server.sshPort} ${k}\n`).join(''));
    sshEnv = { GIT_SSH_COMMAND: `ssh -i ${keyFile} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -o BatchMode=yes -p ${t.server.sshPort}` };
  });

  async function serverSha(branch: string): Promise<string | null> {
    const res = await t.request(`/repos/${owner.login}/${repo}/git/ref/heads/${branch}`, { token: owner.token });
    return res.status === 200 ? ((await res.json()) as Json).object.sha : null;
  }

  /** A commit on `parent` (with one more file), as a text object not yet written. */
  async function commitText(parent: string, message: string): Promise<string> {
    const blob = (await gitOk(['hash-object', '-w', '--stdin'], { cwd: clone.dir, input: `${message}\n` })).trim();
    const base = (await gitOk(['ls-tree', parent], { cwd: clone.dir })).trimEnd();
    const name = `f-${Math.random().toString(36).slice(2)}.txt`;
    const tree = (await gitOk(['mktree'], { cwd: clone.dir, input: `${base}\n100644 blob ${blob}\t${name}\n` })).trim();
    const when = `${Math.floor(Date.now() / 1000)} +0000`;
    return `tree ${tree}\nparent ${parent}\nauthor Test Signer <${email}> ${when}\ncommitter Test Signer <${email}> ${when}\n\n${message}\n`;
  }

  async function writeCommit(raw: string): Promise<string> {
    const sha = (await gitOk(['hash-object', '-w', '-t', 'commit', '--stdin'], { cwd: clone.dir, input: raw })).trim();
    assert.equal(await gitOk(['cat-file', 'commit', sha], { cwd: clone.dir }), raw);
    return sha;
  }

  async function signedCommit(parent: string, key: openpgp.PrivateKey, message: string): Promise<string> {
    const text = await commitText(parent, message);
    return writeCommit(withGpgsig(text, await sign(text, key)));
  }

  function pushHttp(sha: string, branch = 'main') {
    return git(['push', 'origin', `${sha}:refs/heads/${branch}`], { cwd: clone.dir });
  }

  function pushSsh(sha: string, branch = 'main') {
    return git(['push', `ssh://git@127.0.0.1:${t.server.sshPort}/${owner.login}/${repo}.git`, `${sha}:refs/heads/${branch}`], { cwd: clone.dir, env: sshEnv });
  }

  async function verificationOf(sha: string): Promise<Json> {
    const res = await t.request(`/repos/${owner.login}/${repo}/git/commits/${sha}`, { token: owner.token });
    assert.equal(res.status, 200);
    return ((await res.json()) as Json).verification;
  }

  test('an unsigned commit is declined with GH006', async () => {
    const before = await serverSha('main');
    await gitOk(['reset', '-q', '--hard', before!], { cwd: clone.dir });
    await commitFiles(clone, { 'unsigned.txt': 'u\n' }, 'Unsigned');
    const r = await git(['push', 'origin', 'main'], { cwd: clone.dir });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, REFUSED);
    assert.equal(await serverSha('main'), before);
    await gitOk(['reset', '-q', '--hard', before!], { cwd: clone.dir });
  });

  test('a commit with a bogus gpgsig header is declined (a header alone is not a signature)', async () => {
    const before = (await serverSha('main'))!;
    const text = await commitText(before, 'Bogus signature');
    const bogus = '-----BEGIN PGP SIGNATURE-----\n\nbm90IGEgc2lnbmF0dXJl\n=abcd\n-----END PGP SIGNATURE-----\n';
    const sha = await writeCommit(withGpgsig(text, bogus));
    for (const r of [await pushHttp(sha), await pushSsh(sha)]) {
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, REFUSED);
    }
    assert.equal(await serverSha('main'), before);
  });

  test('a commit signed by a key no account registered is declined', async () => {
    const before = (await serverSha('main'))!;
    const sha = await signedCommit(before, stranger.privateKey, 'Signed by a stranger');
    const r = await pushHttp(sha);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, REFUSED);
    assert.equal(await serverSha('main'), before);
  });

  test('a verified commit on top of an unsigned one is declined: every new commit counts', async () => {
    const before = (await serverSha('main'))!;
    const plain = await writeCommit(await commitText(before, 'Unsigned underneath'));
    const top = await signedCommit(plain, registered.privateKey, 'Signed on top');
    const r = await pushHttp(top);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, REFUSED);
    assert.equal(await serverSha('main'), before);
  });

  test('commits signed by the pusher\'s registered key, committer address verified, are accepted over HTTP and SSH', async () => {
    const before = (await serverSha('main'))!;
    const first = await signedCommit(before, registered.privateKey, 'Signed one');
    const r = await pushHttp(first);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha('main'), first);
    const v = await verificationOf(first);
    assert.equal(v.verified, true);
    assert.equal(v.reason, 'valid');

    const second = await signedCommit(first, registered.privateKey, 'Signed two');
    const third = await signedCommit(second, registered.privateKey, 'Signed three');
    const s = await pushSsh(third);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(await serverSha('main'), third);
    assert.equal((await verificationOf(second)).verified, true);
  });

  test('an unprotected branch takes unsigned commits', async () => {
    const base = (await serverSha('main'))!;
    const sha = await writeCommit(await commitText(base, 'Unsigned elsewhere'));
    const r = await pushHttp(sha, 'loose');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha('loose'), sha);
    assert.equal((await verificationOf(sha)).reason, 'unsigned');
  });

  test('the refs API holds to the rule too: moving main onto unsigned commits (pushed elsewhere or made by the git data API) is a 422, onto verified ones allowed', async () => {
    const kit = t.octokit(owner.token);
    const base = (await serverSha('main'))!;
    // Commits pushed to an unprotected branch first: the refs API then points main at them.
    const unsigned = await writeCommit(await commitText(base, 'Unsigned, moved by the API'));
    const signed = await signedCommit(unsigned, registered.privateKey, 'Signed on an unsigned one');
    const onlySigned = await signedCommit(base, registered.privateKey, 'Signed alone');
    for (const [branch, sha] of [['side-a', signed], ['side-b', onlySigned]] as const) assert.equal((await pushHttp(sha, branch)).code, 0);
    const refused = await kit.rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: signed }).catch((e: { status: number; response: { data: Json } }) => e);
    assert.equal((refused as { status: number }).status, 422);
    assert.equal((refused as { response: { data: Json } }).response.data.message, 'Commits must have verified signatures.');
    assert.equal(await serverSha('main'), base, 'unchanged');
    const moved = await kit.rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: onlySigned });
    assert.equal(moved.data.object.sha, onlySigned);
    // An unsigned commit made through the git data API does not get onto the branch either.
    const tree = (await kit.rest.git.getCommit({ owner: owner.login, repo, commit_sha: onlySigned })).data.tree.sha;
    const apiCommit = await kit.rest.git.createCommit({ owner: owner.login, repo, message: 'Made by the API, unsigned', tree, parents: [onlySigned] });
    const viaApi = await kit.rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: apiCommit.data.sha }).catch((e: { status: number }) => e);
    assert.equal((viaApi as { status: number }).status, 422);
    assert.equal(await serverSha('main'), onlySigned);
  });
});

describe('the signature channel', () => {
  function ask(socketPath: string, line: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const conn = net.createConnection(socketPath);
      let text = '';
      conn.setEncoding('utf8');
      conn.on('data', (d: string) => { text += d; if (text.includes('\n')) { conn.end(); resolve(text.trim()); } });
      conn.on('close', () => resolve(text ? text.trim() : null));
      conn.on('error', reject);
      conn.write(line);
    });
  }

  test('answers the secret\'s holder only, judges each commit, and is gone once closed', async () => {
    const seen: string[] = [];
    const channel = await openSignatureChannel(async (raw) => {
      seen.push(raw.toString());
      if (raw.toString() === 'boom') throw new Error('verifier failed');
      return raw.toString() === 'good';
    });
    const socketPath = channel.env.WHARF_SIGNATURES_SOCKET;
    assert.equal(fs.statSync(path.dirname(socketPath)).mode & 0o777, 0o700);
    const commits = [['a', 'good'], ['b', 'bad'], ['c', 'boom']].map(([sha, raw]) => ({ sha, raw: Buffer.from(raw!).toString('base64') }));
    const wrong = await ask(socketPath, `${JSON.stringify({ secret: 'x'.repeat(64), commits })}\n`);
    assert.equal(wrong, null);
    assert.deepEqual(seen, []);
    const right = await ask(socketPath, `${JSON.stringify({ secret: channel.env.WHARF_SIGNATURES_SECRET, commits })}\n`);
    assert.deepEqual(JSON.parse(right!), { verified: ['a'] });
    assert.equal(await ask(socketPath, 'not json\n'), null);
    channel.close();
    channel.close();
    assert.equal(fs.existsSync(path.dirname(socketPath)), false);
    await assert.rejects(ask(socketPath, '{}\n'));
  });
});
