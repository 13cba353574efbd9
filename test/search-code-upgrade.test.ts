// A data dir indexed before code search kept its text lowered (migration 0048, SQLite):
// a server started on it fills the lowered text of the files indexed already, so that
// code search finds and ranks them as before, without a re-index. On PostgreSQL there
// is nothing to upgrade: the same steps check a second server answers alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';

type Json = Record<string, any>;

describe('code search on an upgraded data dir', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let repo: CreatedRepo;
  const tag = `zu${Date.now().toString(36)}`;
  const env = { WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000' };

  const search = async (server: TestServer, q: string) => {
    const res = await server.request(`/search/code?q=${encodeURIComponent(q)}`, { token: alice.token });
    assert.equal(res.status, 200);
    const body = await res.json() as Json;
    return { total: body.total_count as number, items: (body.items as Json[]).map((i) => [i.path, i.score]) };
  };

  before(async () => {
    t = await startTestServer({ env });
    alice = await createUser(t);
    repo = await createRepo(t, alice, { name: `${tag}-dock` });
    const work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, repo.repo, alice.login, alice.token), work]);
    const files: Record<string, string> = {
      'src/crane.ts': `// ${tag}Crane lifts; ${tag.toUpperCase()}CRANE, ${tag}crane\nexport const hoist = '${tag}Crane';\n`,
      'docs/crane.md': `The ${tag}Crane.\n`,
      [`${tag}crane-notes.txt`]: 'No keyword in the text, only in the name.\n',
    };
    for (const [p, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(work, p)), { recursive: true });
      fs.writeFileSync(path.join(work, p), content);
    }
    await gitOk(['add', '-A'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'Cranes'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
    await t.server.searchIndex.idle();
  });
  after(() => t.close());

  test('files indexed before the migration are found and ranked as before', async () => {
    const queries = [`${tag}Crane`, `${tag}crane hoist`, `${tag}CRANE lifts export`, `${tag}crane repo:${repo.owner}/${repo.repo}`];
    const was = await Promise.all(queries.map((q) => search(t, q)));
    // The name and path holding the keyword (5 + 5) outrank its four occurrences in any case, then one.
    assert.deepEqual(was[0]!.items, [[`${tag}crane-notes.txt`, 10], ['src/crane.ts', 4], ['docs/crane.md', 1]]);
    assert.equal(was[0]!.total, 3);
    if (t.server.ctx.dialect === 'sqlite') {
      // As a data dir of before 0048: no lowered text, the migration not yet run.
      const db = t.server.ctx.db;
      await sql`DROP TRIGGER search_code_lowered_delete`.execute(db);
      await sql`DROP TABLE search_code_lowered`.execute(db);
      await sql`DELETE FROM kysely_migration WHERE name = '0048-search-code-lowered'`.execute(db);
    }
    const upgraded = await startTestServer({ env, shareWith: t });
    try {
      for (const [i, q] of queries.entries()) assert.deepEqual(await search(upgraded, q), was[i], q);
    } finally {
      await upgraded.close();
    }
  });
});
