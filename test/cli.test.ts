// The admin command line on the data dir / database of a server, checked through the
// server's HTTP API. Most commands run in-process through runCli (cli/run.ts): a child
// process costs a node start and a bundle load each, ~2 s of CPU. A few run as the
// operator runs them, a child process of cli/main.ts, one for each way the real program
// answers: exit codes 0, 1 and 2, results alone on stdout, errors and usage on stderr.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Octokit, type RestEndpointMethodTypes } from '@octokit/rest';
import { loadConfig } from '../src/config.ts';
import { createServer, type Server } from '../src/server.ts';
import type { Output } from '../cli/output.ts';
import { runCli } from '../cli/run.ts';
import { ADMIN_TOKEN, testDialect, USER_AGENT } from './helpers/server.ts';
import { programArgs } from './helpers/programs.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OAUTH_APP_LIMIT = 4321;

let env: Record<string, string>;
let dataDir: string;
let pgUrl: string | undefined;
let pgSchema: string | undefined;
let server: Server;
let baseUrl: string;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command run by the real program, a child process. */
function cliProcess(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...programArgs('cli/main.ts'), ...args], { cwd: ROOT, env }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** The command run in this process, its stdout and stderr captured as the program writes them. */
async function cli(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out: Output = {
    line: (text) => { stdout += `${text}\n`; },
    json: (value) => { stdout += `${JSON.stringify(value, null, 2)}\n`; },
    note: (text) => { stderr += `${text}\n`; },
  };
  const code = await runCli(args, out, env);
  return { code, stdout, stderr };
}

async function cliOk(...args: string[]): Promise<string> {
  const r = await cli(...args);
  assert.equal(r.code, 0, `cli ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function octokit(token?: string): Octokit {
  // Expected 4xx answers are asserted; Octokit need not log them.
  const quiet = () => {};
  return new Octokit({
    baseUrl, userAgent: USER_AGENT, log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    ...(token ? { auth: token } : {}),
  });
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (err) {
    return (err as { status: number }).status;
  }
}

async function pgQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-cli-test-'));
  if (testDialect() === 'postgres') {
    pgUrl = process.env.WHARF_TEST_DATABASE_URL;
    if (!pgUrl) throw new Error('WHARF_TEST_DATABASE_URL is required for postgres tests');
    pgSchema = `wharf_test_${randomBytes(6).toString('hex')}`;
    await pgQuery(`CREATE SCHEMA ${pgSchema}`);
  }
  const inherited = Object.fromEntries(Object.entries(process.env).filter(
    (e): e is [string, string] => e[1] !== undefined && !/^(DATABASE_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$)/.test(e[0]),
  ));
  env = {
    ...inherited,
    WHARF_DATA_DIR: dataDir,
    WHARF_ADMIN_TOKEN: ADMIN_TOKEN,
    WHARF_RATE_LIMIT_OAUTH_APP: String(OAUTH_APP_LIMIT),
    LOG_LEVEL: 'silent',
    WHARF_SSH_PORT: '0',
    ...(pgUrl && pgSchema ? { DATABASE_URL: pgUrl, WHARF_DATABASE_SCHEMA: pgSchema } : {}),
  };
  server = await createServer(loadConfig({ ...env, PORT: '0' }), { logger: false });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

after(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgSchema && !process.env.WHARF_TEST_KEEP_SCHEMAS) await pgQuery(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
});

test('help and no arguments print the usage on stdout', async () => {
  for (const run of [() => cliProcess(), () => cli('help')]) {
    const r = await run();
    assert.equal(r.code, 0);
    assert.match(r.stdout, /usage: npm run cli/);
    assert.match(r.stdout, /users create <login>/);
    assert.match(r.stdout, /oauth-apps create --owner <login>/);
  }
});

test('an unknown command or option exits 2 with the usage on stderr', async () => {
  const r = await cliProcess('frobnicate');
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /unknown command "frobnicate"/);
  assert.match(r.stderr, /usage: npm run cli/);

  const sub = await cli('users', 'frobnicate', 'x');
  assert.equal(sub.code, 2);
  assert.match(sub.stderr, /unknown command "users frobnicate"/);

  const option = await cli('users', 'create', 'someone', '--bogus');
  assert.equal(option.code, 2);
  assert.match(option.stderr, /--bogus/);

  const missing = await cli('users', 'rename', 'someone');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing <new-login>/);

  const noAdmin = await cli('orgs', 'create', 'some-org');
  assert.equal(noAdmin.code, 2);
  assert.match(noAdmin.stderr, /--admin is required/);
});

test('migrate applies migrations and exits 0', async () => {
  const r = await cli('migrate');
  assert.equal(r.code, 0, r.stderr);
});

test('users create prints the user; its CLI token works for GET /user', async () => {
  const created = JSON.parse(await cliOk('users', 'create', 'cli-alice', '--email', 'alice@example.com')) as
    RestEndpointMethodTypes['users']['getByUsername']['response']['data'];
  assert.equal(created.login, 'cli-alice');
  assert.equal(created.type, 'User');
  assert.equal(created.site_admin, false);

  // The real program: its stdout must hold the token alone (logs go to stderr).
  const out = await cliProcess('tokens', 'create', 'cli-alice', '--scopes', 'user,repo', '--note', 'from the cli');
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.trim().split('\n');
  assert.equal(lines.length, 1, 'stdout holds only the token');
  const token = lines[0]!;
  assert.match(token, /^whp_[A-Za-z0-9]{36}$/);

  const res = await octokit(token).rest.users.getAuthenticated();
  assert.equal(res.data.login, 'cli-alice');
  assert.equal(res.data.id, created.id);
  assert.equal(res.data.email, 'alice@example.com');
  assert.equal(res.headers['x-oauth-scopes'], 'user, repo');

  const json = JSON.parse(await cliOk('tokens', 'create', 'cli-alice', '--json')) as { token: string; scopes: string[] };
  assert.deepEqual(json.scopes, []);
  const { data: me } = await octokit(json.token).rest.users.getAuthenticated();
  assert.equal(me.login, 'cli-alice');
});

test('a duplicate login exits 1 with a clear message and changes nothing', async () => {
  await cliOk('users', 'create', 'cli-dup');
  const r = await cliProcess('users', 'create', 'CLI-dup');
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /Validation Failed/);
  assert.match(r.stderr, /login: "CLI-dup" already exists/);

  const invalid = await cli('users', 'create', 'not_valid');
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /login may only contain alphanumeric characters/);

  const scope = await cli('tokens', 'create', 'cli-dup', '--scopes', 'repo,nonsense');
  assert.equal(scope.code, 1);
  assert.match(scope.stderr, /Unknown scope: nonsense/);

  const nobody = await cli('users', 'promote', 'cli-nobody');
  assert.equal(nobody.code, 1);
  assert.match(nobody.stderr, /no account named "cli-nobody"/);

  const { data } = await octokit(ADMIN_TOKEN).rest.users.list({ per_page: 100 });
  assert.equal(data.filter((u) => u.login.toLowerCase() === 'cli-dup').length, 1);
});

test('promote, demote, suspend, unsuspend, rename, revoke and delete take effect on the server', async () => {
  await cliOk('users', 'create', 'cli-bob');
  const token = (await cliOk('tokens', 'create', 'cli-bob')).trim();
  const admin = octokit(ADMIN_TOKEN);

  const promoted = JSON.parse(await cliOk('users', 'promote', 'cli-bob')) as { site_admin: boolean };
  assert.equal(promoted.site_admin, true);
  assert.equal((await admin.rest.users.getByUsername({ username: 'cli-bob' })).data.site_admin, true);
  await cliOk('users', 'demote', 'cli-bob');
  assert.equal((await admin.rest.users.getByUsername({ username: 'cli-bob' })).data.site_admin, false);

  await cliOk('users', 'suspend', 'cli-bob');
  assert.equal(await status(octokit(token).rest.users.getAuthenticated()), 403);
  await cliOk('users', 'unsuspend', 'cli-bob');
  assert.equal(await status(octokit(token).rest.users.getAuthenticated()), 200);

  const renamed = JSON.parse(await cliOk('users', 'rename', 'cli-bob', 'cli-robert')) as { login: string };
  assert.equal(renamed.login, 'cli-robert');
  assert.equal((await octokit(token).rest.users.getAuthenticated()).data.login, 'cli-robert');
  assert.equal(await status(admin.rest.users.getByUsername({ username: 'cli-bob' })), 404);

  const listed = JSON.parse(await cliOk('users', 'list', '--json')) as { login: string }[];
  assert.ok(listed.some((u) => u.login === 'cli-robert'));
  assert.match(await cliOk('users', 'list'), /^\d+\s+cli-robert\s+User/m);

  const revoked = await cli('tokens', 'revoke', 'cli-robert');
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stderr, /revoked 1 token of cli-robert/);
  assert.equal(await status(octokit(token).rest.users.getAuthenticated()), 401);

  await cliOk('users', 'delete', 'cli-robert');
  assert.equal(await status(admin.rest.users.getByUsername({ username: 'cli-robert' })), 404);
});

test('orgs create makes an organization owned by the given user', async () => {
  await cliOk('users', 'create', 'cli-owner');
  const org = JSON.parse(await cliOk('orgs', 'create', 'cli-org', '--admin', 'cli-owner', '--name', 'CLI Org')) as { login: string };
  assert.equal(org.login, 'cli-org');
  const { data } = await octokit(ADMIN_TOKEN).rest.users.getByUsername({ username: 'cli-org' });
  assert.equal(data.type, 'Organization');
  assert.equal(data.name, 'CLI Org');

  const bad = await cli('orgs', 'create', 'cli-org-2', '--admin', 'cli-nobody');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /admin 'cli-nobody' is not a user/);

  const notUser = await cli('tokens', 'create', 'cli-org');
  assert.equal(notUser.code, 1);
  assert.match(notUser.stderr, /"cli-org" is an organization, not a user/);
});

test('oauth-apps create prints credentials that authenticate with the OAuth-app budget', async () => {
  await cliOk('users', 'create', 'cli-dev');
  const out = await cliOk('oauth-apps', 'create', '--owner', 'cli-dev', '--name', 'CLI app', '--url', 'https://example.com');
  const fields = Object.fromEntries(out.trim().split('\n').map((l) => l.split('=', 2) as [string, string]));
  assert.match(fields.client_id ?? '', /^Iv1\.[0-9a-f]{16}$/);
  assert.match(fields.client_secret ?? '', /^[0-9a-f]{40}$/);

  const basic = (user: string, password: string) => `basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const res = await octokit().request('GET /users/{username}', {
    username: 'cli-dev', headers: { authorization: basic(fields.client_id!, fields.client_secret!) },
  });
  assert.equal(res.status, 200);
  assert.equal(res.data.login, 'cli-dev');
  assert.equal(res.headers['x-ratelimit-limit'], String(OAUTH_APP_LIMIT));

  const wrong = octokit().request('GET /users/{username}', {
    username: 'cli-dev', headers: { authorization: basic(fields.client_id!, 'not-the-secret') },
  });
  assert.equal(await status(wrong), 401);

  const json = JSON.parse(await cliOk('oauth-apps', 'create', '--owner', 'cli-dev', '--name', 'Second', '--json')) as
    { client_id: string; client_secret: string; owner: string };
  assert.equal(json.owner, 'cli-dev');
  const second = await octokit().request('GET /users/{username}', {
    username: 'cli-dev', headers: { authorization: basic(json.client_id, json.client_secret) },
  });
  assert.equal(second.headers['x-ratelimit-limit'], String(OAUTH_APP_LIMIT));
});
