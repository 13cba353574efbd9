// An id or number past the database's integer columns (2^31) in a path names nothing:
// every route answers it with a 4xx, never a 500. Found by the fuzz suite
// (reliability/fuzz.ts) on PostgreSQL, which refuses to compare an `integer` column
// with 2147483648: the routes whose ids are digit strings rather than schema integers
// (notification threads, user installations, check runs and suites, the admin's OAuth
// app delete, the issue, pull and milestone pages) passed it to the database, and so
// did a webhook delivery list's cursor.
// Runs on both dialects; SQLite never failed, as it compares any integer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer } from './helpers/server.ts';

test('every route answers an id or number of 2^31 in its path with a 4xx', { timeout: 120_000 }, async () => {
  // The hook made below points at 127.0.0.1:9, refused when saved unless allowed.
  const t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  try {
    // A repository and an organization that exist, so that the id is what is looked up.
    await (await t.request('/user/repos', { method: 'POST', token: ADMIN_TOKEN, json: { name: 'ids', auto_init: true } })).arrayBuffer();
    await (await t.request('/admin/organizations', { method: 'POST', token: ADMIN_TOKEN, json: { login: 'ids-org', admin: 'admin' } })).arrayBuffer();
    const failed: string[] = [];
    let probed = 0;
    for (const r of t.server.app.routeTable) {
      const names = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      for (const k of names.filter((n) => /(_id|_number|^number|^id)$/.test(n))) {
        for (const method of r.method.split(',')) {
          const url = r.url
            .replace(/:(\w+)/g, (_, p: string) => (p === k ? '2147483648' : p === 'owner' || p === 'username' ? 'admin' : p === 'org' ? 'ids-org' : p === 'repo' ? 'ids' : 'x'))
            .replace(/\*$/, 'main');
          const res = await t.request(url, { method, token: ADMIN_TOKEN, ...(method === 'GET' || method === 'HEAD' ? {} : { json: {} }) });
          probed++;
          if (res.status >= 500) failed.push(`${method} ${r.url} (${k}) → ${res.status} ${(await res.text()).slice(0, 120)}`);
          else await res.arrayBuffer();
        }
      }
    }
    assert.ok(probed > 200, `only ${probed} routes with an id in their path`);
    assert.deepEqual(failed, []);
    // A delivery list's cursor past 2^31 is past every delivery: the whole list.
    const hook = await t.request('/repos/admin/ids/hooks', { method: 'POST', token: ADMIN_TOKEN, json: { config: { url: 'http://127.0.0.1:9/h' } } });
    const { id } = await hook.json() as { id: number };
    const deliveries = await t.request(`/repos/admin/ids/hooks/${id}/deliveries?cursor=2147483648`, { token: ADMIN_TOKEN });
    assert.equal(deliveries.status, 200, await deliveries.clone().text());
    assert.ok(Array.isArray(await deliveries.json()));
  } finally {
    await t.close();
  }
});
