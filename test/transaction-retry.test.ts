// Transactions that lose a conflict run again (src/context.ts inTransaction): a real
// deadlock on PostgreSQL, where the victim's work is redone and both sides commit; and
// on both databases the rules around it: only SQLSTATE 40001/40P01 is retried, at most
// TRANSACTION_ATTEMPTS times, and a rolled-back attempt's after-commit callbacks never run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { afterCommit, inTransaction, TRANSACTION_ATTEMPTS, type AppContext } from '../src/context.ts';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';

function conflict(code: string): Error {
  return Object.assign(new Error(`simulated ${code}`), { code });
}

describe('transactions retried on conflicts', () => {
  let t: TestServer;
  let ctx: AppContext;

  before(async () => {
    t = await startTestServer();
    ctx = t.server.ctx;
    await ctx.db.insertInto('rate_limits').values([
      { bucket: 'retry-test:a', used: 0, reset_at: 0 },
      { bucket: 'retry-test:b', used: 0, reset_at: 0 },
    ]).execute();
  });
  after(async () => { await t.close(); });

  const used = async (bucket: string) => Number((await ctx.db.selectFrom('rate_limits').select('used').where('bucket', '=', bucket).executeTakeFirstOrThrow()).used);
  const bump = (tx: AppContext, bucket: string) => tx.db.updateTable('rate_limits').set({ used: sql`used + 1` }).where('bucket', '=', bucket).execute();

  test('a deadlock on PostgreSQL: the victim runs again and both transactions commit once', { skip: testDialect() !== 'postgres' ? 'deadlocks need two connections writing at once (PostgreSQL)' : false }, async () => {
    let runs = 0;
    let bothHoldFirst!: () => void;
    const barrier = new Promise<void>((resolve) => { let n = 0; bothHoldFirst = () => { if (++n === 2) resolve(); }; });
    // Opposite lock order: a waits for b's row while b waits for a's; PostgreSQL ends one (40P01).
    const crossing = (first: string, second: string) => inTransaction(ctx, async (tx) => {
      runs++;
      await bump(tx, first);
      bothHoldFirst();
      await barrier;
      await bump(tx, second);
      return first;
    });
    const results = await Promise.all([crossing('retry-test:a', 'retry-test:b'), crossing('retry-test:b', 'retry-test:a')]);
    assert.deepEqual(results, ['retry-test:a', 'retry-test:b']);
    assert.equal(runs, 3, 'one of the two ran twice');
    assert.equal(await used('retry-test:a'), 2, 'each committed its two updates once; the rolled-back attempt left nothing');
    assert.equal(await used('retry-test:b'), 2);
  });

  test('a serialization failure is retried; the failed attempt\'s writes and after-commit callbacks are gone', async () => {
    const before = await used('retry-test:a');
    const fired: number[] = [];
    let runs = 0;
    const result = await inTransaction(ctx, async (tx) => {
      runs++;
      await bump(tx, 'retry-test:a');
      afterCommit(tx, () => fired.push(runs));
      if (runs === 1) throw conflict('40001');
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(runs, 2);
    assert.deepEqual(fired, [2], 'only the committed attempt\'s callback ran');
    assert.equal(await used('retry-test:a'), before + 1);
  });

  test('a conflict that keeps happening reaches the caller after the last attempt', async () => {
    let runs = 0;
    await assert.rejects(inTransaction(ctx, async () => { runs++; throw conflict('40P01'); }), /simulated 40P01/);
    assert.equal(runs, TRANSACTION_ATTEMPTS);
  });

  test('other errors are not retried, and nested calls leave retrying to the outermost', async () => {
    let runs = 0;
    await assert.rejects(inTransaction(ctx, async () => { runs++; throw conflict('23505'); }), /simulated 23505/);
    assert.equal(runs, 1);
    let outer = 0;
    let inner = 0;
    await inTransaction(ctx, async (tx) => {
      outer++;
      await inTransaction(tx, async () => {
        inner++;
        if (inner === 1) throw conflict('40001');
      });
    });
    assert.deepEqual([outer, inner], [2, 2], 'the whole outer transaction ran again');
  });
});
