import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userActor } from '../src/domain/actor.ts';
import { epochSeconds, systemClock } from '../src/domain/clock.ts';
import { budgetFor, RATE_LIMIT_RESOURCES } from '../src/http/rate-limit.ts';
import { BUBBLE_WIDTH, displayWidth } from '../src/modules/meta/mascot.ts';
import { PRINCIPLES } from '../src/modules/meta/zen.ts';
import { createUser } from './factories/accounts.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';

const TEXT = 'text/plain; charset=utf-8';

let t: TestServer;
/** Second server: a public base URL of its own and a tiny authenticated budget. */
let tight: TestServer;

before(async () => {
  [t, tight] = await Promise.all([
    startTestServer({
      env: {
        WHARF_META_HOOKS: '192.0.2.0/24, 198.51.100.7/32',
        WHARF_META_GIT: '2001:db8::/32',
        WHARF_META_ACTIONS: '203.0.113.0/24',
        // Anonymous calls in this file share one address; keep them clear of the limit.
        WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000',
      },
    }),
    startTestServer({ env: { WHARF_BASE_URL: 'https://wharf.example.test', WHARF_RATE_LIMIT_AUTHENTICATED: '2' } }),
  ]);
});

after(async () => {
  await Promise.all([t?.close(), tight?.close()]);
});

function rootFor(base: string): Record<string, string> {
  return {
    current_user_url: `${base}/user`,
    current_user_authorizations_html_url: `${base}/settings/connections/applications{/client_id}`,
    authorizations_url: `${base}/authorizations`,
    code_search_url: `${base}/search/code?q={query}{&page,per_page,sort,order}`,
    commit_search_url: `${base}/search/commits?q={query}{&page,per_page,sort,order}`,
    emails_url: `${base}/user/emails`,
    emojis_url: `${base}/emojis`,
    events_url: `${base}/events`,
    feeds_url: `${base}/feeds`,
    followers_url: `${base}/user/followers`,
    following_url: `${base}/user/following{/target}`,
    gists_url: `${base}/gists{/gist_id}`,
    hub_url: `${base}/hub`,
    issue_search_url: `${base}/search/issues?q={query}{&page,per_page,sort,order}`,
    issues_url: `${base}/issues`,
    keys_url: `${base}/user/keys`,
    label_search_url: `${base}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
    notifications_url: `${base}/notifications`,
    organization_url: `${base}/orgs/{org}`,
    organization_repositories_url: `${base}/orgs/{org}/repos{?type,page,per_page,sort}`,
    organization_teams_url: `${base}/orgs/{org}/teams`,
    public_gists_url: `${base}/gists/public`,
    rate_limit_url: `${base}/rate_limit`,
    repository_url: `${base}/repos/{owner}/{repo}`,
    repository_search_url: `${base}/search/repositories?q={query}{&page,per_page,sort,order}`,
    current_user_repositories_url: `${base}/user/repos{?type,page,per_page,sort}`,
    starred_url: `${base}/user/starred{/owner}{/repo}`,
    starred_gists_url: `${base}/gists/starred`,
    topic_search_url: `${base}/search/topics?q={query}{&page,per_page}`,
    user_url: `${base}/users/{user}`,
    user_organizations_url: `${base}/user/orgs`,
    user_repositories_url: `${base}/users/{user}/repos{?type,page,per_page,sort}`,
    user_search_url: `${base}/search/users?q={query}{&page,per_page,sort,order}`,
  };
}

describe('GET /', () => {
  test('lists upstream\'s keys, in its order, as absolute templates', async () => {
    const { data, status } = await t.octokit().rest.meta.root();
    assert.equal(status, 200);
    const expected = rootFor(t.baseUrl);
    assert.deepEqual(Object.keys(data), Object.keys(expected));
    assert.deepEqual(data, expected);
  });

  test('uses the configured public address, also under /api/v3', async () => {
    const res = await tight.request('/api/v3/');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), rootFor('https://wharf.example.test'));
  });
});

describe('GET /meta', () => {
  async function fingerprintByKeygen(line: string): Promise<{ type: string; fingerprint: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-key-'));
    try {
      const file = path.join(dir, 'key.pub');
      fs.writeFileSync(file, `${line}\n`);
      const out = execFileSync('/usr/bin/ssh-keygen', ['-lf', file], { encoding: 'utf8' }).trim();
      const m = /^\d+ SHA256:(\S+) .*\((\w+)\)$/.exec(out);
      assert.ok(m, `unexpected ssh-keygen output: ${out}`);
      return { fingerprint: m[1]!, type: m[2]! };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('publishes the host keys with the fingerprints ssh-keygen computes', async () => {
    const { data } = await t.octokit().rest.meta.get();
    assert.equal(data.verifiable_password_authentication, false);
    const keys = data.ssh_keys ?? [];
    assert.equal(keys.length, 4);
    const fromKeygen: Record<string, string> = {};
    for (const line of keys) {
      assert.match(line, /^(ssh-rsa|ssh-dss|ecdsa-sha2-nistp256|ssh-ed25519) [A-Za-z0-9+/]+=*$/);
      const { type, fingerprint } = await fingerprintByKeygen(line);
      fromKeygen[`SHA256_${type}`] = fingerprint;
    }
    assert.deepEqual(data.ssh_key_fingerprints, fromKeygen);
    assert.deepEqual(Object.keys(fromKeygen).sort(), ['SHA256_DSA', 'SHA256_ECDSA', 'SHA256_ED25519', 'SHA256_RSA']);
  });

  test('publishes the address ranges from WHARF_META_*', async () => {
    const { data } = await t.octokit().rest.meta.get();
    assert.deepEqual(data.hooks, ['192.0.2.0/24', '198.51.100.7/32']);
    assert.deepEqual(data.git, ['2001:db8::/32']);
    assert.deepEqual(data.actions, ['203.0.113.0/24']);
    for (const name of ['web', 'api', 'packages', 'pages', 'importer', 'dependabot'] as const) {
      assert.deepEqual(data[name], [], name);
    }
  });

  test('names the one domain Wharf serves on, and no commit signing key (it signs no commits)', async () => {
    // commit_signing_keys is newer than the installed Octokit types.
    const { data } = await t.octokit().rest.meta.get() as { data: { commit_signing_keys?: string[]; domains?: unknown } };
    const own = [new URL(t.baseUrl).hostname];
    assert.deepEqual(data.commit_signing_keys, []);
    assert.deepEqual(data.domains, {
      website: own, codespaces: [], copilot: [], packages: [], storage: own, actions: own,
      actions_inbound: { full_domains: own, wildcard_domains: [] },
      artifact_attestations: { trust_domain: '', services: [] },
    });
  });

  test('keys are the server\'s own, read once and kept across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-meta-restart-'));
    try {
      const first = await startTestServer({ env: { WHARF_DATA_DIR: dataDir } });
      let before: unknown;
      try {
        const res = await first.request('/meta');
        before = await res.json();
        // With the key files gone the running server still answers: they were read once.
        fs.renameSync(path.join(dataDir, 'keys'), path.join(dataDir, 'keys.away'));
        const again = await first.request('/meta');
        assert.equal(again.status, 200);
        assert.deepEqual(await again.json(), before);
        fs.renameSync(path.join(dataDir, 'keys.away'), path.join(dataDir, 'keys'));
      } finally {
        await first.close();
      }
      const second = await startTestServer({ env: { WHARF_DATA_DIR: dataDir } });
      try {
        assert.deepEqual(await (await second.request('/meta')).json(), before);
      } finally {
        await second.close();
      }
      const { data: other } = await t.octokit().rest.meta.get();
      const mine = before as { ssh_key_fingerprints: Record<string, string> };
      for (const [name, fp] of Object.entries(mine.ssh_key_fingerprints)) {
        assert.notEqual((other.ssh_key_fingerprints as Record<string, string>)[name], fp, `${name} differs between data dirs`);
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('answers 304 to a current ETag without spending the budget', async () => {
    const u = await createUser(t, []);
    const first = await t.request('/meta', { token: u.token });
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const cached = await t.request('/meta', { token: u.token, headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(await cached.text(), '');
    assert.equal(Number(cached.headers.get('x-ratelimit-remaining')), remaining);
    const stale = await t.request('/meta', { token: u.token, headers: { 'if-none-match': 'W/"0000"' } });
    assert.equal(stale.status, 200);
    assert.equal(Number(stale.headers.get('x-ratelimit-remaining')), remaining - 1);
  });
});

describe('GET /zen', () => {
  test('answers plain text: one of Wharf\'s principles, at random', async () => {
    const octokit = t.octokit(ADMIN_TOKEN);
    const res = await octokit.rest.meta.getZen();
    assert.equal(res.headers['content-type'], TEXT);
    assert.ok(PRINCIPLES.includes(res.data), res.data);
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { data } = await octokit.rest.meta.getZen();
      assert.ok(PRINCIPLES.includes(data), data);
      seen.add(data);
    }
    assert.ok(seen.size > 1, 'the same principle thirty times');
  });

  test('principles are distinct and each fits one line of the mascot\'s bubble', () => {
    assert.ok(PRINCIPLES.length >= 12);
    assert.equal(new Set(PRINCIPLES).size, PRINCIPLES.length);
    for (const p of PRINCIPLES) assert.ok(displayWidth(p) <= BUBBLE_WIDTH, p);
  });
});

describe('GET /mascot', () => {
  /** The bubble's text lines, checking the bubble is a closed rectangle of the right width. */
  function bubble(art: string): string[] {
    const lines = art.split('\n');
    const top = lines.findIndex((l) => l.startsWith(' .-'));
    const bottom = lines.findIndex((l) => l.startsWith(" '-"));
    assert.ok(top === 0 && bottom > top, art);
    const width = displayWidth(lines[top]!);
    assert.equal(displayWidth(lines[bottom]!), width);
    return lines.slice(top + 1, bottom).map((l) => {
      assert.equal(displayWidth(l), width, `ragged bubble line: ${l}`);
      assert.ok(l.startsWith(' | ') && l.endsWith(' |'), l);
      return l.slice(3, -2).trimEnd();
    });
  }

  async function mascot(s?: string): Promise<string> {
    const res = await t.request(s === undefined ? '/mascot' : `/mascot?s=${encodeURIComponent(s)}`, { token: ADMIN_TOKEN });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), TEXT);
    return res.text();
  }

  test('the mascot says the text of s, through Octokit too', async () => {
    const res = await t.octokit(ADMIN_TOKEN).rest.meta.getOctocat({ s: 'Hello from the pier' });
    assert.equal(res.headers['content-type'], TEXT);
    const art = res.data as unknown as string;
    assert.deepEqual(bubble(art), ['Hello from the pier']);
    assert.ok(art.includes('=-(_)-='), 'the seal is drawn');
    assert.equal(await mascot('Hello from the pier'), art);
  });

  test('without s (or with a blank one) it says one of the principles', async () => {
    for (const s of [undefined, '', '   ']) {
      const said = bubble(await mascot(s)).join(' ');
      assert.ok(PRINCIPLES.includes(said), said);
    }
  });

  test('long text wraps at word boundaries within the bubble width', async () => {
    const s = 'Wharf keeps real git objects on disk and serves them through an interface existing clients already speak, so nothing has to change on their side.';
    const lines = bubble(await mascot(s));
    assert.ok(lines.length > 2);
    for (const l of lines) assert.ok(displayWidth(l) <= BUBBLE_WIDTH, l);
    assert.equal(lines.join(' '), s);
  });

  test('a word longer than a line is split, nothing lost', async () => {
    const word = 'x'.repeat(BUBBLE_WIDTH * 2 + 7);
    const lines = bubble(await mascot(`see ${word}`));
    assert.deepEqual(lines, ['see', 'x'.repeat(BUBBLE_WIDTH), 'x'.repeat(BUBBLE_WIDTH), 'xxxxxxx']);
  });

  test('line breaks are kept, blank lines included, whatever the line ending', async () => {
    const expected = ['first line', 'second line', '', 'fourth'];
    assert.deepEqual(bubble(await mascot('first line\nsecond line\n\nfourth')), expected);
    assert.deepEqual(bubble(await mascot('first line\r\nsecond line\r\n\r\nfourth\r\n')), expected);
  });

  test('indentation and inner spacing survive; control characters do not', async () => {
    assert.deepEqual(bubble(await mascot('  a   b\n\tc')), ['  a   b', '    c']);
    assert.deepEqual(bubble(await mascot('bell\u0007 ring\u001b[0m')), ['bell ring[0m']);
  });

  test('wide characters take two columns, so the border still lines up', async () => {
    const art = await mascot('波止場 🐟');
    const lines = art.split('\n');
    assert.equal(lines[0], ` .${'-'.repeat(11)}.`);
    assert.equal(lines[1], ' | 波止場 🐟 |');
    assert.deepEqual(bubble(art), ['波止場 🐟']);
  });
});

describe('GET /rate_limit', () => {
  test('is not counted, while other calls are', async () => {
    const u = await createUser(t, ['user']);
    const remainingOf = (r: Response) => Number(r.headers.get('x-ratelimit-remaining'));
    const counted = await t.request('/user', { token: u.token });
    const r = remainingOf(counted);
    for (let i = 0; i < 3; i++) {
      const res = await t.request('/rate_limit', { token: u.token });
      assert.equal(res.status, 200);
      assert.equal(remainingOf(res), r);
      const body = await res.json() as { resources: { core: { remaining: number } } };
      assert.equal(body.resources.core.remaining, r);
    }
    assert.equal(remainingOf(await t.request('/user', { token: u.token })), r - 1);
  });

  test('reports the caller\'s core counter after N requests, and rate equals core', async () => {
    const u = await createUser(t, ['user']);
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) last = await t.request('/user', { token: u.token });
    const { data } = await t.octokit(u.token).rest.rateLimit.get();
    const limit = t.config.rateLimit.authenticated;
    assert.deepEqual(data.resources.core, {
      limit, used: 3, remaining: limit - 3, reset: Number(last!.headers.get('x-ratelimit-reset')), resource: 'core',
    });
    assert.deepEqual(data.rate, data.resources.core);
  });

  test('every resource reads a counter of its own with its own budget', async () => {
    const u = await createUser(t, ['user']);
    const actor = userActor({ id: u.id, login: u.login, siteAdmin: false }, 'token', 0, [], '127.0.0.1');
    const now = epochSeconds(systemClock);
    const expected = new Map<string, { used: number; reset: number; limit: number }>();
    for (const [i, resource] of RATE_LIMIT_RESOURCES.entries()) {
      if (resource === 'core') continue;
      const budget = budgetFor(actor, resource, t.config.rateLimit);
      let reset = 0;
      for (let k = 0; k <= i; k++) reset = (await t.server.app.rateLimits.hit(budget.bucket, now, budget.windowSeconds)).resetAt;
      expected.set(resource, { used: i + 1, reset, limit: budget.limit });
    }
    const { data } = await t.octokit(u.token).rest.rateLimit.get();
    const resources = data.resources as unknown as Record<string, { limit: number; used: number; remaining: number; reset: number; resource: string }>;
    assert.deepEqual(Object.keys(resources), [...RATE_LIMIT_RESOURCES]);
    assert.equal(resources.core!.used, 0);
    for (const [name, e] of expected) {
      assert.deepEqual(resources[name], { limit: e.limit, used: e.used, remaining: e.limit - e.used, reset: e.reset, resource: name }, name);
    }
    const cfg = t.config.rateLimit;
    assert.equal(resources.search!.limit, cfg.searchAuthenticated);
    assert.equal(resources.code_search!.limit, cfg.searchAuthenticated);
    assert.ok(resources.search!.reset <= now + 60);
    assert.equal(resources.graphql!.limit, cfg.authenticated);
    assert.equal(resources.scim!.limit, cfg.authenticated);
  });

  test('an anonymous caller sees the unauthenticated budgets', async () => {
    const res = await t.request('/rate_limit');
    assert.equal(res.status, 200);
    const body = await res.json() as { resources: Record<string, { limit: number }>; rate: { limit: number } };
    const cfg = t.config.rateLimit;
    assert.equal(body.resources.core!.limit, cfg.unauthenticated);
    assert.equal(body.resources.search!.limit, cfg.searchUnauthenticated);
    assert.equal(body.rate.limit, cfg.unauthenticated);
    assert.equal(Number(res.headers.get('x-ratelimit-limit')), cfg.unauthenticated);
  });

  test('still answers once the budget is spent', async () => {
    // The admin of `tight` may make 2 requests an hour.
    assert.equal((await tight.request('/user', { token: ADMIN_TOKEN })).status, 200);
    assert.equal((await tight.request('/user', { token: ADMIN_TOKEN })).status, 200);
    assert.equal((await tight.request('/user', { token: ADMIN_TOKEN })).status, 403);
    const res = await tight.request('/rate_limit', { token: ADMIN_TOKEN });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
    const body = await res.json() as { rate: { limit: number; used: number; remaining: number } };
    assert.deepEqual({ limit: body.rate.limit, used: body.rate.used, remaining: body.rate.remaining }, { limit: 2, used: 2, remaining: 0 });
  });
});
