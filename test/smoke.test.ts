import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';

test('octokit reaches /user with a token the admin created', async () => {
  const t = await startTestServer();
  try {
    const u = await createUser(t, ['user']);
    const { data } = await t.octokit(u.token).rest.users.getAuthenticated();
    assert.equal(data.login, u.login);
    const { data: admin } = await t.octokit(ADMIN_TOKEN).rest.users.getAuthenticated();
    assert.equal(admin.site_admin, true);
  } finally {
    await t.close();
  }
});
