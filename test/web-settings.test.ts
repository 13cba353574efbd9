// Settings pages a person needs before any client works: personal access tokens
// (created with scopes and an expiry, shown once, revoked) and SSH and GPG keys (added
// and deleted). Each step is checked on the page and through the API, git and the
// token itself; refused forms change nothing. One headless Chromium run makes a token
// by clicking through the form and uses it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as openpgp from 'openpgp';
import { chromium } from 'playwright-core';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { gitOk } from './helpers/git.ts';
import { CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

function sshKey(comment: string): { pub: string; fingerprint: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-ssh-')), 'id');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { pub, fingerprint };
}

/** The token a creation page showed, once. */
function shownToken(body: string): string | null {
  return /id="token-value">(whp_[A-Za-z0-9]+)</.exec(body)?.[1] ?? null;
}

describe('settings pages: tokens and keys', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let web: WebClient;

  before(async () => {
    clock = new TestClock(Date.now());
    t = await startTestServer({ clock });
    alice = await createUser(t, ['repo', 'user', 'admin:public_key', 'admin:gpg_key']);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    web = await signedIn(alice.login);
  });

  /** A fresh browser session (the test clock moves past a session's life in one test). */
  async function signedIn(login: string): Promise<WebClient> {
    const c = new WebClient(t);
    assert.equal((await c.signIn(login, PASSWORD)).status, 303);
    return c;
  }
  after(async () => { await t.close(); });

  const user = (token: string) => t.request('/user', { token });

  test('signed out, every settings page sends to sign-in and a post changes nothing', async () => {
    const anon = new WebClient(t);
    for (const p of ['/settings/tokens', '/settings/tokens/new', '/settings/keys']) {
      const res = await anon.get(p);
      assert.equal(res.status, 302, p);
      assert.equal(res.location, `/login?return_to=${encodeURIComponent(p)}`);
    }
    const post = await anon.post('/settings/tokens/new', { note: 'sneaky', lifetime: '7' });
    assert.equal(post.status, 302);
    assert.doesNotMatch((await web.get('/settings/tokens')).body, /sneaky/);
  });

  test('a token is made with its scopes and expiry, shown once, works for the API and git, and expires', async () => {
    const list = await web.get('/settings/tokens');
    assert.equal(list.status, 200);
    assert.match(list.body, /id="no-tokens"/, 'tokens the site admin issued are not personal tokens');
    const form = await web.get('/settings/tokens/new');
    assert.equal(form.status, 200);
    assert.match(form.body, /name="scope\.repo"/);
    assert.match(form.body, /name="scope\.read:org"/);

    const made = await web.post('/settings/tokens/new', {
      authenticity_token: csrfIn(form.body), note: 'laptop git', lifetime: '7', 'scope.repo': '1', 'scope.read:org': '1',
    });
    assert.equal(made.status, 201);
    const token = shownToken(made.body);
    assert.ok(token, 'the new token is on the page');
    assert.match(made.body, /laptop git/);

    const res = await user(token);
    assert.equal(res.status, 200);
    assert.equal((await res.json() as { login: string }).login, alice.login);
    assert.equal(res.headers.get('x-oauth-scopes'), 'read:org, repo');

    // git over HTTP takes it as a password (run asynchronously: the server shares this process).
    const { data: repo } = await t.octokit(token).rest.repos.createForAuthenticatedUser({ name: 'tokened', private: true, auto_init: true });
    const remote = repo.clone_url.replace('://', `://${alice.login}:${token}@`);
    assert.match(await gitOk(['ls-remote', remote, 'HEAD']), /^[0-9a-f]{40}\tHEAD$/m);

    const again = await web.get('/settings/tokens');
    assert.equal(shownToken(again.body), null, 'shown only once');
    assert.ok(!again.body.includes(token), 'the list never holds the value');
    assert.ok(again.body.includes(`…${token.slice(-8)}`));
    assert.match(again.body, /last used \d{4}-\d{2}-\d{2}/);
    const expires = new Date(clock.now().getTime() + 7 * DAY).toISOString().slice(0, 10);
    assert.ok(again.body.includes(`expires ${expires}`), `expires ${expires}`);

    clock.advance(8 * DAY);
    assert.equal((await user(token)).status, 401, 'refused once expired');
  });

  test('refused forms answer inline and make no token', async () => {
    web = await signedIn(alice.login);
    const before = (await web.get('/settings/tokens')).body.match(/data-token-id=/g)?.length ?? 0;
    const form = await web.get('/settings/tokens/new');
    const csrf = csrfIn(form.body);
    const blank = await web.post('/settings/tokens/new', { authenticity_token: csrf, note: '  ', lifetime: '30', 'scope.repo': '1' });
    assert.equal(blank.status, 422);
    assert.match(blank.body, /Note can(&#39;|')t be blank/);
    assert.match(blank.body, /name="scope\.repo" value="1" checked/, 'the choices are kept');
    const odd = await web.post('/settings/tokens/new', { authenticity_token: csrf, note: 'odd', lifetime: '3' });
    assert.equal(odd.status, 422);
    assert.match(odd.body, /Expiration is not one of the choices offered/);
    const long = await web.post('/settings/tokens/new', { authenticity_token: csrf, note: 'x'.repeat(256), lifetime: 'none' });
    assert.equal(long.status, 422);
    const forged = await web.post('/settings/tokens/new', { authenticity_token: '0'.repeat(64), note: 'forged', lifetime: 'none' });
    assert.equal(forged.status, 403);
    const after = (await web.get('/settings/tokens')).body;
    assert.equal(after.match(/data-token-id=/g)?.length ?? 0, before);
    assert.doesNotMatch(after, /forged|odd/);
  });

  test('revoking ends the token at once; another user\'s token is not found and keeps working', async () => {
    web = await signedIn(alice.login);
    const form = await web.get('/settings/tokens/new');
    const made = await web.post('/settings/tokens/new', { authenticity_token: csrfIn(form.body), note: 'short lived', lifetime: 'none', 'scope.user': '1' });
    const token = shownToken(made.body)!;
    assert.match(made.body, /never expires/);
    assert.equal((await user(token)).status, 200);
    const id = new RegExp(`data-token-id="(\\d+)"><div>\\s*<strong class="note">short lived`).exec(made.body)?.[1];
    assert.ok(id, 'the row of the token');

    await setPassword(t, bob.login, PASSWORD);
    const bobWeb = await signedIn(bob.login);
    const bobPage = await bobWeb.get('/settings/tokens');
    const theirs = await bobWeb.post(`/settings/tokens/${id}/delete`, { authenticity_token: csrfIn(bobPage.body) });
    assert.equal(theirs.status, 404);
    assert.equal((await user(token)).status, 200, 'still valid');

    const list = await web.get('/settings/tokens');
    const revoked = await web.post(`/settings/tokens/${id}/delete`, { authenticity_token: csrfIn(list.body) });
    assert.equal(revoked.status, 200);
    assert.match(revoked.body, /Token revoked/);
    assert.doesNotMatch(revoked.body, /short lived/);
    assert.equal((await user(token)).status, 401);
    assert.equal((await web.post(`/settings/tokens/${id}/delete`, { authenticity_token: csrfIn(list.body) })).status, 404);
  });

  test('SSH keys are added and deleted from the page, as the API and /{user}.keys show', async () => {
    web = await signedIn(alice.login);
    const page = await web.get('/settings/keys');
    assert.equal(page.status, 200);
    assert.match(page.body, /id="no-ssh-keys"/);
    const key = sshKey('alice@laptop');
    const added = await web.post('/settings/ssh/new', { authenticity_token: csrfIn(page.body), title: 'Laptop', key: key.pub });
    assert.equal(added.status, 201);
    assert.match(added.body, /SSH key Laptop added/);
    assert.ok(added.body.includes(key.fingerprint));
    const { data: listed } = await t.octokit(alice.token).rest.users.listPublicSshKeysForAuthenticatedUser();
    assert.deepEqual(listed.map((k) => k.title), ['Laptop']);
    assert.equal(listed[0]!.key, key.pub.split(' ').slice(0, 2).join(' '));
    assert.match(await (await t.request(`/${alice.login}.keys`)).text(), new RegExp(key.pub.split(' ')[1]!.replace(/[+/]/g, '\\$&')));

    const bad = await web.post('/settings/ssh/new', { authenticity_token: csrfIn(page.body), title: 'Broken', key: 'ssh-ed25519 not-base64!' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /role="alert"/);
    assert.match(bad.body, /<details open><summary id="add-ssh-key">/, 'the refused form stays open with its text');
    assert.ok(bad.body.includes('ssh-ed25519 not-base64!'));
    const twice = await web.post('/settings/ssh/new', { authenticity_token: csrfIn(page.body), title: 'Again', key: key.pub });
    assert.equal(twice.status, 422);
    assert.match(twice.body, /key is already in use/);
    assert.equal((await t.octokit(alice.token).rest.users.listPublicSshKeysForAuthenticatedUser()).data.length, 1);

    const forged = await web.post(`/settings/ssh/${listed[0]!.id}/delete`, { authenticity_token: 'f'.repeat(64) });
    assert.equal(forged.status, 403);
    const gone = await web.post(`/settings/ssh/${listed[0]!.id}/delete`, { authenticity_token: csrfIn(page.body) });
    assert.equal(gone.status, 200);
    assert.match(gone.body, /SSH key deleted/);
    assert.equal((await t.octokit(alice.token).rest.users.listPublicSshKeysForAuthenticatedUser()).data.length, 0);
  });

  test('GPG keys are added and deleted from the page, as /user/gpg_keys shows', async () => {
    web = await signedIn(alice.login);
    const { publicKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'Alice', email: `${alice.login}@example.com` }], format: 'armored' });
    const page = await web.get('/settings/keys');
    const added = await web.post('/settings/gpg/new', { authenticity_token: csrfIn(page.body), title: 'work', key: publicKey });
    assert.equal(added.status, 201);
    const { data: keys } = await t.octokit(alice.token).rest.users.listGpgKeysForAuthenticatedUser();
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.name, 'work');
    assert.ok(added.body.includes(`GPG key ${keys[0]!.key_id} added`));
    assert.ok(added.body.includes(`${alice.login}@example.com`));

    const bad = await web.post('/settings/gpg/new', { authenticity_token: csrfIn(page.body), title: 'junk', key: 'not a key' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /<details open><summary id="add-gpg-key">/);
    assert.equal((await t.octokit(alice.token).rest.users.listGpgKeysForAuthenticatedUser()).data.length, 1);

    const gone = await web.post(`/settings/gpg/${keys[0]!.id}/delete`, { authenticity_token: csrfIn(page.body) });
    assert.equal(gone.status, 200);
    assert.equal((await t.octokit(alice.token).rest.users.listGpgKeysForAuthenticatedUser()).data.length, 0);
    assert.equal((await web.post(`/settings/gpg/${keys[0]!.id}/delete`, { authenticity_token: csrfIn(page.body) })).status, 404);
  });

  test('in a real browser: generate a token by clicking through the form, then use it', { skip: chromiumMissing ? 'chromium is not installed' : false }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const p = await browser.newPage();
      await p.goto(`${t.baseUrl}/settings/tokens`);
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForURL(`${t.baseUrl}/settings/tokens`);
      await p.click('#generate-token');
      await p.fill('#note', 'from the browser');
      await p.selectOption('#lifetime', '90');
      await p.check('input[name="scope.read:user"]');
      await p.click('#create-token');
      const token = (await p.textContent('#token-value'))!;
      const res = await user(token);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-oauth-scopes'), 'read:user');
    } finally {
      await browser.close();
    }
  });
});
