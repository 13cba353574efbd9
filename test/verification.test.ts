// Commit signature verification: e-mail addresses, GPG keys, and the verification
// object of commits and tags for every reason that can arise. Keys are generated here
// with openpgp.js; signed objects are written into a real repository with git.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import * as openpgp from 'openpgp';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { gitOk, tempDir } from './helpers/git.ts';
import { verifyCommit, verifyTag, type Verification } from '../src/modules/verification/verification.service.ts';

const execFileAsync = promisify(execFile);

type Json = Record<string, any>;

interface TestKey {
  privateKey: openpgp.PrivateKey;
  publicArmored: string;
}

interface KeyOptions {
  subkeys?: { sign?: boolean }[];
  date?: Date;
  keyExpirationTime?: number;
}

async function eccKey(emails: string[], options: KeyOptions = {}): Promise<TestKey> {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc', curve: 'ed25519Legacy', userIDs: emails.map((email) => ({ name: 'Test Signer', email })), ...options, format: 'object',
  });
  return { privateKey, publicArmored: publicKey.armor() };
}

/** A commit object's text, unsigned. */
function commitText(tree: string, parent: string, email: string, message: string): string {
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  return `tree ${tree}\nparent ${parent}\nauthor Test Signer <${email}> ${when}\ncommitter Test Signer <${email}> ${when}\n\n${message}\n`;
}

/** The same commit with `signature` as its gpgsig header (continuation lines start with a space). */
function withGpgsig(text: string, signature: string): string {
  const [first, ...rest] = signature.replace(/\n$/, '').split('\n');
  const header = `gpgsig ${first}\n${rest.map((l) => ` ${l}\n`).join('')}`;
  const end = text.indexOf('\n\n');
  return `${text.slice(0, end + 1)}${header}${text.slice(end + 1)}`;
}

async function detachedSign(text: string, key: openpgp.PrivateKey, date?: Date): Promise<string> {
  const message = await openpgp.createMessage({ binary: Buffer.from(text, 'utf8') });
  return openpgp.sign({ message, signingKeys: key, detached: true, ...(date ? { date } : {}) });
}

// One server for the file.
let t: TestServer;
before(async () => { t = await startTestServer(); });
after(() => t.close());

describe('commit signature verification', () => {
  let alice: CreatedUser;
  let aliceEmail: string;
  let aliceKey: TestKey;
  let repo: { owner: string; name: string; dir: string; tree: string; head: string };

  before(async () => {
    alice = await createUser(t, ['repo', 'user', 'admin:gpg_key']);
    aliceEmail = `${alice.login}@example.com`;
    aliceKey = await eccKey([aliceEmail]);
    const created = await t.request('/user/gpg_keys', { method: 'POST', token: alice.token, json: { armored_public_key: aliceKey.publicArmored, name: 'laptop' } });
    assert.equal(created.status, 201);
    const { data } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'signed', auto_init: true });
    const dir = path.join(t.server.ctx.config.dataDir, 'repos', `${data.id}.git`);
    const head = (await gitOk(['--git-dir', dir, 'rev-parse', 'HEAD'])).trim();
    const tree = (await gitOk(['--git-dir', dir, 'rev-parse', 'HEAD^{tree}'])).trim();
    repo = { owner: alice.login, name: data.name, dir, tree, head };
  });

  /** Writes the object into the repository, reads it back as git stores it, and verifies it. */
  async function storeAndVerify(raw: string, type: 'commit' | 'tag' = 'commit'): Promise<{ sha: string; v: Verification }> {
    const sha = (await gitOk(['--git-dir', repo.dir, 'hash-object', '-w', '-t', type, '--stdin'], { input: raw })).trim();
    const stored = await gitOk(['--git-dir', repo.dir, 'cat-file', type, sha]);
    assert.equal(stored, raw);
    const v = type === 'commit' ? await verifyCommit(t.server.ctx, Buffer.from(stored, 'utf8')) : await verifyTag(t.server.ctx, Buffer.from(stored, 'utf8'));
    // The verification object against the published schema, inside a stand-in commit record.
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', 200, {
      sha, node_id: 'x', url: 'x', html_url: 'x', author: { date: 'x', email: 'x', name: 'x' }, committer: { date: 'x', email: 'x', name: 'x' },
      message: 'x', tree: { sha: 'x', url: 'x' }, parents: [], verification: v,
    });
    if (type === 'commit') await readBackThroughApi(sha, v);
    return { sha, v };
  }

  /** Where the git data API is served, the commit record carries the same verification. */
  async function readBackThroughApi(sha: string, v: Verification): Promise<void> {
    const res = await t.request(`/repos/${repo.owner}/${repo.name}/git/commits/${sha}`, { token: alice.token });
    if (res.status !== 200) return;
    const body = await res.json() as Json;
    assert.deepEqual(
      { verified: body.verification.verified, reason: body.verification.reason, signature: body.verification.signature, payload: body.verification.payload },
      { verified: v.verified, reason: v.reason, signature: v.signature, payload: v.payload },
    );
  }

  async function signedCommit(email: string, key: openpgp.PrivateKey, message = 'Signed work', date?: Date): Promise<{ text: string; signature: string; raw: string }> {
    const text = commitText(repo.tree, repo.head, email, message);
    const signature = await detachedSign(text, key, date);
    return { text, signature, raw: withGpgsig(text, signature) };
  }

  async function registerKey(user: CreatedUser, armored: string): Promise<Json> {
    const res = await t.request('/user/gpg_keys', { method: 'POST', token: user.token, json: { armored_public_key: armored } });
    assert.equal(res.status, 201, await res.clone().text());
    return res.json() as Promise<Json>;
  }

  async function verifyAddress(login: string, email: string): Promise<void> {
    const res = await t.request(`/admin/users/${login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email, verified: true } });
    assert.equal(res.status, 200);
  }

  test('unsigned: no gpgsig header (the auto_init commit, and a commit written here)', async () => {
    const stored = await gitOk(['--git-dir', repo.dir, 'cat-file', 'commit', repo.head]);
    assert.deepEqual(await verifyCommit(t.server.ctx, Buffer.from(stored)), { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null });
    const { v } = await storeAndVerify(commitText(repo.tree, repo.head, aliceEmail, 'Plain'));
    assert.equal(v.reason, 'unsigned');
  });

  test('valid: signed by a registered key over the exact commit text, committer address verified and on the key', async () => {
    const { text, signature, raw } = await signedCommit(aliceEmail, aliceKey.privateKey);
    const { v } = await storeAndVerify(raw);
    assert.equal(v.reason, 'valid');
    assert.equal(v.verified, true);
    assert.equal(v.payload, text);
    assert.equal(v.signature, signature);
    assert.match(v.verified_at ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('valid through a signing subkey: the issuer key id names the subkey, found by one lookup', async () => {
    const carol = await createUser(t, ['user', 'write:gpg_key']);
    const email = `${carol.login}@example.com`;
    const key = await eccKey([email], { subkeys: [{}, { sign: true }] });
    const record = await registerKey(carol, key.publicArmored);
    assert.equal(record.subkeys.length, 2);
    assert.deepEqual(record.subkeys.map((s: Json) => s.can_sign), [false, true]);
    const { signature, raw } = await signedCommit(email, key.privateKey);
    const sig = await openpgp.readSignature({ armoredSignature: signature });
    assert.equal(sig.getSigningKeyIDs()[0]!.toHex().toUpperCase(), record.subkeys[1].key_id);
    assert.equal((await storeAndVerify(raw)).v.reason, 'valid');
  });

  test('invalid: the commit was altered after signing', async () => {
    const { text, signature } = await signedCommit(aliceEmail, aliceKey.privateKey, 'Original message');
    const altered = withGpgsig(text.replace('Original message', 'Altered message'), signature);
    const { v } = await storeAndVerify(altered);
    assert.equal(v.reason, 'invalid');
    assert.equal(v.verified, false);
    assert.equal(v.verified_at, null);
    assert.match(v.payload ?? '', /Altered message/);
  });

  test('invalid: a signature over other text moved onto this commit', async () => {
    const { signature } = await signedCommit(aliceEmail, aliceKey.privateKey, 'Elsewhere');
    const raw = withGpgsig(commitText(repo.tree, repo.head, aliceEmail, 'Here'), signature);
    assert.equal((await storeAndVerify(raw)).v.reason, 'invalid');
  });

  test('unknown_key: the signing key is registered to nobody, whatever the committer address', async () => {
    const stranger = await eccKey([aliceEmail]);
    assert.equal((await storeAndVerify((await signedCommit(aliceEmail, stranger.privateKey)).raw)).v.reason, 'unknown_key');
    const nobody = await eccKey(['nobody@nowhere.example']);
    assert.equal((await storeAndVerify((await signedCommit('nobody@nowhere.example', nobody.privateKey)).raw)).v.reason, 'unknown_key');
  });

  test('malformed_signature: PGP armor that does not parse', async () => {
    const garbage = '-----BEGIN PGP SIGNATURE-----\n\nbm90IGEgc2lnbmF0dXJlIGF0IGFsbA==\n=AAAA\n-----END PGP SIGNATURE-----\n';
    const { v } = await storeAndVerify(withGpgsig(commitText(repo.tree, repo.head, aliceEmail, 'Broken'), garbage));
    assert.equal(v.reason, 'malformed_signature');
    assert.equal(v.signature, garbage);
  });

  test('unknown_signature_type: SSH and X.509 signatures', async () => {
    const blocks = [
      '-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg\n-----END SSH SIGNATURE-----\n',
      '-----BEGIN SIGNED MESSAGE-----\nMIAGCSqGSIb3DQEHAqCAMIACAQExDTALBglghkgBZQMEAgEwgAYJKoZIhvcNAQcB\n-----END SIGNED MESSAGE-----\n',
      '-----BEGIN PKCS7-----\nMIAGCSqGSIb3DQEHAqCAMIACAQEx\n-----END PKCS7-----\n',
    ];
    for (const block of blocks) {
      const { v } = await storeAndVerify(withGpgsig(commitText(repo.tree, repo.head, aliceEmail, 'Other format'), block));
      assert.equal(v.reason, 'unknown_signature_type', block);
      assert.equal(v.verified, false);
    }
  });

  test('expired_key: the key had expired by now (signed while it was valid)', async () => {
    const dave = await createUser(t, ['user', 'write:gpg_key']);
    const email = `${dave.login}@example.com`;
    const created = new Date(Date.now() - 10 * 86400_000);
    const key = await eccKey([email], { date: created, keyExpirationTime: 86400 });
    const record = await registerKey(dave, key.publicArmored);
    assert.ok(record.expires_at && Date.parse(record.expires_at) < Date.now(), JSON.stringify(record));
    const { raw } = await signedCommit(email, key.privateKey, 'Signed in time', new Date(created.getTime() + 3600_000));
    assert.equal((await storeAndVerify(raw)).v.reason, 'expired_key');
  });

  test('not_signing_key: a signature made with an encryption-only subkey', async () => {
    const erin = await createUser(t, ['user', 'write:gpg_key']);
    const email = `${erin.login}@example.com`;
    const { privateKey, publicKey } = await openpgp.generateKey({
      type: 'rsa', rsaBits: 2048, userIDs: [{ name: 'Erin', email }], format: 'object',
    });
    const record = await registerKey(erin, publicKey.armor());
    assert.equal(record.subkeys[0].can_sign, false);
    assert.equal(record.subkeys[0].can_encrypt_comms, true);
    // openpgp.sign refuses such a key; the signature packet is made by hand.
    const text = commitText(repo.tree, repo.head, email, 'Signed with the wrong key');
    const subkey = privateKey.subkeys[0]!.keyPacket as openpgp.SecretSubkeyPacket;
    const packet = new openpgp.SignaturePacket();
    packet.signatureType = openpgp.enums.signature.binary;
    packet.publicKeyAlgorithm = subkey.algorithm;
    packet.hashAlgorithm = openpgp.enums.hash.sha256;
    const literal = (await openpgp.createMessage({ binary: Buffer.from(text, 'utf8') })).packets[0];
    await (packet.sign as (...args: unknown[]) => Promise<void>)(subkey, literal, new Date(), true, openpgp.config);
    const list = new openpgp.PacketList<openpgp.SignaturePacket>();
    list.push(packet);
    const signature = new openpgp.Signature(list).armor();
    assert.equal((await storeAndVerify(withGpgsig(text, signature))).v.reason, 'not_signing_key');
  });

  test('no_user: the committer address belongs to no account', async () => {
    const { raw } = await signedCommit('ghost@nowhere.example', aliceKey.privateKey);
    assert.equal((await storeAndVerify(raw)).v.reason, 'no_user');
  });

  test('unverified_email, then bad_email once verified but not on the key, then valid with a key that names it', async () => {
    const second = `second-${alice.login}@example.com`;
    const added = await t.request('/user/emails', { method: 'POST', token: alice.token, json: { emails: [second] } });
    assert.equal(added.status, 201);
    const signed = await signedCommit(second, aliceKey.privateKey);
    assert.equal((await storeAndVerify(signed.raw)).v.reason, 'unverified_email');
    await verifyAddress(alice.login, second);
    assert.equal((await verifyCommit(t.server.ctx, Buffer.from(signed.raw))).reason, 'bad_email');
    const key = await eccKey([second]);
    await registerKey(alice, key.publicArmored);
    assert.equal((await storeAndVerify((await signedCommit(second, key.privateKey)).raw)).v.reason, 'valid');
  });

  test("bad_email: another user's verified address, though the key names it", async () => {
    const bob = await createUser(t, ['user']);
    const bobEmail = `${bob.login}@example.com`;
    const key = await eccKey([bobEmail]);
    await registerKey(alice, key.publicArmored);
    assert.equal((await storeAndVerify((await signedCommit(bobEmail, key.privateKey)).raw)).v.reason, 'bad_email');
    // Alice's own key, Bob's address: not on the key either.
    assert.equal((await storeAndVerify((await signedCommit(bobEmail, aliceKey.privateKey)).raw)).v.reason, 'bad_email');
  });

  test('gpgverify_error: the registered key cannot be read any more', async () => {
    const frank = await createUser(t, ['user', 'write:gpg_key']);
    const email = `${frank.login}@example.com`;
    const key = await eccKey([email]);
    const record = await registerKey(frank, key.publicArmored);
    const { raw } = await signedCommit(email, key.privateKey);
    assert.equal((await verifyCommit(t.server.ctx, Buffer.from(raw))).reason, 'valid');
    await t.server.ctx.db.updateTable('gpg_keys').set({ raw_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\ngarbage\n-----END PGP PUBLIC KEY BLOCK-----\n' })
      .where('id', '=', record.id).execute();
    assert.equal((await verifyCommit(t.server.ctx, Buffer.from(raw))).reason, 'gpgverify_error');
  });

  test('gpgverify_unavailable: openpgp.js cannot be loaded', async () => {
    const dir = tempDir('wharf-nopgp-');
    try {
      const hook = path.join(dir, 'no-openpgp.mjs');
      fs.writeFileSync(hook, `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(
        'export async function resolve(s, c, next) { if (s === "openpgp") throw new Error("openpgp is not installed"); return next(s, c); }',
      )}));\n`);
      const script = path.join(dir, 'verify.mts');
      const service = path.resolve('src/modules/verification/verification.service.ts');
      fs.writeFileSync(script, `import { verifyCommit } from ${JSON.stringify(service)};
const raw = Buffer.from(process.env.RAW_COMMIT!, 'base64');
const ctx = { log: { error() {} }, clock: { now: () => new Date() } } as never;
process.stdout.write(JSON.stringify(await verifyCommit(ctx, raw)));
`);
      const { raw } = await signedCommit(aliceEmail, aliceKey.privateKey);
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', '--import', hook, script], {
        env: { ...process.env, RAW_COMMIT: Buffer.from(raw).toString('base64') },
      });
      const v = JSON.parse(stdout) as Verification;
      assert.equal(v.reason, 'gpgverify_unavailable');
      assert.equal(v.verified, false);
      assert.ok(v.signature);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('annotated tags: the signature after the message, the tagger address checked', async () => {
    const when = `${Math.floor(Date.now() / 1000)} +0000`;
    const text = `object ${repo.head}\ntype commit\ntag v1.0\ntagger Test Signer <${aliceEmail}> ${when}\n\nRelease 1.0\n`;
    const signature = await detachedSign(text, aliceKey.privateKey);
    const { v } = await storeAndVerify(text + signature, 'tag');
    assert.equal(v.reason, 'valid');
    assert.equal(v.payload, text);
    assert.equal(v.signature, signature);
    assert.equal((await storeAndVerify(text.replace('Release 1.0', 'Release 6.6') + signature, 'tag')).v.reason, 'invalid');
    assert.equal((await storeAndVerify(text, 'tag')).v.reason, 'unsigned');
    const other = text.replace(aliceEmail, 'ghost@nowhere.example');
    assert.equal((await storeAndVerify(other + await detachedSign(other, aliceKey.privateKey), 'tag')).v.reason, 'no_user');
  });

  test('a deleted key no longer verifies anything: unknown_key', async () => {
    const gus = await createUser(t, ['user', 'admin:gpg_key']);
    const email = `${gus.login}@example.com`;
    const key = await eccKey([email], { subkeys: [{ sign: true }] });
    const record = await registerKey(gus, key.publicArmored);
    const { raw } = await signedCommit(email, key.privateKey);
    assert.equal((await verifyCommit(t.server.ctx, Buffer.from(raw))).reason, 'valid');
    const del = await t.request(`/user/gpg_keys/${record.id}`, { method: 'DELETE', token: gus.token });
    assert.equal(del.status, 204);
    assert.equal((await verifyCommit(t.server.ctx, Buffer.from(raw))).reason, 'unknown_key');
  });
});

describe('e-mail addresses', () => {
  test('GET /user/emails: the address the site admin gave is primary and verified', async () => {
    const u = await createUser(t, ['user']);
    const { data } = await t.octokit(u.token).rest.users.listEmailsForAuthenticatedUser();
    assert.deepEqual(data, [{ email: `${u.login}@example.com`, primary: true, verified: true, visibility: 'public' }]);
    assertMatchesOpenApi('GET', '/user/emails', 200, data);
  });

  test('reading needs user, user:email or read:user; anonymous is 401', async () => {
    for (const scopes of [['user:email'], ['read:user']]) {
      const u = await createUser(t, scopes);
      assert.equal((await t.request('/user/emails', { token: u.token })).status, 200, scopes.join());
      assert.equal((await t.request('/user/public_emails', { token: u.token })).status, 200, scopes.join());
    }
    const none = await createUser(t, ['repo']);
    const res = await t.request('/user/emails', { token: none.token });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('x-accepted-oauth-scopes') ?? '', /user:email/);
    assert.equal((await t.request('/user/emails')).status, 401);
  });

  test('POST /user/emails: {emails} or an array; new addresses are unverified, not primary, listed after the primary', async () => {
    const u = await createUser(t, ['user']);
    const octokit = t.octokit(u.token);
    const a = `a-${u.login}@example.com`;
    const b = `b-${u.login}@example.com`;
    const c = `c-${u.login}@example.com`;
    const { data, status } = await octokit.rest.users.addEmailForAuthenticatedUser({ emails: [a, b] });
    assert.equal(status, 201);
    assert.deepEqual(data, [
      { email: a, primary: false, verified: false, visibility: null },
      { email: b, primary: false, verified: false, visibility: null },
    ]);
    assertMatchesOpenApi('POST', '/user/emails', 201, data);
    const arr = await t.request('/user/emails', { method: 'POST', token: u.token, json: [c] });
    assert.equal(arr.status, 201);
    assert.deepEqual(await arr.json(), [{ email: c, primary: false, verified: false, visibility: null }]);
    const list = (await octokit.rest.users.listEmailsForAuthenticatedUser()).data;
    assert.deepEqual(list.map((e) => [e.email, e.primary]), [[`${u.login}@example.com`, true], [a, false], [b, false], [c, false]]);
    // Addresses are unique whatever their case, across accounts; all or nothing.
    const other = await createUser(t, ['user']);
    for (const emails of [[a.toUpperCase()], [`${other.login}@example.com`], ['fresh@example.com', b]]) {
      const res = await t.request('/user/emails', { method: 'POST', token: other.token, json: { emails } });
      assert.equal(res.status, 422, emails.join());
      const err = await res.json() as Json;
      assert.equal(err.errors[0].resource, 'UserEmail');
    }
    assert.equal((await t.request('/user/emails', { token: other.token })).status, 200);
    const mine = await (await t.request('/user/emails', { token: other.token })).json() as Json[];
    assert.equal(mine.length, 1);
  });

  test('POST /user/emails refuses bad input with 422 and needs the user scope', async () => {
    const u = await createUser(t, ['user']);
    for (const body of [{ emails: ['not-an-address'] }, { emails: [] }, {}, { emails: 'x@example.com' }, [], [5]]) {
      const res = await t.request('/user/emails', { method: 'POST', token: u.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal((await res.json() as Json).message, 'Validation Failed');
    }
    const reader = await createUser(t, ['user:email']);
    assert.equal((await t.request('/user/emails', { method: 'POST', token: reader.token, json: { emails: ['r@example.com'] } })).status, 403);
  });

  test('DELETE /user/emails: 204; an address that is not yours, or the primary one, is 422 and nothing is removed', async () => {
    const u = await createUser(t, ['user']);
    const a = `a-${u.login}@example.com`;
    const b = `b-${u.login}@example.com`;
    await t.octokit(u.token).rest.users.addEmailForAuthenticatedUser({ emails: [a, b] });
    for (const emails of [[a, 'someone-else@example.com'], [`${u.login}@example.com`]]) {
      const res = await t.request('/user/emails', { method: 'DELETE', token: u.token, json: { emails } });
      assert.equal(res.status, 422, emails.join());
    }
    assert.equal((await (await t.request('/user/emails', { token: u.token })).json() as Json[]).length, 3);
    const { status } = await t.octokit(u.token).rest.users.deleteEmailForAuthenticatedUser({ emails: [a.toUpperCase()] });
    assert.equal(status, 204);
    const arr = await t.request('/user/emails', { method: 'DELETE', token: u.token, json: [b] });
    assert.equal(arr.status, 204);
    const left = await (await t.request('/user/emails', { token: u.token })).json() as Json[];
    assert.deepEqual(left.map((e) => e.email), [`${u.login}@example.com`]);
    // A removed address can be added again, by anyone.
    const other = await createUser(t, ['user']);
    assert.equal((await t.request('/user/emails', { method: 'POST', token: other.token, json: { emails: [a] } })).status, 201);
  });

  test('PATCH /user/email/visibility sets the primary address visibility; GET /user/public_emails follows it', async () => {
    const u = await createUser(t, ['user']);
    const primary = `${u.login}@example.com`;
    await t.octokit(u.token).rest.users.addEmailForAuthenticatedUser({ emails: [`x-${primary}`] });
    const { data } = await t.octokit(u.token).rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'private' });
    assert.deepEqual(data, [
      { email: primary, primary: true, verified: true, visibility: 'private' },
      { email: `x-${primary}`, primary: false, verified: false, visibility: null },
    ]);
    assertMatchesOpenApi('PATCH', '/user/email/visibility', 200, data);
    const hidden = await t.octokit(u.token).rest.users.listPublicEmailsForAuthenticatedUser();
    assert.deepEqual(hidden.data, []);
    await t.octokit(u.token).rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'public' });
    const shown = await t.octokit(u.token).rest.users.listPublicEmailsForAuthenticatedUser();
    assert.deepEqual(shown.data, [{ email: primary, primary: true, verified: true, visibility: 'public' }]);
    assertMatchesOpenApi('GET', '/user/public_emails', 200, shown.data);
  });

  test('PATCH /user email: the address becomes the primary one (kept verified if it was), refused if another user has it', async () => {
    const u = await createUser(t, ['user']);
    const old = `${u.login}@example.com`;
    const next = `next-${u.login}@example.com`;
    await t.octokit(u.token).rest.users.addEmailForAuthenticatedUser({ emails: [next] });
    await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email: next, verified: true } });
    const { data: profile } = await t.octokit(u.token).rest.users.updateAuthenticated({ email: next });
    assert.equal(profile.email, next);
    let list = (await t.octokit(u.token).rest.users.listEmailsForAuthenticatedUser()).data;
    assert.deepEqual(list, [
      { email: next, primary: true, verified: true, visibility: 'public' },
      { email: old, primary: false, verified: true, visibility: null },
    ]);
    const brandNew = `new-${u.login}@example.com`;
    await t.octokit(u.token).rest.users.updateAuthenticated({ email: brandNew });
    list = (await t.octokit(u.token).rest.users.listEmailsForAuthenticatedUser()).data;
    assert.deepEqual(list[0], { email: brandNew, primary: true, verified: false, visibility: 'public' });
    const other = await createUser(t, ['user']);
    const res = await t.request('/user', { method: 'PATCH', token: u.token, json: { email: `${other.login}@example.com` } });
    assert.equal(res.status, 422);
    assert.equal((await t.octokit().rest.users.getByUsername({ username: u.login })).data.email, brandNew);
  });

  test('a user without any address gets the first one added as primary (unverified)', async () => {
    const admin = t.octokit(ADMIN_TOKEN);
    const login = `noaddr-${process.pid}`;
    await admin.request('POST /admin/users', { login });
    const { data: auth } = await admin.request('POST /admin/users/{username}/authorizations', { username: login, scopes: ['user'] });
    assert.deepEqual(await (await t.request('/user/emails', { token: auth.token })).json(), []);
    const res = await t.request('/user/emails', { method: 'POST', token: auth.token, json: { emails: [`${login}@example.com`, `two-${login}@example.com`] } });
    assert.equal(res.status, 201);
    assert.deepEqual((await res.json() as Json[]).map((e) => [e.primary, e.verified]), [[true, false], [false, false]]);
    assert.equal((await t.octokit().rest.users.getByUsername({ username: login })).data.email, `${login}@example.com`);
  });

  test('PATCH /admin/users/{username}/emails (Wharf extension): site admins verify an address', async () => {
    const u = await createUser(t, ['user']);
    const extra = `extra-${u.login}@example.com`;
    await t.octokit(u.token).rest.users.addEmailForAuthenticatedUser({ emails: [extra] });
    const self = await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: u.token, json: { email: extra, verified: true } });
    assert.equal(self.status, 403);
    const missing = await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email: 'not-theirs@example.com', verified: true } });
    assert.equal(missing.status, 404);
    const bad = await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email: extra, verified: 'yes' } });
    assert.equal(bad.status, 422);
    const ok = await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email: extra.toUpperCase(), verified: true } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { email: extra, primary: false, verified: true, visibility: null });
  });
});

describe('GPG keys', () => {
  test('POST /user/gpg_keys: 201, the gpg-key record with its subkeys', async () => {
    const u = await createUser(t, ['user', 'write:gpg_key']);
    const email = `${u.login}@example.com`;
    const key = await eccKey([email, 'unverified@elsewhere.example']);
    const { data, status } = await t.octokit(u.token).rest.users.createGpgKeyForAuthenticatedUser({ armored_public_key: key.publicArmored, name: 'work key' });
    assert.equal(status, 201);
    assertMatchesOpenApi('POST', '/user/gpg_keys', 201, data);
    assert.equal(data.name, 'work key');
    assert.equal(data.key_id, key.privateKey.getKeyID().toHex().toUpperCase());
    assert.match(data.key_id, /^[0-9A-F]{16}$/);
    assert.equal(data.primary_key_id, null);
    assert.equal(data.raw_key, key.publicArmored);
    assert.deepEqual(data.emails, [{ email, verified: true }, { email: 'unverified@elsewhere.example', verified: false }]);
    assert.deepEqual([data.can_sign, data.can_certify, data.can_encrypt_comms, data.can_encrypt_storage], [true, true, false, false]);
    assert.equal(data.revoked, false);
    assert.equal(data.expires_at, null);
    assert.match(data.created_at ?? '', /Z$/);
    // public_key: the key packet, header included, base64 (a new-format public-key packet: 0xC6).
    assert.equal(Buffer.from(data.public_key!, 'base64')[0], 0xc6);
    assert.equal(data.subkeys!.length, 1);
    const sub = data.subkeys![0]!;
    assert.equal(sub.primary_key_id, data.id);
    assert.equal(sub.key_id, key.privateKey.subkeys[0]!.getKeyID().toHex().toUpperCase());
    assert.equal(Buffer.from(sub.public_key!, 'base64')[0], 0xce);
    assert.deepEqual([sub.can_sign, sub.can_encrypt_comms, sub.can_encrypt_storage, sub.raw_key, sub.emails], [false, true, true, null, []]);
  });

  test('POST /user/gpg_keys refuses unparsable keys, private keys, duplicates and a missing key with 422', async () => {
    const u = await createUser(t, ['user', 'write:gpg_key']);
    const other = await createUser(t, ['user', 'write:gpg_key']);
    const key = await eccKey([`${u.login}@example.com`]);
    await t.octokit(u.token).rest.users.createGpgKeyForAuthenticatedUser({ armored_public_key: key.publicArmored });
    const cases: [CreatedUser, unknown][] = [
      [u, { armored_public_key: 'not a key' }],
      [u, { armored_public_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nZ2FyYmFnZQ==\n-----END PGP PUBLIC KEY BLOCK-----\n' }],
      [u, { armored_public_key: key.privateKey.armor() }],
      [u, { armored_public_key: key.publicArmored }],
      [other, { armored_public_key: key.publicArmored }],
      [u, { name: 'no key' }],
    ];
    for (const [who, body] of cases) {
      const res = await t.request('/user/gpg_keys', { method: 'POST', token: who.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      const err = await res.json() as Json;
      assert.equal(err.message, 'Validation Failed');
      assert.ok(err.errors.length >= 1);
    }
    const dup = await t.request('/user/gpg_keys', { method: 'POST', token: other.token, json: { armored_public_key: key.publicArmored } });
    assert.deepEqual((await dup.json() as Json).errors, [{ resource: 'GpgKey', field: 'key_id', code: 'custom', message: 'key_id already exists' }]);
    assert.equal((await t.octokit(other.token).rest.users.listGpgKeysForAuthenticatedUser()).data.length, 0);
  });

  test('GET /user/gpg_keys, /user/gpg_keys/{id}, /users/{username}/gpg_keys', async () => {
    const u = await createUser(t, ['user', 'write:gpg_key']);
    const first = await eccKey([`${u.login}@example.com`]);
    const second = await eccKey([`${u.login}@example.com`]);
    const octokit = t.octokit(u.token);
    const a = (await octokit.rest.users.createGpgKeyForAuthenticatedUser({ armored_public_key: first.publicArmored })).data;
    const b = (await octokit.rest.users.createGpgKeyForAuthenticatedUser({ armored_public_key: second.publicArmored })).data;
    const { data: list } = await octokit.rest.users.listGpgKeysForAuthenticatedUser();
    assert.deepEqual(list.map((k) => k.id), [a.id, b.id]);
    assertMatchesOpenApi('GET', '/user/gpg_keys', 200, list);
    const { data: one } = await octokit.rest.users.getGpgKeyForAuthenticatedUser({ gpg_key_id: b.id });
    assert.deepEqual(one, b);
    assertMatchesOpenApi('GET', '/user/gpg_keys/{gpg_key_id}', 200, one);
    const paged = await t.request('/user/gpg_keys?per_page=1', { token: u.token });
    assert.equal((await paged.json() as Json[]).length, 1);
    assert.match(paged.headers.get('link') ?? '', /rel="next"/);
    const { data: pub } = await t.octokit().rest.users.listGpgKeysForUser({ username: u.login });
    assert.deepEqual(pub.map((k) => k.key_id), [a.key_id, b.key_id]);
    assertMatchesOpenApi('GET', '/users/{username}/gpg_keys', 200, pub);
    // A subkey's id, another user's key, an unknown user: 404.
    assert.equal((await t.request(`/user/gpg_keys/${a.subkeys![0]!.id}`, { token: u.token })).status, 404);
    const other = await createUser(t, ['user', 'read:gpg_key']);
    assert.equal((await t.request(`/user/gpg_keys/${a.id}`, { token: other.token })).status, 404);
    assert.deepEqual(await (await t.request('/user/gpg_keys', { token: other.token })).json(), []);
    assert.equal((await t.request('/users/nobody-at-all/gpg_keys')).status, 404);
  });

  test('scopes: read:gpg_key reads, write:gpg_key adds, admin:gpg_key deletes', async () => {
    const reader = await createUser(t, ['read:gpg_key']);
    const writer = await createUser(t, ['write:gpg_key']);
    const admin = await createUser(t, ['admin:gpg_key']);
    const none = await createUser(t, ['repo']);
    assert.equal((await t.request('/user/gpg_keys', { token: reader.token })).status, 200);
    assert.equal((await t.request('/user/gpg_keys', { token: none.token })).status, 403);
    assert.equal((await t.request('/user/gpg_keys')).status, 401);
    const key = await eccKey([`${reader.login}@example.com`]);
    const refused = await t.request('/user/gpg_keys', { method: 'POST', token: reader.token, json: { armored_public_key: key.publicArmored } });
    assert.equal(refused.status, 403);
    const created = await t.request('/user/gpg_keys', { method: 'POST', token: writer.token, json: { armored_public_key: key.publicArmored } });
    assert.equal(created.status, 201);
    const { id } = await created.json() as Json;
    assert.equal((await t.request(`/user/gpg_keys/${id}`, { token: writer.token })).status, 200);
    assert.equal((await t.request(`/user/gpg_keys/${id}`, { method: 'DELETE', token: writer.token })).status, 403);
    const key2 = await eccKey([`${admin.login}@example.com`]);
    const mine = await (await t.request('/user/gpg_keys', { method: 'POST', token: admin.token, json: { armored_public_key: key2.publicArmored } })).json() as Json;
    assert.equal((await t.request(`/user/gpg_keys/${id}`, { method: 'DELETE', token: admin.token })).status, 404);
    assert.equal((await t.request(`/user/gpg_keys/${mine.id}`, { method: 'DELETE', token: admin.token })).status, 204);
    assert.equal((await t.request(`/user/gpg_keys/${mine.id}`, { token: admin.token })).status, 404);
    assert.equal((await t.request(`/user/gpg_keys/${mine.id}`, { method: 'DELETE', token: admin.token })).status, 404);
    // The deleted key's packets are free to register again.
    assert.equal((await t.request('/user/gpg_keys', { method: 'POST', token: admin.token, json: { armored_public_key: key2.publicArmored } })).status, 201);
  });

  test('an address verified later shows as verified on the key', async () => {
    const u = await createUser(t, ['user', 'write:gpg_key']);
    const extra = `later-${u.login}@example.com`;
    await t.octokit(u.token).rest.users.addEmailForAuthenticatedUser({ emails: [extra] });
    const key = await eccKey([extra]);
    const { data } = await t.octokit(u.token).rest.users.createGpgKeyForAuthenticatedUser({ armored_public_key: key.publicArmored });
    assert.deepEqual(data.emails, [{ email: extra, verified: false }]);
    await t.request(`/admin/users/${u.login}/emails`, { method: 'PATCH', token: ADMIN_TOKEN, json: { email: extra, verified: true } });
    const { data: again } = await t.octokit(u.token).rest.users.getGpgKeyForAuthenticatedUser({ gpg_key_id: data.id });
    assert.deepEqual(again.emails, [{ email: extra, verified: true }]);
  });
});
