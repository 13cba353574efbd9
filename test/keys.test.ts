// SSH keys: a user's keys (/user/keys, /users/{u}/keys, /{user}.keys) and deploy keys
// (/repos/{o}/{r}/keys), with keys made by ssh-keygen and fingerprints it agrees with.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith, failure } from './helpers/failures.ts';
import { tempDir } from './helpers/git.ts';
import { findKeyGrant } from '../src/modules/keys/keys.service.ts';
import { parseSshKey } from '../src/modules/keys/keys.openssh.ts';

interface Made { pub: string; fingerprint: string }

/** A fresh key pair by ssh-keygen: the public line and the fingerprint ssh-keygen prints for it. */
function makeKey(type: string, bits?: number, comment = 'someone@laptop'): Made {
  const file = path.join(tempDir('wharf-ssh-'), 'id');
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', comment, '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { pub, fingerprint };
}

describe('SSH keys and deploy keys', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const ed = makeKey('ed25519');
  const rsa = makeKey('rsa', 2048, '');
  const ecdsa = makeKey('ecdsa', 384);

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user', 'admin:public_key']);
    bob = await createUser(t, ['repo', 'user', 'admin:public_key']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'deploy-dock', private: true });
  });
  after(() => t.close());

  test('the parser agrees with ssh-keygen on fingerprints of ed25519, RSA and ECDSA keys', () => {
    for (const k of [ed, rsa, ecdsa]) assert.equal(parseSshKey(k.pub).fingerprint, k.fingerprint);
    assert.equal(parseSshKey(rsa.pub).bits, 2048);
    assert.equal(parseSshKey(ecdsa.pub).bits, 384);
  });

  test('POST/GET/DELETE /user/keys; listed for anyone at /users/{u}/keys and /{user}.keys', async () => {
    const octokit = t.octokit(alice.token);
    const created = await octokit.rest.users.createPublicSshKeyForAuthenticatedUser({ title: 'Laptop', key: ed.pub });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/user/keys', 201, created.data);
    assert.equal(created.data.title, 'Laptop');
    assert.equal(created.data.key, ed.pub.split(' ').slice(0, 2).join(' '), 'stored without the comment');
    assert.equal(created.data.url, `${t.baseUrl}/user/keys/${created.data.id}`);
    const untitled = await octokit.rest.users.createPublicSshKeyForAuthenticatedUser({ key: ecdsa.pub });
    assert.equal(untitled.data.title, 'someone@laptop', 'an untitled key is named by its comment');

    const list = await octokit.rest.users.listPublicSshKeysForAuthenticatedUser();
    assertMatchesOpenApi('GET', '/user/keys', 200, list.data);
    assert.deepEqual(list.data.map((k) => k.id), [created.data.id, untitled.data.id]);
    const one = await octokit.rest.users.getPublicSshKeyForAuthenticatedUser({ key_id: created.data.id });
    assert.equal(one.data.key, created.data.key);
    assert.equal((await failure(() => t.octokit(bob.token).rest.users.getPublicSshKeyForAuthenticatedUser({ key_id: created.data.id }))).status, 404);

    const forUser = await t.octokit().rest.users.listPublicKeysForUser({ username: alice.login });
    assertMatchesOpenApi('GET', '/users/{username}/keys', 200, forUser.data);
    assert.deepEqual(forUser.data.map((k) => k.key), [created.data.key, untitled.data.key]);
    const file = await t.request(`/${alice.login}.keys`);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await file.text(), `${created.data.key}\n${untitled.data.key}\n`);
    assert.equal((await t.request('/no-such-user-here.keys')).status, 404);

    const grant = await findKeyGrant(t.server.ctx, Buffer.from(ed.pub.split(' ')[1]!, 'base64'));
    assert.deepEqual(grant && { kind: grant.kind, userId: grant.kind === 'user' ? grant.userId : null }, { kind: 'user', userId: alice.id });

    assert.equal((await octokit.rest.users.deletePublicSshKeyForAuthenticatedUser({ key_id: untitled.data.id })).status, 204);
    assert.equal((await failure(() => octokit.rest.users.getPublicSshKeyForAuthenticatedUser({ key_id: untitled.data.id }))).status, 404);
    assert.equal((await failure(() => octokit.rest.users.deletePublicSshKeyForAuthenticatedUser({ key_id: untitled.data.id }))).status, 404);
  });

  test('invalid, weak, unsupported and duplicate keys are 422 and store nothing', async () => {
    const octokit = t.octokit(bob.token);
    const reject = async (key: string) => failsWith(octokit.rest.users.createPublicSshKeyForAuthenticatedUser({ key }), 422);
    const [type, b64] = ed.pub.split(' ') as [string, string];
    const truncated = Buffer.from(b64, 'base64').subarray(0, 40).toString('base64');
    for (const key of ['not a key', `${type} ${truncated}`, `ssh-rsa ${b64}`, `${type} ${b64}AAAA`, `${type} !!!`]) {
      const f = await reject(key);
      assert.match(f.errors?.[0]?.message ?? '', /^key is invalid/, key);
    }
    const weak = await reject(makeKey('rsa', 1024).pub);
    assert.match(weak.errors?.[0]?.message ?? '', /^key is weak/);
    const dsa = await reject(`ssh-dss ${Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-dss')]).toString('base64')}`);
    assert.match(dsa.errors?.[0]?.message ?? '', /not supported/);
    const dup = await reject(ed.pub);
    assert.equal(dup.errors?.[0]?.message, 'key is already in use', 'registered by alice already');
    assert.equal((await octokit.rest.users.listPublicSshKeysForAuthenticatedUser()).data.length, 0);
    const readOnly = await createToken(t, bob.login, ['read:public_key']);
    assert.equal((await failure(() => t.octokit(readOnly).rest.users.createPublicSshKeyForAuthenticatedUser({ key: rsa.pub }))).status, 403);
    assert.equal((await failure(() => t.octokit().rest.users.listPublicSshKeysForAuthenticatedUser())).status, 401);
  });

  test('deploy keys: admins add, list, get and delete them; read_only kept; others get 404', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const repo = 'deploy-dock';
    const created = await octokit.rest.repos.createDeployKey({ owner, repo, title: 'CI', key: rsa.pub, read_only: true });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/keys', 201, created.data);
    assert.equal(created.data.read_only, true);
    assert.equal(created.data.added_by, alice.login);
    assert.equal(created.data.url, `${t.baseUrl}/repos/${owner}/${repo}/keys/${created.data.id}`);
    const list = await octokit.rest.repos.listDeployKeys({ owner, repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/keys', 200, list.data);
    assert.deepEqual(list.data.map((k) => k.id), [created.data.id]);
    const one = await octokit.rest.repos.getDeployKey({ owner, repo, key_id: created.data.id });
    assert.equal(one.data.title, 'CI');

    const grant = await findKeyGrant(t.server.ctx, Buffer.from(rsa.pub.split(' ')[1]!, 'base64'));
    assert.equal(grant?.kind, 'deploy');
    assert.equal(grant?.kind === 'deploy' && grant.readOnly, true);

    const dup = await failsWith(octokit.rest.repos.createDeployKey({ owner, repo, key: ed.pub }), 422);
    assert.equal(dup.errors?.[0]?.message, 'key is already in use', 'a user key is no deploy key too');
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.listDeployKeys({ owner, repo }))).status, 404);
    const noRepoScope = await createToken(t, alice.login, ['user']);
    assert.equal((await failure(() => t.octokit(noRepoScope).rest.repos.listDeployKeys({ owner, repo }))).status, 403);

    assert.equal((await octokit.rest.repos.deleteDeployKey({ owner, repo, key_id: created.data.id })).status, 204);
    assert.equal((await failure(() => octokit.rest.repos.getDeployKey({ owner, repo, key_id: created.data.id }))).status, 404);
    assert.equal(await findKeyGrant(t.server.ctx, Buffer.from(rsa.pub.split(' ')[1]!, 'base64')), null);
  });
});
