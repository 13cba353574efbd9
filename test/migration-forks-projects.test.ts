// Migration archives and what hangs between repositories and off users: a fork's
// record names its parent and source (as GET /repos/{owner}/{repo} does), and an
// import links the fork again when the parent is in the same archive or already here
// (fork, parent, source, the parent's forks list), else imports it as a plain
// repository with a warning in the job's report. A user migration carries the user's
// own classic projects (private ones too, unless exclude_owner_projects), and an
// import makes them again with their columns and cards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { entriesOf, packOf, type Entry } from './helpers/tar-archives.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { requestJson } from './helpers/json-request.ts';

type Json = Record<string, unknown>;

/** The records of one kind in an archive, in file order. */
function recordsOf(entries: Entry[], kind: string): Json[] {
  return entries.filter((e) => new RegExp(`^${kind}_\\d{6}\\.json$`).test(e.header.name))
    .sort((a, b) => a.header.name!.localeCompare(b.header.name!))
    .flatMap((e) => JSON.parse(e.body.toString('utf8')) as Json[]);
}

/** A user migration of `repositories`, exported and downloaded. */
async function exportUser(t: TestServer, user: CreatedUser, repositories: string[], options: Json = {}): Promise<Buffer> {
  const started = await requestJson(t, 'POST', '/user/migrations', user.token, { repositories, ...options });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  await t.server.migrationExports.idle();
  const done = await requestJson(t, 'GET', `/user/migrations/${started.body.id}`, user.token);
  assert.equal(done.body.state, 'exported', String(done.body.failure));
  const redirect = await t.request(`/user/migrations/${started.body.id}/archive`, { token: user.token, redirect: 'manual' });
  assert.equal(redirect.status, 302);
  return Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
}

async function importAndWait(t: TestServer, bytes: Buffer, query = ''): Promise<Json> {
  const res = await t.request(`/admin/migrations/imports${query}`, { method: 'POST', token: ADMIN_TOKEN, headers: { 'content-type': 'application/gzip' }, body: new Uint8Array(bytes) });
  const started = await res.json() as Json;
  assert.equal(res.status, 202, JSON.stringify(started));
  await t.server.migrationImports.idle();
  return (await requestJson(t, 'GET', `/admin/migrations/imports/${started.id}`, ADMIN_TOKEN)).body;
}

async function get(t: TestServer, p: string, token = ADMIN_TOKEN): Promise<unknown> {
  const r = await requestJson(t, 'GET', p, token);
  assert.equal(r.status, 200, `${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An API answer without what differs between two servers by nature: ids, node ids, URLs. */
function comparable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(comparable);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v as Json)
    .filter(([k, x]) => k !== 'id' && k !== 'node_id' && !k.endsWith('url') && !(k.endsWith('_id') && (typeof x === 'number' || typeof x === 'string')))
    .map(([k, x]) => [k, comparable(x)]));
}

/** A user's projects (all states) with their columns and cards (archived ones too), as the API answers them to `token`. */
async function boards(t: TestServer, login: string, token: string): Promise<unknown> {
  const out: unknown[] = [];
  for (const p of await get(t, `/users/${login}/projects?state=all`, token) as { id: number }[]) {
    const columns = await get(t, `/projects/${p.id}/columns`, token) as { id: number }[];
    const cards: unknown[] = [];
    for (const c of columns) {
      const list = await get(t, `/projects/columns/${c.id}/cards?archived_state=all`, token) as { note: string | null; content_url?: string }[];
      // What a card shows: its note, or the issue's path (its host differs).
      cards.push(list.map((k) => [k.note ?? new URL(k.content_url!).pathname, comparable(k)]));
    }
    out.push({ project: comparable(p), columns: comparable(columns), cards });
  }
  return out;
}

describe('migration archives: forks and user projects', () => {
  let a: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceArchive: Buffer;
  let bobArchive: Buffer;
  /** The server imported into: bob's archive alone, then alice's, then bob's again, then both in one (the tests run in order). */
  let b: TestServer;

  before(async () => {
    a = await startTestServer();
    b = await startTestServer();
    alice = await createUser(a);
    bob = await createUser(a);
    const kit = a.octokit(alice.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: 'engine', auto_init: true, description: 'the engine' });
    await a.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'engine' });
    const { data: issue } = await kit.rest.issues.create({ owner: alice.login, repo: 'engine', title: 'Oil the pistons' });
    // Alice's own projects: a public board (a note, the issue, an archived note, in two columns) and a private, closed one.
    const call = (route: string, params: Json) => kit.request(route, params).then((r) => r.data as Json);
    const roadmap = await call('POST /user/projects', { name: 'Roadmap', body: 'Where the engine goes' });
    const next = await call('POST /projects/{project_id}/columns', { project_id: roadmap.id, name: 'Next' });
    const done = await call('POST /projects/{project_id}/columns', { project_id: roadmap.id, name: 'Done' });
    await call('POST /projects/columns/{column_id}/cards', { column_id: next.id, note: 'Bore the cylinders' });
    await call('POST /projects/columns/{column_id}/cards', { column_id: next.id, content_id: issue.id, content_type: 'Issue' });
    const old = await call('POST /projects/columns/{column_id}/cards', { column_id: done.id, note: 'Cast the block' });
    await call('PATCH /projects/columns/cards/{card_id}', { card_id: old.id, archived: true });
    const diary = await call('POST /user/projects', { name: 'Diary' });
    await call('PATCH /projects/{project_id}', { project_id: diary.id, private: true, state: 'closed' });
    aliceArchive = await exportUser(a, alice, [`${alice.login}/engine`]);
    bobArchive = await exportUser(a, bob, [`${bob.login}/engine`]);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  test('export: a fork\'s record names its parent and source; the parent\'s owner is not one of the archive\'s users', async () => {
    const entries = await entriesOf(bobArchive);
    const [fork] = recordsOf(entries, 'repositories');
    assert.equal(fork!.full_name, `${bob.login}/engine`);
    assert.equal(fork!.fork, true);
    assert.equal((fork!.parent as Json).full_name, `${alice.login}/engine`);
    assert.equal((fork!.source as Json).full_name, `${alice.login}/engine`);
    assert.equal((fork!.parent as Json).url, `${a.baseUrl}/repos/${alice.login}/engine`);
    assert.deepEqual(recordsOf(entries, 'users').map((u) => u.login), [bob.login]);
    const [plain] = recordsOf(await entriesOf(aliceArchive), 'repositories');
    assert.equal(plain!.fork, false);
    assert.equal('parent' in plain!, false);
  });

  test('import: a fork whose parent is neither in the archive nor here goes in as a plain repository, with a warning in the report', async () => {
    const job = await importAndWait(b, bobArchive);
    assert.equal(job.state, 'imported', String(job.failure));
    assert.deepEqual((job.repositories as Json[]).map((r) => r.target), [`${bob.login}/engine`]);
    const conflicts = job.conflicts as Json[];
    assert.deepEqual(conflicts.map((x) => [x.kind, x.source, x.resolution, x.target]), [['fork', `${bob.login}/engine`, 'unlinked', `${bob.login}/engine`]]);
    assert.match(String(conflicts[0]!.message), new RegExp(`parent ${alice.login}/engine is neither in the archive nor here`));
    const repo = await get(b, `/repos/${bob.login}/engine`) as Json;
    assert.equal(repo.fork, false);
    assert.equal('parent' in repo, false);
    // Nor was the parent's owner made an account (alice's own archive goes in below).
    assert.equal((await requestJson(b, 'GET', `/users/${alice.login}`, ADMIN_TOKEN)).status, 404);
  });

  test('a user migration carries the user\'s own projects (private ones too); an import makes them again, columns and cards in order', async () => {
    const projects = recordsOf(await entriesOf(aliceArchive), 'projects');
    assert.deepEqual(projects.map((p) => [p.name, p.private, p.state, p.repository]), [['Roadmap', false, 'open', null], ['Diary', true, 'closed', null]]);
    const job = await importAndWait(b, aliceArchive);
    assert.equal(job.state, 'imported', String(job.failure));
    // Alice is made here without a token: one for reading her private project too.
    const token = await createToken(b, alice.login, ['repo', 'read:project']);
    const imported = await boards(b, alice.login, token);
    assert.deepEqual(imported, await boards(a, alice.login, alice.token));
    const [roadmap] = imported as { cards: [string, unknown][][] }[];
    assert.deepEqual(roadmap!.cards.map((c) => c.map(([shows]) => shows)), [
      [`/repos/${alice.login}/engine/issues/1`, 'Bore the cylinders'], ['Cast the block'],
    ]);
    // The same archive again: the repository and the projects are skipped, as their names are taken.
    const again = await importAndWait(b, aliceArchive);
    assert.equal(again.state, 'imported', String(again.failure));
    assert.deepEqual((again.conflicts as Json[]).map((x) => [x.kind, x.source, x.resolution]), [
      ['repository', `${alice.login}/engine`, 'skipped'], ['project', 'Roadmap', 'skipped'], ['project', 'Diary', 'skipped'],
    ]);
    assert.deepEqual((await get(b, `/users/${alice.login}/projects?state=all`, token) as Json[]).map((p) => p.name), ['Roadmap', 'Diary']);
  });

  test('import: a fork whose parent is here already is linked to it (fork, parent, source, the parent\'s forks)', async () => {
    // Alice's engine went in above; bob's fork goes to an organization this time (his own engine is here, unlinked).
    const job = await importAndWait(b, bobArchive, '?org=garage');
    assert.equal(job.state, 'imported', String(job.failure));
    assert.deepEqual(job.conflicts, []);
    const fork = await get(b, '/repos/garage/engine') as Json;
    assert.equal(fork.fork, true);
    assert.equal((fork.parent as Json).full_name, `${alice.login}/engine`);
    assert.equal((fork.source as Json).full_name, `${alice.login}/engine`);
    const forks = await get(b, `/repos/${alice.login}/engine/forks`) as Json[];
    assert.deepEqual(forks.map((f) => f.full_name), ['garage/engine']);
    assert.equal((await get(b, `/repos/${alice.login}/engine`) as Json).forks_count, 1);
    // As on the server it came from.
    assert.deepEqual(comparable(fork.parent), comparable((await get(a, `/repos/${bob.login}/engine`) as Json).parent));
  });

  test('import: a fork whose parent is in the same archive (listed after it) is linked to the parent made from it', async () => {
    // One archive of both repositories, the fork first: bob's archive with alice's records appended (numbered after bob's).
    const bobEntries = await entriesOf(bobArchive);
    const aliceEntries = (await entriesOf(aliceArchive)).filter((e) => e.header.name !== 'schema.json').map((e) => {
      const m = /^([a-z_]+)_(\d{6})\.json$/.exec(e.header.name!);
      return m ? { header: { ...e.header, name: `${m[1]}_${String(Number(m[2]) + 100).padStart(6, '0')}.json` }, body: e.body } : e;
    });
    // Alice's engine is here too (imported above): the one made from this archive is the parent.
    const target = 'fleet';
    const job = await importAndWait(b, await packOf([...bobEntries, ...aliceEntries]), `?org=${target}&on_conflict=rename`);
    assert.equal(job.state, 'imported', String(job.failure));
    assert.deepEqual((job.repositories as Json[]).map((r) => [r.source, r.target]), [
      [`${alice.login}/engine`, `${target}/engine`], [`${bob.login}/engine`, `${target}/engine-1`],
    ]);
    assert.deepEqual((job.conflicts as Json[]).map((x) => [x.kind, x.resolution]), [['repository', 'renamed']]);
    const fork = await get(b, `/repos/${target}/engine-1`) as Json;
    assert.equal(fork.fork, true);
    assert.equal((fork.parent as Json).full_name, `${target}/engine`);
    assert.equal((fork.source as Json).full_name, `${target}/engine`);
    assert.deepEqual((await get(b, `/repos/${target}/engine/forks`) as Json[]).map((f) => f.full_name), [`${target}/engine-1`]);
  });

  test('exclude_owner_projects leaves a user\'s own projects out', async () => {
    assert.equal(recordsOf(await entriesOf(aliceArchive), 'projects').length, 2);
    const bare = await exportUser(a, alice, [`${alice.login}/engine`], { exclude_owner_projects: true });
    assert.deepEqual(recordsOf(await entriesOf(bare), 'projects'), []);
  });
});
