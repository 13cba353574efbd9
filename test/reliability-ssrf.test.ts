// Issue #22 § 1, the SSRF suite's short profile (reliability/ssrf.ts): Wharf as a child
// process; repository webhooks, organization webhooks and source imports pointed at
// loopback (literal, short, decimal, hex, octal, unspecified, IPv6, IPv4-mapped,
// IPv4-compatible, NAT64, DNS names of this machine), private and link-local/metadata
// addresses, and through redirects from the one allowed host; all refused (redirects not
// followed), a name answering the allowed address then loopback (DNS rebinding)
// connected to the address checked and then refused, no request at the loopback
// receiver, the allowed host reached. The address
// checks do not touch the database, so the short profile runs on SQLite only;
// `npm run reliability` runs both.
//
// Two bypasses this suite found, each with its regression test here:
// - the deprecated IPv4-compatible IPv6 form ([::127.0.0.1], which the URL parser
//   writes ::7f00:1) was ordinary unicast to ipaddr.js, so deliveries and imports tried
//   to connect to it (hooks.address-guard.ts now refuses ::/96);
// - Mercurial followed a redirect from an allowed host to any other, so an import's
//   detection (git, then Mercurial, then Subversion) reached loopback through one (the
//   imports' hgrc now loads src/git/import-hg-no-redirects.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { programArgs } from './helpers/programs.ts';
import { testDialect } from './helpers/server.ts';
import { AddressGuard } from '../src/modules/hooks/hooks.address-guard.ts';
import { credentialScope } from '../src/git/import-credentials.ts';
import { probe } from '../src/git/import-sources.ts';
import { runSsrf } from '../reliability/ssrf.ts';
import { printFigures, verdict } from '../reliability/figures.ts';

const onPostgres = testDialect() === 'postgres';
const sqliteOnly = onPostgres ? 'the address checks do not depend on the database: the short profile runs on SQLite' : false;

test('the address guard refuses IPv4-compatible IPv6 addresses (::a.b.c.d, ::/96) unless allowed', () => {
  const none = new AddressGuard([]);
  for (const a of ['::7f00:1', '::127.0.0.1', '::a00:1', '::a9fe:a9fe', '::808:808']) assert.equal(none.permits('x', a), false, a);
  assert.equal(none.permits('x', '2606:4700:4700::1111'), true);
  assert.equal(new AddressGuard(['::/96']).permits('x', '::7f00:1'), true);
});

/** Listens on `host`; records each request's URL; `redirectTo` answers every request with a 302 there. */
async function listen(host: string, redirectTo: string | null): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    if (redirectTo) res.writeHead(302, { location: `${redirectTo}${req.url ?? '/'}` }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

test('an import\'s Mercurial does not follow a redirect past the address check', { skip: sqliteOnly }, async () => {
  const forbidden = await listen('127.0.0.1', null);
  const allowed = await listen('127.0.0.2', `http://127.0.0.1:${forbidden.port}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-hg-redirect-'));
  const creds = credentialScope(path.join(dir, 'creds'), { username: null, password: null });
  try {
    const url = `http://127.0.0.2:${allowed.port}/repo`;
    const answer = await probe('mercurial', { url, pin: null }, { creds, signal: AbortSignal.timeout(15_000), timeoutMs: 15_000 });
    assert.equal(answer, 'nothing');
    assert.ok(allowed.hits.length > 0, 'Mercurial did not ask the allowed host');
    assert.deepEqual(forbidden.hits, [], 'Mercurial followed the redirect');
  } finally {
    creds.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
    forbidden.server.close();
    allowed.server.close();
  }
});

test('ssrf: webhooks and imports to loopback, private and link-local addresses are refused in every form; redirects not followed', { skip: sqliteOnly, timeout: 120_000 }, async () => {
  const result = await runSsrf({ serverArgs: programArgs('src/main.ts'), cwd: process.cwd(), dialect: 'sqlite' });
  const lines: string[] = [];
  printFigures(result.figures, (l) => lines.push(l));
  const table = lines.join('\n');
  assert.deepEqual(result.figures.filter((f) => f.pass === false).map((f) => `${f.name}: ${f.value} ${verdict(f)}`), [], table);
  // Every channel tried every family and reached its allowed host.
  for (const channel of ['repository webhook', 'organization webhook', 'source import']) {
    assert.equal(result.figures.filter((f) => f.name.startsWith(`${channel}: `)).length, 8, table);
    assert.equal(result.figures.filter((f) => f.name.startsWith(`${channel}: DNS rebinding`)).length, 1, table);
  }
});
