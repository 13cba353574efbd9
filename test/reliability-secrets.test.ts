// Issue #22 § 1, the secrets suite's short profile (reliability/secrets.ts): Wharf as a
// child process at LOG_LEVEL=trace; every kind of secret it issues or takes is made and
// used, then searched for in every response body and header, webhook delivery, log
// line, database cell and data-dir file: none may be there but where the API shows a
// secret once at its creation.
//
// A leak this suite found, with its regression test here: the request log line of
// POST /app-manifests/{code}/conversions carried the manifest code, which converts to
// the app's client secret, webhook secret and private key (request-log.ts now redacts it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactedUrl } from '../src/http/request-log.ts';

test('the request log redacts an app manifest code in the path', () => {
  assert.equal(redactedUrl('/app-manifests/0123abcd/conversions'), '/app-manifests/[redacted]/conversions');
  assert.equal(redactedUrl('/app-manifests/0123abcd/conversions?x=1&token=t'), '/app-manifests/[redacted]/conversions?x=1&token=[redacted]');
  assert.equal(redactedUrl('/repos/o/app-manifests/issues'), '/repos/o/app-manifests/issues');
});
