// Issue #22: retention's batches (src/modules/retention/) pick old rows through an index
// on the column they filter by, created_at (finished deliveries: state and created_at) (migration 0051), rather than reading the
// table from its first row; a payload's "no delivery refers to it" looks deliveries up
// by the outbox_id index. SQLite: the plan of each batch's query says so (EXPLAIN QUERY
// PLAN). PostgreSQL: the indexes are there (its planner picks by table statistics, which
// a test's near-empty tables do not have).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { prunableEvents } from '../src/events/outbox.ts';
import { prunableDeliveries, prunablePayloads } from '../src/modules/hooks/deliveries.store.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t?.close(); });

const BEFORE = '2026-01-01T00:00:00Z';

async function plan(query: { compile(): CompiledQuery }): Promise<string> {
  const c = query.compile();
  const rows = await t.server.ctx.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${c.sql}`, [...c.parameters]));
  return rows.rows.map((r) => r.detail).join('\n');
}

test('SQLite: each retention batch reads through its created_at index', async (ctx) => {
  if (t.server.ctx.dialect !== 'sqlite') return ctx.skip('PostgreSQL: see the next test');
  const db = t.server.ctx.db;
  const events = await plan(prunableEvents(db, BEFORE, 500));
  assert.match(events, /SEARCH outbox USING (COVERING )?INDEX outbox_created \(created_at<\?\)/, events);
  const deliveries = await plan(prunableDeliveries(db, BEFORE, 500));
  assert.match(deliveries, /SEARCH hook_deliveries USING (COVERING )?INDEX hook_deliveries_state_created \(state=\? AND created_at<\?\)/, deliveries);
  const payloads = await plan(prunablePayloads(db, BEFORE, 500));
  assert.match(payloads, /SEARCH p USING (COVERING )?INDEX hook_payloads_created \(created_at<\?\)/, payloads);
  assert.match(payloads, /SEARCH d USING (COVERING )?INDEX hook_deliveries_outbox \(outbox_id=\?\)/, payloads);
  assert.doesNotMatch(`${events}\n${deliveries}\n${payloads}`, /\bSCAN (outbox|hook_deliveries|hook_payloads|p|d)\b/);
});

test('PostgreSQL: the retention indexes exist', async (ctx) => {
  if (t.server.ctx.dialect !== 'postgres') return ctx.skip('SQLite: the plans are checked above');
  const rows = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND indexname IN ('outbox_created', 'hook_deliveries_state_created', 'hook_deliveries_outbox', 'hook_payloads_created')
    ORDER BY indexname`.execute(t.server.ctx.db);
  assert.deepEqual(rows.rows.map((r) => [r.indexname, /\(([\w, ]+)\)$/.exec(r.indexdef)?.[1]]), [
    ['hook_deliveries_outbox', 'outbox_id'], ['hook_deliveries_state_created', 'state, created_at'], ['hook_payloads_created', 'created_at'], ['outbox_created', 'created_at'],
  ]);
});
