// Issue #22 § 1, the secrets suite's short profile (reliability/secrets.ts): Wharf as a
// child process at LOG_LEVEL=trace; every kind of secret it issues or takes is made and
// used, then searched for in every response body and header, webhook delivery, log
// line, database cell and data-dir file: none may be there but where the API shows a
// secret once at its creation. On the test run's dialect: the database's cells are
// searched, so both are looked at.
//
// A leak this suite found, with its regression test here: the request log line of
// POST /app-manifests/{code}/conversions carried the manifest code, which converts to
// the app's client secret, webhook secret and private key (request-log.ts now redacts it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { programArgs } from './helpers/programs.ts';
import { testDialect } from './helpers/server.ts';
import { redactedUrl } from '../src/http/request-log.ts';
import { printFigures, verdict } from '../reliability/figures.ts';
import { runSecrets } from '../reliability/secrets.ts';

test('the request log redacts an app manifest code in the path', () => {
  assert.equal(redactedUrl('/app-manifests/0123abcd/conversions'), '/app-manifests/[redacted]/conversions');
  assert.equal(redactedUrl('/app-manifests/0123abcd/conversions?x=1&token=t'), '/app-manifests/[redacted]/conversions?x=1&token=[redacted]');
  assert.equal(redactedUrl('/repos/o/app-manifests/issues'), '/repos/o/app-manifests/issues');
});

test('secrets: no token, password, secret, key or credential in a response, delivery, log line, database cell or data-dir file', { timeout: 150_000 }, async () => {
  const dialect = testDialect();
  const databaseUrl = process.env.WHARF_TEST_DATABASE_URL;
  if (dialect === 'postgres') assert.ok(databaseUrl, 'WHARF_TEST_DATABASE_URL is required for postgres tests');
  const result = await runSecrets({ serverArgs: programArgs('src/main.ts'), cwd: process.cwd(), dialect, databaseUrl });
  const lines: string[] = [];
  printFigures(result.figures, (l) => lines.push(l));
  const table = lines.join('\n');
  assert.deepEqual(result.figures.filter((f) => f.pass === false).map((f) => `${f.name}: ${f.value} ${verdict(f)}\n${f.detail ?? ''}`), [], table);
  // Every kind was made; the searches looked at something.
  assert.ok(result.secrets >= 25, table);
  assert.ok(result.responses > 50 && result.logLines > 50 && result.cells > 100, table);
});
