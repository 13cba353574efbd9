// `gh auth login --web` against Wharf, unchanged: gh (Debian's package, which .ci/run
// installs) runs the device flow with its public OAuth app, the user approves in
// headless Chromium, and gh then uses the token on the API. gh wants a host name
// without a port and HTTPS, so Wharf serves TLS with a throw-away certificate for
// `localhost`, reached on 127.0.0.1:443 through a relay to its ephemeral port; gh
// trusts the certificate through SSL_CERT_FILE. Skipped (saying why) where gh or
// chromium is missing or port 443 cannot be bound.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { uniqueLogin } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing } from './helpers/web.ts';
import { ghUnavailable, listen443 } from './helpers/gh.ts';
import * as users from '../src/modules/users/users.service.ts';
import * as webSession from '../src/modules/web-session/web-session.service.ts';

const PASSWORD = 'correct horse battery';
const GH = '/usr/bin/gh';
const GH_CLIENT_ID = '178c6fc778ccc68e1d6a';

const why = ghUnavailable ?? (chromiumMissing ? 'chromium is not installed' : null);
if (why) console.log(`# skipping the gh auth login test: ${why}`);

/** gh run to its end; asynchronously, since the server it talks to lives in this process. */
async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(GH, args, { env, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('gh auth login against Wharf', { skip: why ?? false }, () => {
  let dir: string;
  let t: TestServer;
  let relay: net.Server;
  let browser: Browser;
  let alice: { login: string; id: number };
  let env: NodeJS.ProcessEnv;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-gh-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
    t = await startTestServer({ env: { WHARF_TLS_CERT: cert, WHARF_TLS_KEY: key, WHARF_BASE_URL: 'https://localhost' } });
    const target = (t.server.app.server.address() as net.AddressInfo).port;
    relay = net.createServer((socket) => {
      const upstream = net.connect(target, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await listen443(relay);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // The account straight through the services: the test's HTTP helpers speak plain HTTP.
    const account = await users.createAccount(t.server.ctx, { login: uniqueLogin(), type: 'User' });
    alice = { login: account.login, id: account.id };
    await webSession.setPassword(t.server.ctx, account.id, PASSWORD);
    env = {
      PATH: process.env.PATH, HOME: dir, GH_CONFIG_DIR: path.join(dir, 'gh'), SSL_CERT_FILE: cert,
      GH_NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', GH_PROMPT_DISABLED: '1',
    };
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('gh shows a one-time code, the user approves it in the browser, gh is logged in and uses the API', async () => {
    const gh = spawn(GH, ['auth', 'login', '--hostname', 'localhost', '--web', '--git-protocol', 'https'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    gh.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    gh.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    const exited = new Promise<number>((resolve) => gh.on('exit', (code) => resolve(code ?? -1)));
    try {
      const userCode = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no code from gh:\n${output}`)), 30_000);
        const check = () => {
          const m = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(output);
          if (m) { clearTimeout(timer); resolve(m[1]!); }
        };
        gh.stdout.on('data', check);
        gh.stderr.on('data', check);
        gh.on('exit', () => { clearTimeout(timer); reject(new Error(`gh exited:\n${output}`)); });
      });
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto('https://localhost/login/device');
      await page.fill('#login_field', alice.login);
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      const session = (await context.cookies()).find((c) => c.name === 'wharf_session')!;
      assert.equal(session.secure, true, 'the session cookie is Secure under TLS');
      await page.fill('#user-code', userCode);
      await page.click('#continue');
      assert.equal(await page.textContent('#app-name'), 'GitHub CLI');
      await page.click('#approve');
      await page.waitForSelector('#device-done');
      await context.close();
      assert.equal(await exited, 0, output);
    } finally {
      gh.kill();
    }
    assert.match(output, new RegExp(`Logged in as ${alice.login}`));

    const api = await run(['api', '--hostname', 'localhost', 'user'], env);
    assert.equal(api.code, 0, api.stderr);
    assert.equal((JSON.parse(api.stdout) as { login: string }).login, alice.login);
    const status = await run(['auth', 'status', '--hostname', 'localhost'], env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout + status.stderr, new RegExp(`Logged in to localhost as ${alice.login}`));
    // The token gh holds is an OAuth token of gh's app with the scopes gh asks for.
    const row = await t.server.ctx.db.selectFrom('tokens').innerJoin('oauth_apps', 'oauth_apps.id', 'tokens.oauth_app_id')
      .select(['tokens.kind', 'tokens.scopes', 'oauth_apps.client_id']).where('tokens.user_id', '=', alice.id).where('tokens.kind', '=', 'oauth')
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { kind: 'oauth', scopes: 'repo, read:org, gist', client_id: GH_CLIENT_ID });
  });
});
