// SQLite WAL checkpoints run in a worker thread, not inside the commits of requests
// (src/db/sqlite-checkpointer.ts). In WAL mode only a checkpoint writes the database
// file itself; the request connection's own checkpoint limit is far above what this
// test writes, so the file grows only if the worker checkpoints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, testDialect } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { createIssue } from './factories/issues.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { BACKSTOP_PAGES } from '../src/db/sqlite-checkpointer.ts';

test('writes reach the database file through the checkpoint worker; closing stops it', { skip: testDialect() !== 'sqlite' && 'SQLite only' }, async () => {
  const t = await startTestServer();
  try {
    const file = path.join(t.dataDir, 'wharf.sqlite');
    const wal = `${file}-wal`;
    const alice = await createUser(t);
    const r = await createRepo(t, alice);
    const before = fs.statSync(file).size;
    for (let i = 0; i < 60; i++) await createIssue(t, alice.token, r, { title: `issue ${i}`, body: 'x'.repeat(4000) });
    assert.ok(fs.statSync(wal).size / 4096 < BACKSTOP_PAGES, 'the writes stay below the request connection\'s own checkpoint limit');
    const grown = await eventually(async () => {
      const size = fs.statSync(file).size;
      return size > before + 200_000 ? size : undefined;
    }, 20_000, 'the database file to grow by a checkpoint');
    assert.ok(grown > before);
  } finally {
    await t.close();
  }
});
