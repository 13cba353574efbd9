// Every route declares its response schema (house rule: one schema validates input,
// serializes output and documents the route), except routes answering raw bytes
// (git's protocol, HTML pages), which say so with `rawResponse`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

test('every route declares a response schema for its success status', () => {
  const table = t.server.app.routeTable;
  assert.ok(table.length > 200, `routes seen: ${table.length}`);
  const missing = table.filter((r) => !r.rawResponse && r.responses.length === 0).map((r) => `${r.method} ${r.url}`);
  assert.deepEqual(missing, [], `${missing.length} routes without a response schema:\n${missing.join('\n')}`);
});

test('every route names its upstream operation id', () => {
  const table = t.server.app.routeTable;
  const unnamed = table.filter((r) => !r.rawResponse && !r.operationId).map((r) => `${r.method} ${r.url}`);
  assert.deepEqual(unnamed, []);
});
