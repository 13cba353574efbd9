// Self-hosted runners and organization runner groups through Octokit and plain fetch:
// registration and remove tokens (one hour, on the injectable clock), a runner
// registering through Wharf's protocol, heartbeats → online/offline and busy, labels,
// the Default group (always there, never renamed or deleted, heir of deleted groups),
// the visibility rules (visible_to_repository and when a runner reports a job), scopes
// and owner rights, bodies checked against the published OpenAPI description.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { requestJson } from './helpers/json-request.ts';
import { createToken, createUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const clock = new TestClock(Date.parse('2026-03-10T12:00:00Z'));
let t: TestServer;

before(async () => { t = await startTestServer({ clock }); });
after(async () => { await t.close(); });

const send = (method: string, path: string, token: string | undefined, json?: unknown) => requestJson(t, method, path, token, json);

/** A runner program's request: its credential in X-Runner-Token. */
async function asRunner(path: string, credential: string | null, json: unknown) {
  const res = await t.request(path, { method: 'POST', json, headers: credential ? { 'x-runner-token': credential } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Registered { id: number; credential: string; body: Record<string, unknown> }

async function registerRunner(tokenPath: string, ownerToken: string, fields: Record<string, unknown>): Promise<Registered> {
  const tok = await send('POST', tokenPath, ownerToken);
  assert.equal(tok.status, 201, JSON.stringify(tok.body));
  const res = await asRunner('/actions/runner/register', null, { token: tok.body.token, os: 'Linux', ...fields });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.runner.id, credential: res.body.credential, body: res.body.runner };
}


/**
 * The runner group operations: Octokit's generated methods leave them out (upstream
 * documents them for enterprise cloud), so they go through octokit.request by path.
 */
/** What the group routes answer, loosely: each test reads the fields of the one it calls. */
interface GroupData {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
  runner_groups: { id: number; name: string; default: boolean; [field: string]: unknown }[];
  repositories: { id: number }[];
  runners: { id: number }[];
}

function groupsApi(token: string) {
  const kit = t.octokit(token);
  const G = '/orgs/{org}/actions/runner-groups';
  type P = Record<string, unknown>;
  const call = (route: string) => (params: P): Promise<{ data: GroupData; status: number }> => kit.request(route, params);
  return {
    listSelfHostedRunnerGroupsForOrg: call(`GET ${G}`),
    createSelfHostedRunnerGroupForOrg: call(`POST ${G}`),
    getSelfHostedRunnerGroupForOrg: call(`GET ${G}/{runner_group_id}`),
    updateSelfHostedRunnerGroupForOrg: call(`PATCH ${G}/{runner_group_id}`),
    deleteSelfHostedRunnerGroupFromOrg: call(`DELETE ${G}/{runner_group_id}`),
    listRepoAccessToSelfHostedRunnerGroupInOrg: call(`GET ${G}/{runner_group_id}/repositories`),
    setRepoAccessToSelfHostedRunnerGroupInOrg: call(`PUT ${G}/{runner_group_id}/repositories`),
    addRepoAccessToSelfHostedRunnerGroupInOrg: call(`PUT ${G}/{runner_group_id}/repositories/{repository_id}`),
    removeRepoAccessToSelfHostedRunnerGroupInOrg: call(`DELETE ${G}/{runner_group_id}/repositories/{repository_id}`),
    listSelfHostedRunnersInGroupForOrg: call(`GET ${G}/{runner_group_id}/runners`),
    setSelfHostedRunnersInGroupForOrg: call(`PUT ${G}/{runner_group_id}/runners`),
    addSelfHostedRunnerToGroupForOrg: call(`PUT ${G}/{runner_group_id}/runners/{runner_id}`),
    removeSelfHostedRunnerFromGroupForOrg: call(`DELETE ${G}/{runner_group_id}/runners/{runner_id}`),
    getSelfHostedRunnerForOrg: call('GET /orgs/{org}/actions/runners/{runner_id}'),
  };
}

/**
 * The spec returns blank fields as null (general rule 2) where the published schema has
 * network_configuration_id as an optional string: the check sees the upstream shape.
 */
function upstreamGroup(g: Record<string, unknown>): Record<string, unknown> {
  const { network_configuration_id: net, ...rest } = g;
  return net === null ? rest : g;
}

function upstreamGroups(list: { runner_groups: Record<string, unknown>[] }) {
  return { ...list, runner_groups: list.runner_groups.map(upstreamGroup) };
}

const ago = (s: number) => new Date(clock.now().getTime() - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('runner registration and administration', () => {
  let org: CreatedOrg;
  before(async () => { org = await createOrgWithOwner(t); });

  test('a registration token lasts one hour; a runner registers with it and is listed online with its labels', async () => {
    const tok = await send('POST', `/orgs/${org.login}/actions/runners/registration-token`, org.owner.token);
    assert.equal(tok.status, 201);
    assertMatchesOpenApi('post', '/orgs/{org}/actions/runners/registration-token', 201, tok.body);
    assert.equal(tok.body.expires_at, new Date(clock.now().getTime() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.match(tok.body.token, /^[A-Z2-7]{29}$/);
    // An organization's runner serves its repositories (as its groups allow): all, none listed.
    assert.equal(tok.body.repository_selection, 'all');
    assert.equal('repositories' in tok.body, false);

    const reg = await asRunner('/actions/runner/register', null, {
      token: tok.body.token, name: 'build-1', os: 'Linux', architecture: 'X64', labels: ['gpu', 'GPU', ' big '], version: '2.323.0',
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    assert.match(reg.body.credential, /^whr_/);
    const runner = reg.body.runner;
    assert.deepEqual(runner.labels.map((l: { name: string; type: string }) => `${l.name}:${l.type}`),
      ['self-hosted:read-only', 'Linux:read-only', 'X64:read-only', 'gpu:custom', 'big:custom']);

    const { data: list, headers } = await t.octokit(org.owner.token).request('GET /orgs/{org}/actions/runners', { org: org.login.toUpperCase() });
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runners', 200, list);
    assert.equal(list.total_count, 1);
    assert.equal(headers['x-accepted-oauth-scopes'], 'admin:org');
    const listed = list.runners[0]!;
    assert.equal(listed.name, 'build-1');
    assert.equal(listed.status, 'online');
    assert.equal(listed.busy, false);
    assert.equal((listed as { version?: string | null }).version, '2.323.0', 'the version it registered with');
    const { data: defaultGroup } = await groupsApi(org.owner.token).listSelfHostedRunnerGroupsForOrg({ org: org.login });
    assert.equal((listed as { runner_group_id?: number }).runner_group_id, defaultGroup.runner_groups[0]!.id);

    // Filter by name.
    const none = await send('GET', `/orgs/${org.login}/actions/runners?name=other`, org.owner.token);
    assert.equal(none.body.total_count, 0);

    // The same name again in the organization is refused; the token expires after an hour.
    const again = await asRunner('/actions/runner/register', null, { token: tok.body.token, name: 'build-1', os: 'Linux' });
    assert.equal(again.status, 422);
    assert.equal(again.body.errors[0].code, 'already_exists');
    clock.advance(3600_000);
    const late = await asRunner('/actions/runner/register', null, { token: tok.body.token, name: 'build-2', os: 'Linux' });
    assert.equal(late.status, 401);
    assert.equal((await send('GET', `/orgs/${org.login}/actions/runners`, org.owner.token)).body.total_count, 1);
  });

  test('heartbeats keep a runner online and report busy; silence makes it offline', async () => {
    const r = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'beat' });
    const get = () => send('GET', `/orgs/${org.login}/actions/runners/${r.id}`, org.owner.token);
    assert.equal((await get()).body.status, 'online');
    clock.advance(121_000);
    const offline = await get();
    assert.equal(offline.status, 200);
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runners/{runner_id}', 200, offline.body);
    assert.equal(offline.body.status, 'offline');

    const beat = await asRunner('/actions/runner/heartbeat', r.credential, { busy: true });
    assert.equal(beat.status, 200);
    assert.equal(beat.body.status, 'online');
    const busy = await get();
    assert.deepEqual([busy.body.status, busy.body.busy], ['online', true]);
    await asRunner('/actions/runner/heartbeat', r.credential, {});
    assert.equal((await get()).body.busy, true, 'a heartbeat without busy keeps it');

    assert.equal((await asRunner('/actions/runner/heartbeat', 'whr_nope', {})).status, 401);
    assert.equal((await asRunner('/actions/runner/heartbeat', null, {})).status, 401);
  });

  test('labels: add, set, remove one and all; read-only labels stay', async () => {
    const r = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'labels', labels: ['a'] });
    const kit = t.octokit(org.owner.token);
    const base = { org: org.login, runner_id: r.id };
    const { data: added } = await kit.rest.actions.addCustomLabelsToSelfHostedRunnerForOrg({ ...base, labels: ['b', 'c'] });
    assertMatchesOpenApi('post', '/orgs/{org}/actions/runners/{runner_id}/labels', 200, added);
    assert.deepEqual(added.labels.map((l) => l.name), ['self-hosted', 'Linux', 'a', 'b', 'c']);
    assert.equal(added.total_count, 5);

    const { data: set } = await kit.rest.actions.setCustomLabelsForSelfHostedRunnerForOrg({ ...base, labels: ['z'] });
    assert.deepEqual(set.labels.map((l) => l.name), ['self-hosted', 'Linux', 'z']);

    const { data: removed } = await kit.rest.actions.removeCustomLabelFromSelfHostedRunnerForOrg({ ...base, name: 'Z' });
    assert.deepEqual(removed.labels.map((l) => l.name), ['self-hosted', 'Linux']);
    await failsWith(kit.rest.actions.removeCustomLabelFromSelfHostedRunnerForOrg({ ...base, name: 'missing' }), 404);
    const ro = await failsWith(kit.rest.actions.removeCustomLabelFromSelfHostedRunnerForOrg({ ...base, name: 'Linux' }), 422);
    assert.equal(ro.errors?.[0]?.field, 'name');

    await kit.rest.actions.addCustomLabelsToSelfHostedRunnerForOrg({ ...base, labels: ['x', 'y'] });
    const { data: cleared } = await kit.rest.actions.removeAllCustomLabelsFromSelfHostedRunnerForOrg(base);
    assert.deepEqual(cleared.labels.map((l) => l.name), ['self-hosted', 'Linux']);

    // Bad input changes nothing.
    const blank = await send('POST', `/orgs/${org.login}/actions/runners/${r.id}/labels`, org.owner.token, { labels: ['ok', ' '] });
    assert.equal(blank.status, 422);
    const empty = await send('POST', `/orgs/${org.login}/actions/runners/${r.id}/labels`, org.owner.token, { labels: [] });
    assert.equal(empty.status, 422);
    const { data: after } = await kit.rest.actions.listLabelsForSelfHostedRunnerForOrg(base);
    assert.deepEqual(after.labels.map((l) => l.name), ['self-hosted', 'Linux']);
  });

  test('a runner removes itself with a remove token; an administrator deletes one', async () => {
    const a = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'leaving' });
    const rm = await send('POST', `/orgs/${org.login}/actions/runners/remove-token`, org.owner.token);
    assert.equal(rm.status, 201);
    assertMatchesOpenApi('post', '/orgs/{org}/actions/runners/remove-token', 201, rm.body);
    // A registration token is no remove token.
    const reg = await send('POST', `/orgs/${org.login}/actions/runners/registration-token`, org.owner.token);
    assert.equal((await asRunner('/actions/runner/remove', a.credential, { token: reg.body.token })).status, 401);
    assert.equal((await asRunner('/actions/runner/remove', a.credential, { token: rm.body.token })).status, 204);
    assert.equal((await send('GET', `/orgs/${org.login}/actions/runners/${a.id}`, org.owner.token)).status, 404);

    const b = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'deleted' });
    // Not while it runs a job.
    await asRunner('/actions/runner/heartbeat', b.credential, { busy: true });
    const busy = await send('DELETE', `/orgs/${org.login}/actions/runners/${b.id}`, org.owner.token);
    assert.equal(busy.status, 422);
    await asRunner('/actions/runner/heartbeat', b.credential, { busy: false });
    const del = await send('DELETE', `/orgs/${org.login}/actions/runners/${b.id}`, org.owner.token);
    assert.equal(del.status, 204);
    assert.equal((await asRunner('/actions/runner/heartbeat', b.credential, {})).status, 401);
  });

  test('repository runners: tokens and lists for repository administrators', async () => {
    const user = await createUser(t);
    const repo = await createRepo(t, user, { private: true });
    // A repository's token names its one repository, as its record.
    const tok = await send('POST', `/repos/${repo.owner}/${repo.repo}/actions/runners/remove-token`, user.token);
    assert.equal(tok.status, 201);
    assertMatchesOpenApi('post', '/repos/{owner}/{repo}/actions/runners/remove-token', 201, tok.body);
    assert.equal(tok.body.repository_selection, 'selected');
    assert.deepEqual(tok.body.repositories?.map((x: { id: number; full_name: string; private: boolean }) => [x.id, x.full_name, x.private]), [[repo.id, `${repo.owner}/${repo.repo}`, true]]);
    const r = await registerRunner(`/repos/${repo.owner}/${repo.repo}/actions/runners/registration-token`, user.token, { name: 'repo-runner', os: 'Windows' });
    const { data } = await t.octokit(user.token).rest.actions.listSelfHostedRunnersForRepo({ owner: repo.owner, repo: repo.repo });
    assertMatchesOpenApi('get', '/repos/{owner}/{repo}/actions/runners', 200, data);
    assert.deepEqual(data.runners.map((x) => [x.id, x.os]), [[r.id, 'Windows']]);
    assert.equal('runner_group_id' in data.runners[0]!, false, 'a repository runner is in no group');

    // It runs jobs of its repository only; they count for the repository's owner.
    const job = { workflow_path: '.github/workflows/ci.yml', started_at: ago(200), completed_at: ago(100) };
    const ok = await asRunner('/actions/runner/jobs', r.credential, { ...job, repository: `${repo.owner}/${repo.repo}` });
    assert.equal(ok.status, 201);
    assert.deepEqual([ok.body.runner_os, ok.body.minutes, ok.body.hosted], ['Windows', 2, false]);
    const sibling = await createRepo(t, user, { private: true });
    assert.equal((await asRunner('/actions/runner/jobs', r.credential, { ...job, repository: `${sibling.owner}/${sibling.repo}` })).status, 403);
    const { data: billed } = await t.octokit(user.token).request('GET /users/{username}/settings/billing/actions', { username: user.login });
    assert.deepEqual([billed.total_minutes_used, billed.minutes_used_breakdown.WINDOWS], [4, 2]);

    // Another user sees nothing of a private repository; a reader is refused.
    const other = await createUser(t);
    await failsWith(t.octokit(other.token).rest.actions.listSelfHostedRunnersForRepo({ owner: repo.owner, repo: repo.repo }), 404);
    const noRepoScope = await createToken(t, user.login, ['user']);
    await failsWith(t.octokit(noRepoScope).rest.actions.createRegistrationTokenForRepo({ owner: repo.owner, repo: repo.repo }), 404);
  });

  test('scopes and rights: admin:org and organization ownership', async () => {
    const member = await addMember(t, org, 'member');
    const m = await failsWith(t.octokit(member.token).rest.actions.createRegistrationTokenForOrg({ org: org.login }), 403);
    assert.match(m.message, /owner/);
    const noScope = await createToken(t, org.owner.login, ['repo']);
    await failsWith(t.octokit(noScope).rest.actions.listSelfHostedRunnersForOrg({ org: org.login }), 403);
    await failsWith(groupsApi(noScope).listSelfHostedRunnerGroupsForOrg({ org: org.login }), 403);
    await failsWith(t.octokit().rest.actions.listSelfHostedRunnersForOrg({ org: org.login }), 401);
    await failsWith(t.octokit(org.owner.token).rest.actions.listSelfHostedRunnersForOrg({ org: 'no-such-org-x' }), 404);
  });
});

describe('runner groups', () => {
  const api = () => ({ rest: { actions: groupsApi(org.owner.token) } });
  let org: CreatedOrg;
  let pub: CreatedRepo;
  let priv: CreatedRepo;
  let priv2: CreatedRepo;
  const groupsPath = () => `/orgs/${org.login}/actions/runner-groups`;

  before(async () => {
    org = await createOrgWithOwner(t);
    pub = await createRepo(t, org.owner, { org: org.login, private: false });
    priv = await createRepo(t, org.owner, { org: org.login, private: true });
    priv2 = await createRepo(t, org.owner, { org: org.login, private: true });
  });

  test('the Default group exists, keeps its name and cannot be deleted', async () => {
    const kit = api();
    const { data } = await kit.rest.actions.listSelfHostedRunnerGroupsForOrg({ org: org.login });
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runner-groups', 200, upstreamGroups(data));
    assert.equal(data.total_count, 1);
    const def = data.runner_groups[0]!;
    assert.deepEqual([def.name, def.default, def.visibility, def.inherited, def.allows_public_repositories], ['Default', true, 'all', false, false]);
    assert.equal(def.inherited_allows_public_repositories, false, 'no enterprise level: nothing inherited allows public repositories');
    const rename = await failsWith(kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: def.id, name: 'Other' }), 422);
    assert.equal(rename.errors?.[0]?.field, 'name');
    // Its other settings may change.
    const { data: changed } = await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: def.id, name: 'Default', visibility: 'private' });
    assert.equal(changed.visibility, 'private');
    await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: def.id, name: 'Default', visibility: 'all' });
    await failsWith(kit.rest.actions.deleteSelfHostedRunnerGroupFromOrg({ org: org.login, runner_group_id: def.id }), 422);
  });

  test('create with upstream defaults; get, update, name conflicts and bad input', async () => {
    const kit = api();
    const { data: g, status } = await kit.rest.actions.createSelfHostedRunnerGroupForOrg({
      org: org.login, name: 'builders', selected_workflows: ['x/y/.github/workflows/a.yml@main'],
    });
    assert.equal(status, 201);
    assertMatchesOpenApi('post', '/orgs/{org}/actions/runner-groups', 201, upstreamGroup(g));
    assert.deepEqual(
      [g.visibility, g.default, g.allows_public_repositories, g.restricted_to_workflows, g.selected_workflows, g.workflow_restrictions_read_only, g.inherited, g.network_configuration_id],
      ['all', false, false, false, [], false, false, null],
      'selected_workflows is ignored unless restricted',
    );
    assert.equal(g.runners_url, `${t.baseUrl}/orgs/${org.login}/actions/runner-groups/${g.id}/runners`);
    assert.equal('selected_repositories_url' in g, false);

    const { data: got } = await kit.rest.actions.getSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: g.id });
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runner-groups/{runner_group_id}', 200, upstreamGroup(got));
    assert.equal(got.name, 'builders');

    const { data: up } = await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({
      org: org.login, runner_group_id: g.id, name: 'Builders', visibility: 'selected', restricted_to_workflows: true,
      selected_workflows: [`${org.login}/${priv.repo}/.github/workflows/ci.yml@main`], network_configuration_id: 'net-1',
    });
    assertMatchesOpenApi('patch', '/orgs/{org}/actions/runner-groups/{runner_group_id}', 200, up);
    assert.equal(up.selected_repositories_url, `${t.baseUrl}/orgs/${org.login}/actions/runner-groups/${g.id}/repositories`);
    assert.deepEqual([up.name, up.restricted_to_workflows, up.selected_workflows.length, up.network_configuration_id], ['Builders', true, 1, 'net-1']);
    const { data: cleared } = await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: g.id, name: 'Builders', network_configuration_id: null });
    assert.equal(cleared.network_configuration_id, null);
    assert.equal(cleared.visibility, 'selected', 'omitted fields keep their values');

    const dup = await failsWith(kit.rest.actions.createSelfHostedRunnerGroupForOrg({ org: org.login, name: 'BUILDERS' }), 422);
    assert.equal(dup.errors?.[0]?.code, 'already_exists');
    await failsWith(kit.rest.actions.createSelfHostedRunnerGroupForOrg({ org: org.login, name: 'default' }), 422);
    const before = (await send('GET', groupsPath(), org.owner.token)).body.total_count;
    for (const body of [{}, { name: '  ' }, { name: 'v', visibility: 'everyone' }, { name: 'r', selected_repository_ids: [pub.id, 999999] }, { name: 'q', runners: [424242] }]) {
      const res = await send('POST', groupsPath(), org.owner.token, body);
      assert.ok([400, 422].includes(res.status), `${JSON.stringify(body)} → ${res.status}`);
    }
    assert.equal((await send('GET', groupsPath(), org.owner.token)).body.total_count, before, 'a rejected request changes nothing');
    await failsWith(kit.rest.actions.getSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: 999999 }), 404);
  });

  test('visibility: all, selected, private and public repositories (visible_to_repository)', async () => {
    const kit = api();
    const mk = async (name: string, fields: Record<string, unknown>) =>
      (await send('POST', groupsPath(), org.owner.token, { name, ...fields })).body.id as number;
    const allPublic = await mk('all-public', { visibility: 'all', allows_public_repositories: true });
    const selected = await mk('selected', { visibility: 'selected', selected_repository_ids: [priv.id, pub.id], allows_public_repositories: true });
    const privateOnly = await mk('private-only', { visibility: 'private' });
    const visible = async (repo: string) => {
      const { data } = await kit.rest.actions.listSelfHostedRunnerGroupsForOrg({ org: org.login, visible_to_repository: repo, per_page: 100 });
      return data.runner_groups.map((g) => g.id);
    };
    const ids = (await send('GET', `${groupsPath()}?per_page=100`, org.owner.token)).body.runner_groups as { id: number; name: string }[];
    const byName = (n: string) => ids.find((g) => g.name === n)!.id;
    // Default (all, no public), Builders (selected, none selected yet).
    assert.deepEqual(await visible(pub.repo), [allPublic, selected]);
    assert.deepEqual(await visible(priv.repo), [byName('Default'), allPublic, selected, privateOnly]);
    assert.deepEqual(await visible(priv2.repo), [byName('Default'), allPublic, privateOnly]);
    assert.deepEqual(await visible('no-such-repo'), []);

    // The selected list: set, add, remove.
    const { data: repos } = await kit.rest.actions.listRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected });
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runner-groups/{runner_group_id}/repositories', 200, repos);
    assert.deepEqual(repos.repositories.map((r) => r.id).sort(), [priv.id, pub.id].sort());
    // Whole records, as upstream's: privacy, counts and the caller's permissions included
    // (visibility is the nebula preview's key, as the spec has it).
    const whole = repos.repositories as unknown as { id: number; private: boolean; permissions?: { admin: boolean }; stargazers_count: number }[];
    assert.deepEqual(whole.map((r) => [r.id, r.private, r.permissions?.admin, typeof r.stargazers_count]).sort(),
      [[priv.id, true, true, 'number'], [pub.id, false, true, 'number']].sort());
    await kit.rest.actions.setRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected, selected_repository_ids: [priv2.id] });
    assert.deepEqual(await visible(priv2.repo), [byName('Default'), allPublic, selected, privateOnly]);
    await kit.rest.actions.removeRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected, repository_id: priv2.id });
    await kit.rest.actions.addRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected, repository_id: pub.id });
    const { data: after } = await kit.rest.actions.listRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected });
    assert.deepEqual(after.repositories.map((r) => r.id), [pub.id]);
    // Another owner's repository is not the organization's.
    const stranger = await createUser(t);
    const foreign = await createRepo(t, stranger);
    await failsWith(kit.rest.actions.addRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected, repository_id: foreign.id }), 404);
    await failsWith(kit.rest.actions.setRepoAccessToSelfHostedRunnerGroupInOrg({ org: org.login, runner_group_id: selected, selected_repository_ids: [foreign.id] }), 422);
  });

  test('runners in groups; a deleted group hands its runners to Default; jobs only where the group is visible', async () => {
    const kit = api();
    const a = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'g-a' });
    const b = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'g-b', os: 'macOS' });
    const { data: g } = await kit.rest.actions.createSelfHostedRunnerGroupForOrg({ org: org.login, name: 'team', visibility: 'selected', runners: [a.id], selected_repository_ids: [priv.id] });
    const members = async (id: number) => (await kit.rest.actions.listSelfHostedRunnersInGroupForOrg({ org: org.login, runner_group_id: id })).data;
    const first = await members(g.id);
    assertMatchesOpenApi('get', '/orgs/{org}/actions/runner-groups/{runner_group_id}/runners', 200, first);
    assert.deepEqual(first.runners.map((r) => r.id), [a.id]);

    // A job for a repository the group is visible to is recorded; others are refused.
    const job = { workflow_path: '.github/workflows/ci.yml', started_at: ago(120), completed_at: ago(30) };
    const ok = await asRunner('/actions/runner/jobs', a.credential, { ...job, repository: `${org.login}/${priv.repo}` });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual([ok.body.minutes, ok.body.runner_os, ok.body.runner_id], [2, 'Linux', a.id]);
    const refused = await asRunner('/actions/runner/jobs', a.credential, { ...job, repository: `${org.login}/${priv2.repo}` });
    assert.equal(refused.status, 403);
    const publicRefused = await asRunner('/actions/runner/jobs', b.credential, { ...job, repository: `${org.login}/${pub.repo}` });
    assert.equal(publicRefused.status, 403, 'Default does not allow public repositories');
    const stranger = await createUser(t);
    const foreign = await createRepo(t, stranger);
    assert.equal((await asRunner('/actions/runner/jobs', b.credential, { ...job, repository: `${foreign.owner}/${foreign.repo}` })).status, 403);
    for (const bad of [{ ...job, repository: 'nope/nope' }, { ...job, started_at: 'yesterday' }, { ...job, started_at: job.completed_at, completed_at: job.started_at },
      { ...job, completed_at: new Date(clock.now().getTime() + 60_000).toISOString() }, { ...job, workflow_path: ' ' }]) {
      const res = await asRunner('/actions/runner/jobs', b.credential, { repository: `${org.login}/${priv.repo}`, ...bad });
      assert.equal(res.status, 422, JSON.stringify(bad));
    }
    const jobs = await t.server.ctx.db.selectFrom('actions_jobs').select('id').where('account_id', '=', org.id).execute();
    assert.equal(jobs.length, 1, 'refused reports record nothing');

    // Workflow restrictions.
    await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: g.id, name: 'team', restricted_to_workflows: true,
      selected_workflows: [`${org.login}/${priv.repo}/.github/workflows/deploy.yml@main`] });
    assert.equal((await asRunner('/actions/runner/jobs', a.credential, { ...job, repository: `${org.login}/${priv.repo}` })).status, 403);
    assert.equal((await asRunner('/actions/runner/jobs', a.credential, { ...job, workflow_path: '.github/workflows/deploy.yml', ref: 'main', repository: `${org.login}/${priv.repo}` })).status, 201);
    assert.equal((await asRunner('/actions/runner/jobs', a.credential, { ...job, workflow_path: '.github/workflows/deploy.yml', ref: 'dev', repository: `${org.login}/${priv.repo}` })).status, 403);
    // An entry without a ref allows the file at any ref.
    await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: g.id, name: 'team', selected_workflows: [`${org.login}/${priv.repo}/.github/workflows/deploy.yml`] });
    assert.equal((await asRunner('/actions/runner/jobs', a.credential, { ...job, workflow_path: '.github/workflows/deploy.yml', ref: 'dev', repository: `${org.login}/${priv.repo}` })).status, 201);

    // Set, add, remove runners; removal returns a runner to Default.
    const def = (await kit.rest.actions.listSelfHostedRunnerGroupsForOrg({ org: org.login })).data.runner_groups.find((x) => x.default)!;
    await kit.rest.actions.setSelfHostedRunnersInGroupForOrg({ org: org.login, runner_group_id: g.id, runners: [b.id] });
    assert.deepEqual((await members(g.id)).runners.map((r) => r.id), [b.id]);
    assert.ok((await members(def.id)).runners.some((r) => r.id === a.id), 'a runner left out goes to Default');
    await kit.rest.actions.addSelfHostedRunnerToGroupForOrg({ org: org.login, runner_group_id: g.id, runner_id: a.id });
    await kit.rest.actions.removeSelfHostedRunnerFromGroupForOrg({ org: org.login, runner_group_id: g.id, runner_id: b.id });
    assert.deepEqual((await members(g.id)).runners.map((r) => r.id), [a.id]);
    await failsWith(kit.rest.actions.removeSelfHostedRunnerFromGroupForOrg({ org: org.login, runner_group_id: def.id, runner_id: b.id }), 422);
    await failsWith(kit.rest.actions.addSelfHostedRunnerToGroupForOrg({ org: org.login, runner_group_id: g.id, runner_id: 999999 }), 404);

    const del = await send('DELETE', `${groupsPath()}/${g.id}`, org.owner.token);
    assert.equal(del.status, 204);
    await failsWith(kit.rest.actions.getSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: g.id }), 404);
    const { data: runnerA } = await kit.rest.actions.getSelfHostedRunnerForOrg({ org: org.login, runner_id: a.id });
    assert.equal((runnerA as { runner_group_id?: number }).runner_group_id, def.id);

    // A runner registered into a named group.
    const { data: named } = await kit.rest.actions.createSelfHostedRunnerGroupForOrg({ org: org.login, name: 'named' });
    const c = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'g-c', runner_group: 'NAMED' });
    assert.equal(c.body.runner_group_id, named.id);

    // An ephemeral runner is gone after its one job.
    const e = await registerRunner(`/orgs/${org.login}/actions/runners/registration-token`, org.owner.token, { name: 'g-e', ephemeral: true });
    assert.equal(e.body.ephemeral, true);
    await kit.rest.actions.updateSelfHostedRunnerGroupForOrg({ org: org.login, runner_group_id: def.id, name: 'Default', allows_public_repositories: true });
    assert.equal((await asRunner('/actions/runner/jobs', e.credential, { ...job, repository: `${org.login}/${pub.repo}` })).status, 201);
    assert.equal((await send('GET', `/orgs/${org.login}/actions/runners/${e.id}`, org.owner.token)).status, 404);
    assert.equal((await asRunner('/actions/runner/heartbeat', e.credential, {})).status, 401);
    const tok = await send('POST', `/orgs/${org.login}/actions/runners/registration-token`, org.owner.token);
    assert.equal((await asRunner('/actions/runner/register', null, { token: tok.body.token, name: 'g-d', os: 'Linux', runner_group: 'ghost' })).status, 422);
    assert.equal((await asRunner('/actions/runner/register', null, { token: tok.body.token, name: 'g-d', os: 'Plan9' })).status, 422);
  });

  test('paging the group list', async () => {
    const res = await send('GET', `${groupsPath()}?per_page=1&page=2`, org.owner.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.runner_groups.length, 1);
    assert.ok(res.body.total_count > 2);
    assert.match(res.headers.get('link') ?? '', /rel="next"/);
    assert.match(res.headers.get('link') ?? '', /rel="prev"/);
  });
});

