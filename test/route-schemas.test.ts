// Every route declares its response schema (house rule: one schema validates input,
// serializes output and documents the route), except routes answering raw bytes
// (git's protocol, HTML pages), which say so with `rawResponse`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { compileValidator } from '../src/http/validation.ts';

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

// Outside production validators and response serializers are built on a route's first
// use; this builds every one, so a schema that cannot compile fails here, not later.
test('every route\'s request and response schemas compile', () => {
  const failures: string[] = [];
  for (const r of t.server.app.routeTable) {
    const schema = r.schema as Record<string, unknown> | null;
    if (!schema) continue;
    for (const part of ['body', 'querystring', 'params', 'headers']) {
      if (!schema[part]) continue;
      try { compileValidator(schema[part] as object, part); } catch (err) { failures.push(`${r.method} ${r.url} ${part}: ${(err as Error).message}`); }
    }
    for (const [status, response] of Object.entries((schema.response as Record<string, unknown> | undefined) ?? {})) {
      try { fastJsonStringify(response as Schema); } catch (err) { failures.push(`${r.method} ${r.url} ${status}: ${(err as Error).message}`); }
    }
  }
  assert.deepEqual(failures, []);
});
