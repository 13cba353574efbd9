// A private organization project is seen only with a token whose scopes reach private
// data (repo, read:org or read:project), as a private repository is: with only read:user
// the organization owner's own token got the board, its columns and cards. Found by the
// authorization matrix (reliability/authz.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createToken } from './factories/accounts.ts';
import { createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';

describe('private projects need a scope reaching private data', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let projectId: number;
  let columnId: number;

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t, ['repo', 'admin:org', 'user']);
    const project = await t.request(`/orgs/${org.login}/projects`, { method: 'POST', token: org.owner.token, json: { name: 'Hidden board' } });
    assert.equal(project.status, 201, await project.clone().text());
    projectId = ((await project.json()) as { id: number; private: boolean }).id;
    const column = await t.request(`/projects/${projectId}/columns`, { method: 'POST', token: org.owner.token, json: { name: 'To do' } });
    columnId = ((await column.json()) as { id: number }).id;
  });
  after(async () => { await t.close(); });

  test('a token with only read:user: the board, its columns and its list entry are not there', async () => {
    const project = await t.request(`/projects/${projectId}`, { token: org.owner.token });
    assert.equal(((await project.json()) as { private: boolean }).private, true, 'organization projects are private unless made public');
    const token = await createToken(t, org.owner.login, ['read:user']);
    for (const path of [`/projects/${projectId}`, `/projects/${projectId}/columns`, `/projects/columns/${columnId}`, `/projects/columns/${columnId}/cards`]) {
      assert.equal((await t.request(path, { token })).status, 404, path);
    }
    const list = await t.request(`/orgs/${org.login}/projects`, { token });
    assert.deepEqual(((await list.json()) as unknown[]).length, 0);
  });

  test('read:org, read:project or repo: the board', async () => {
    for (const scopes of [['read:org'], ['read:project'], ['repo']]) {
      const token = await createToken(t, org.owner.login, scopes);
      assert.equal((await t.request(`/projects/${projectId}`, { token })).status, 200, scopes.join());
    }
  });
});
