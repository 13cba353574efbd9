// Issue #22 § 1, the SSRF suite's short profile (reliability/ssrf.ts): Wharf as a child
// process; repository webhooks, organization webhooks and source imports pointed at
// loopback (literal, short, decimal, hex, octal, unspecified, IPv6, IPv4-mapped,
// IPv4-compatible, NAT64, DNS names of this machine), private and link-local/metadata
// addresses, and through redirects from the one allowed host; all refused (redirects not
// followed), no request at the loopback receiver, the allowed host reached. The address
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
import { AddressGuard } from '../src/modules/hooks/hooks.address-guard.ts';

test('the address guard refuses IPv4-compatible IPv6 addresses (::a.b.c.d, ::/96) unless allowed', () => {
  const none = new AddressGuard([]);
  for (const a of ['::7f00:1', '::127.0.0.1', '::a00:1', '::a9fe:a9fe', '::808:808']) assert.equal(none.permits('x', a), false, a);
  assert.equal(none.permits('x', '2606:4700:4700::1111'), true);
  assert.equal(new AddressGuard(['::/96']).permits('x', '::7f00:1'), true);
});
