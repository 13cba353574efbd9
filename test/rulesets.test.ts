// Repository rulesets through Octokit and the git binary: CRUD of …/rulesets (records
// checked against the published OpenAPI schemas, bad input refused with nothing
// changed, webhook events recorded), …/rules/branches/{branch}, and the rules enforced
// on pushes (GH013), on the refs API and on merges — through the same paths as classic
// branch protection — with enforcement levels and bypass actors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { requestJson } from './helpers/json-request.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { cloneAs, commitFiles, repoWithFeature, uniqueName, type Clone } from './factories/pulls.ts';
import { git, gitOk } from './helpers/git.ts';
import { headerOf, Receiver } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';

let t: TestServer;
const receiver = new Receiver();
const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_POLL_MS: '200' };
before(async () => { await receiver.start(); t = await startTestServer({ env: ENV }); });
after(async () => { await t.close(); await receiver.stop(); });

const RULESETS = '/repos/{owner}/{repo}/rulesets';
const RULESET = '/repos/{owner}/{repo}/rulesets/{ruleset_id}';

async function rows(repositoryId: number) {
  return t.server.ctx.db.selectFrom('repository_rulesets').select(['id', 'name', 'enforcement', 'rules']).where('repository_id', '=', repositoryId).orderBy('id').execute();
}

async function events(repositoryId: number) {
  const found = await t.server.ctx.db.selectFrom('outbox').select(['action', 'payload'])
    .where('event', '=', 'repository_ruleset').where('repository_id', '=', repositoryId).orderBy('id').execute();
  return found.map((e) => ({ action: e.action, payload: JSON.parse(e.payload) as Record<string, unknown> }));
}

async function tryPush(c: Clone, ...args: string[]) {
  const r = await git(['push', 'origin', ...args], { cwd: c.dir });
  return { code: r.code, stderr: r.stderr };
}

async function serverSha(owner: string, repo: string, ref: string): Promise<string | null> {
  const res = await requestJson(t, 'GET', `/repos/${owner}/${repo}/git/ref/${ref}`, undefined);
  return res.status === 200 ? res.body.object.sha : null;
}

describe('…/rulesets: create, read, list, update, delete', () => {
  let owner: CreatedUser;
  let repo: string;
  let id: number;
  before(async () => {
    owner = await createUser(t);
    const made = await t.octokit(owner.token).rest.repos.createForAuthenticatedUser({ name: uniqueName(), auto_init: true });
    repo = made.data.name;
    id = made.data.id;
    await t.octokit(owner.token).rest.repos.createWebhook({
      owner: owner.login, repo, events: ['repository_ruleset'], config: { url: receiver.url(`/${repo}`), content_type: 'json' },
    });
  });

  test('POST answers the published record (201) and records a created event; GET, the list and PUT follow it', async () => {
    const kit = t.octokit(owner.token);
    const res = await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'main rules', enforcement: 'active',
      bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: ['refs/heads/release/old'] } },
      rules: [
        { type: 'non_fast_forward' },
        { type: 'pull_request', parameters: { required_approving_review_count: 2, dismiss_stale_reviews_on_push: true, require_code_owner_review: false, require_last_push_approval: true, required_review_thread_resolution: false } },
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-' } },
      ],
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', RULESETS, 201, res.data);
    const rsId = res.data.id;
    assert.equal(res.headers.location, `${t.baseUrl}/repos/${owner.login}/${repo}/rulesets/${rsId}`);
    assert.equal(res.data.name, 'main rules');
    assert.equal(res.data.target, 'branch');
    assert.equal(res.data.source_type, 'Repository');
    assert.equal(res.data.source, `${owner.login}/${repo}`);
    assert.equal(res.data.current_user_can_bypass, 'always');
    assert.deepEqual(res.data.bypass_actors, [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }]);
    assert.deepEqual(res.data.conditions, { ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: ['refs/heads/release/old'] } });
    assert.deepEqual(res.data.rules?.map((r) => r.type), ['non_fast_forward', 'pull_request', 'commit_message_pattern']);
    assert.equal(typeof res.data.node_id, 'string');
    assert.equal(res.data._links?.self?.href, `${t.baseUrl}/repos/${owner.login}/${repo}/rulesets/${rsId}`);

    const got = await kit.rest.repos.getRepoRuleset({ owner: owner.login, repo, ruleset_id: rsId });
    assertMatchesOpenApi('GET', RULESET, 200, got.data);
    assert.deepEqual(got.data, res.data);

    const list = await kit.rest.repos.getRepoRulesets({ owner: owner.login, repo, includes_parents: true });
    assertMatchesOpenApi('GET', RULESETS, 200, list.data);
    assert.deepEqual(list.data.map((r) => [r.id, r.name, r.enforcement]), [[rsId, 'main rules', 'active']]);
    // Each item is the whole record (bypass actors, what the caller may bypass, conditions, rules), as GET answers it.
    assert.deepEqual(list.data, [got.data]);

    const put = await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: rsId, name: 'renamed', enforcement: 'evaluate' });
    assertMatchesOpenApi('PUT', RULESET, 200, put.data);
    assert.equal(put.data.name, 'renamed');
    assert.equal(put.data.enforcement, 'evaluate');
    // What PUT omits stays.
    assert.deepEqual(put.data.rules, res.data.rules);
    assert.deepEqual(put.data.conditions, res.data.conditions);
    assert.deepEqual((await rows(id)).map((r) => [r.name, r.enforcement]), [['renamed', 'evaluate']]);

    // GraphQL reads the same ruleset: node(id:) resolves the REST node_id.
    type Node = { databaseId: number; name: string; enforcement: string; target: string; conditions: { refName: { include: string[]; exclude: string[] } } };
    const data = await gql(t, owner.token)<{ node: Node; repository: { rulesets: { totalCount: number; nodes: { id: string }[] }; ruleset: Node | null; missing: Node | null } }>(
      `query($id: ID!, $owner: String!, $name: String!, $db: Int!) {
        node(id: $id) { ... on RepositoryRuleset { databaseId name enforcement target conditions { refName { include exclude } } } }
        repository(owner: $owner, name: $name) {
          rulesets(first: 5) { totalCount nodes { id } }
          ruleset(databaseId: $db) { name }
          missing: ruleset(databaseId: 999999) { name }
        }
      }`, { id: put.data.node_id, owner: owner.login, name: repo, db: rsId });
    assert.deepEqual(data.node, {
      databaseId: rsId, name: 'renamed', enforcement: 'EVALUATE', target: 'BRANCH',
      conditions: { refName: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: ['refs/heads/release/old'] } },
    });
    assert.deepEqual(data.repository.rulesets, { totalCount: 1, nodes: [{ id: put.data.node_id }] });
    assert.equal(data.repository.ruleset?.name, 'renamed');
    assert.equal(data.repository.missing, null);

    const hooks = await events(id);
    assert.deepEqual(hooks.map((e) => e.action), ['created', 'edited']);
    assert.equal((hooks[0]!.payload.repository_ruleset as { id: number }).id, rsId);
    assert.deepEqual(hooks[1]!.payload.changes, { name: { from: 'main rules' }, enforcement: { from: 'active' } });
    // Delivered as the published repository_ruleset payloads.
    const delivered = await receiver.waitFor(2, (r) => r.path === `/${repo}` && headerOf(r, 'x-github-event') !== 'ping');
    for (const [i, action] of (['created', 'edited'] as const).entries()) {
      assert.equal(headerOf(delivered[i]!, 'x-github-event'), 'repository_ruleset');
      const body = JSON.parse(delivered[i]!.body) as { action: string; repository_ruleset: { id: number }; repository: { name: string } };
      assertMatchesWebhookSchema('repository_ruleset', action, body);
      assert.equal(body.action, action);
      assert.equal(body.repository_ruleset.id, rsId);
      assert.equal(body.repository.name, repo);
    }
  });

  test('paging the list: per_page and Link', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.createRepoRuleset({ owner: owner.login, repo, name: 'second', enforcement: 'disabled', target: 'tag' });
    const first = await kit.rest.repos.getRepoRulesets({ owner: owner.login, repo, per_page: 1 });
    assert.equal(first.data.length, 1);
    assert.match(first.headers.link ?? '', /rel="next"/);
    const second = await kit.rest.repos.getRepoRulesets({ owner: owner.login, repo, per_page: 1, page: 2 });
    assert.deepEqual(second.data.map((r) => r.name), ['second']);
    const tags = await requestJson(t, 'GET', `/repos/${owner.login}/${repo}/rulesets?targets=tag`, owner.token);
    assert.deepEqual(tags.body.map((r: { name: string }) => r.name), ['second']);
  });

  test('bad input is a 422 with the error body, and changes nothing', async () => {
    const kit = t.octokit(owner.token);
    const before = await rows(id);
    const post = (body: unknown) => requestJson(t, 'POST', `/repos/${owner.login}/${repo}/rulesets`, owner.token, body);
    const badEnforcement = await post({ name: 'x', enforcement: 'enabled' });
    assert.equal(badEnforcement.status, 422);
    const missingName = await post({ enforcement: 'active' });
    assert.equal(missingName.status, 422);
    const blank = await post({ name: '  ', enforcement: 'active' });
    assert.equal(blank.status, 422);
    assert.equal(blank.body.errors[0].field, 'name');
    const unknownRule = await post({ name: 'x', enforcement: 'active', rules: [{ type: 'no_such_rule' }] });
    assert.equal(unknownRule.status, 422);
    assert.equal(unknownRule.body.message, 'Validation Failed');
    assert.deepEqual(unknownRule.body.errors, [{ resource: 'Ruleset', field: 'rules', code: 'invalid', message: "Invalid rule type 'no_such_rule'" }]);
    const badCount = await post({
      name: 'x', enforcement: 'active',
      rules: [{ type: 'pull_request', parameters: { required_approving_review_count: 11, dismiss_stale_reviews_on_push: false, require_code_owner_review: false, require_last_push_approval: false, required_review_thread_resolution: false } }],
    });
    assert.equal(badCount.status, 422);
    assert.match(badCount.body.errors[0].message, /required_approving_review_count/);
    const missingParam = await post({ name: 'x', enforcement: 'active', rules: [{ type: 'required_status_checks', parameters: { required_status_checks: [] } }] });
    assert.equal(missingParam.status, 422);
    assert.match(missingParam.body.errors[0].message, /strict_required_status_checks_policy/);
    // OrganizationAdmin bypass cannot apply to a user's repository.
    const orgAdmin = await post({ name: 'x', enforcement: 'active', bypass_actors: [{ actor_type: 'OrganizationAdmin', bypass_mode: 'always' }] });
    assert.equal(orgAdmin.status, 422);
    const dup = await failsWith(kit.rest.repos.createRepoRuleset({ owner: owner.login, repo, name: 'renamed', enforcement: 'active' }), 422);
    assert.deepEqual(dup.errors, [{ resource: 'Ruleset', field: 'name', code: 'already_exists', message: 'Name must be unique' }]);
    const rsId = before[0]!.id;
    const badPut = await requestJson(t, 'PUT', `/repos/${owner.login}/${repo}/rulesets/${rsId}`, owner.token, { rules: [{ type: 'max_file_size', parameters: { max_file_size: 0 } }] });
    assert.equal(badPut.status, 422);
    assert.deepEqual(await rows(id), before);
  });

  test('unknown ids are 404; a writer may read but not write (403); a stranger to a private repository gets 404', async () => {
    const kit = t.octokit(owner.token);
    await failsWith(kit.rest.repos.getRepoRuleset({ owner: owner.login, repo, ruleset_id: 999999 }), 404);
    await failsWith(kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: 999999, name: 'x' }), 404);
    await failsWith(kit.rest.repos.deleteRepoRuleset({ owner: owner.login, repo, ruleset_id: 999999 }), 404);
    const writer = await createUser(t);
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    const [first] = await rows(id);
    const seen = await t.octokit(writer.token).rest.repos.getRepoRuleset({ owner: owner.login, repo, ruleset_id: first!.id });
    assert.equal(seen.data.current_user_can_bypass, 'never');
    await failsWith(t.octokit(writer.token).rest.repos.createRepoRuleset({ owner: owner.login, repo, name: 'w', enforcement: 'active' }), 403);
    await failsWith(t.octokit(writer.token).rest.repos.deleteRepoRuleset({ owner: owner.login, repo, ruleset_id: first!.id }), 403);

    const secret = (await kit.rest.repos.createForAuthenticatedUser({ name: uniqueName(), private: true })).data;
    const made = await kit.rest.repos.createRepoRuleset({ owner: owner.login, repo: secret.name, name: 'p', enforcement: 'active' });
    const stranger = await createUser(t);
    await failsWith(t.octokit(stranger.token).rest.repos.getRepoRuleset({ owner: owner.login, repo: secret.name, ruleset_id: made.data.id }), 404);
    await failsWith(t.octokit(stranger.token).rest.repos.getRepoRulesets({ owner: owner.login, repo: secret.name }), 404);
    await failsWith(t.octokit(stranger.token).rest.repos.deleteRepoRuleset({ owner: owner.login, repo: secret.name, ruleset_id: made.data.id }), 404);
    const hidden = await graphqlErrors(gql(t, stranger.token)('query($id: ID!) { node(id: $id) { id } }', { id: made.data.node_id }));
    assert.equal(hidden.errors[0]?.type, 'NOT_FOUND');
    assert.equal((await rows(secret.id)).length, 1);
  });

  test('DELETE removes the ruleset (204) and records a deleted event; then 404', async () => {
    const kit = t.octokit(owner.token);
    const [first] = await rows(id);
    const res = await kit.rest.repos.deleteRepoRuleset({ owner: owner.login, repo, ruleset_id: first!.id });
    assert.equal(res.status, 204);
    assert.deepEqual((await rows(id)).map((r) => r.name), ['second']);
    await failsWith(kit.rest.repos.getRepoRuleset({ owner: owner.login, repo, ruleset_id: first!.id }), 404);
    assert.equal((await events(id)).at(-1)?.action, 'deleted');
  });
});

describe('rulesets on pushes and the refs API', () => {
  let owner: CreatedUser;
  let writer: CreatedUser;
  let clone: Clone;
  let writerClone: Clone;
  let repo: string;
  let rsId: number;
  before(async () => {
    owner = await createUser(t);
    writer = await createUser(t);
    const made = await repoWithFeature(t, owner);
    clone = made.clone;
    repo = clone.repo;
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    writerClone = await cloneAs(t, owner.login, repo, writer);
    rsId = (await t.octokit(owner.token).rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'no rewrites', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: [] } },
      rules: [{ type: 'non_fast_forward' }, { type: 'deletion' }],
    })).data.id;
  });

  const setRuleset = (fields: Record<string, unknown>) =>
    t.octokit(owner.token).rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: rsId, ...fields });

  test('GET …/rules/branches/{branch} lists the active rules with their ruleset', async () => {
    const kit = t.octokit(owner.token);
    const main = await kit.rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'main' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/rules/branches/{branch}', 200, main.data);
    assert.deepEqual(main.data, [
      { type: 'non_fast_forward', ruleset_source_type: 'Repository', ruleset_source: `${owner.login}/${repo}`, ruleset_id: rsId },
      { type: 'deletion', ruleset_source_type: 'Repository', ruleset_source: `${owner.login}/${repo}`, ruleset_id: rsId },
    ]);
    // fnmatch: release/* covers release/x, not release itself nor release/x/y.
    assert.equal((await kit.rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'release/x' })).data.length, 2);
    assert.equal((await kit.rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'release' })).data.length, 0);
    assert.equal((await kit.rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'release/x/y' })).data.length, 0);
    assert.equal((await kit.rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'feature' })).data.length, 0);
  });

  test('…/branches and …/branches/{branch} call a branch an active ruleset covers protected (no classic rule here); evaluate does not', async () => {
    const kit = t.octokit(writer.token);
    const at = { owner: owner.login, repo };
    const listed = await kit.rest.repos.listBranches(at);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches', 200, listed.data);
    assert.deepEqual(listed.data.map((b) => [b.name, b.protected]), [['feature', false], ['main', true]]);
    assert.deepEqual((await kit.rest.repos.listBranches({ ...at, protected: true })).data.map((b) => b.name), ['main']);
    assert.deepEqual((await kit.rest.repos.listBranches({ ...at, protected: false })).data.map((b) => b.name), ['feature']);
    const main = await kit.rest.repos.getBranch({ ...at, branch: 'main' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches/{branch}', 200, main.data);
    assert.equal(main.data.protected, true);
    assert.equal((await kit.rest.repos.getBranch({ ...at, branch: 'feature' })).data.protected, false);
    await setRuleset({ enforcement: 'evaluate' });
    assert.equal((await kit.rest.repos.getBranch({ ...at, branch: 'main' })).data.protected, false);
    assert.deepEqual((await kit.rest.repos.listBranches({ ...at, protected: true })).data, []);
    await setRuleset({ enforcement: 'active' });
  });

  test('a force push is refused with GH013 and the rule, even for the admin; the branch stays', async () => {
    const before = await serverSha(owner.login, repo, 'heads/main');
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: clone.dir });
    await commitFiles(clone, { 'rewrite.txt': 'x\n' }, 'Rewritten');
    const r = await tryPush(clone, '--force', 'main');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH013: Repository rule violations found for refs\/heads\/main\./);
    assert.match(r.stderr, /remote: - Cannot force-push to this branch/);
    assert.match(r.stderr, /Review all repository rules at .*\/rules\?ref=refs%2Fheads%2Fmain/);
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), before);
    // The refs API says the same.
    const parent = (await t.octokit(owner.token).rest.git.getCommit({ owner: owner.login, repo, commit_sha: before! })).data.parents[0]!.sha;
    const e = await failsWith(t.octokit(owner.token).rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: parent, force: true }), 422);
    assert.equal(e.message, 'Repository rule violations found\n\nCannot force-push to this branch\n\n');
  });

  test('deleting a covered branch is refused, by push and by the refs API', async () => {
    await gitOk(['push', '-q', 'origin', 'HEAD:refs/heads/release/x'], { cwd: writerClone.dir });
    const d = await tryPush(writerClone, '--delete', 'release/x');
    assert.notEqual(d.code, 0);
    assert.match(d.stderr, /GH013: Repository rule violations found for refs\/heads\/release\/x\./);
    assert.match(d.stderr, /- Cannot delete this branch/);
    const e = await failsWith(t.octokit(writer.token).rest.git.deleteRef({ owner: owner.login, repo, ref: 'heads/release/x' }), 422);
    assert.match(e.message, /Cannot delete this branch/);
    assert.ok(await serverSha(owner.login, repo, 'heads/release/x'));
  });

  test('evaluate and disabled rulesets do not block', async () => {
    await setRuleset({ enforcement: 'evaluate' });
    assert.equal((await t.octokit(owner.token).rest.repos.getBranchRules({ owner: owner.login, repo, branch: 'main' })).data.length, 0);
    const r = await tryPush(clone, '--force', 'main');
    assert.equal(r.code, 0, r.stderr);
    await setRuleset({ enforcement: 'disabled' });
    const d = await tryPush(writerClone, '--delete', 'release/x');
    assert.equal(d.code, 0, d.stderr);
    assert.equal(await serverSha(owner.login, repo, 'heads/release/x'), null);
    await setRuleset({ enforcement: 'active' });
  });

  test('a repository admin bypass actor lets the admin force-push; the writer stays bound', async () => {
    await setRuleset({ bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }] });
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: clone.dir });
    const sha = await commitFiles(clone, { 'admin.txt': 'a\n' }, 'Admin rewrite');
    const r = await tryPush(clone, '--force', 'main');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), sha);
    // Upstream's notice names what was bypassed, a line per rule.
    assert.match(r.stderr, /remote: Bypassed rule violations for refs\/heads\/main:\s*\nremote:\s*\nremote: - Cannot force-push to this branch\s*\nremote:\s*\n/);
    assert.doesNotMatch(r.stderr, /GH013|Cannot delete/);
    // A fast-forward breaks nothing: no notice.
    const ffSha = await commitFiles(clone, { 'admin2.txt': 'b\n' }, 'Admin fast-forward');
    const ff = await tryPush(clone, 'main');
    assert.equal(ff.code, 0, ff.stderr);
    assert.doesNotMatch(ff.stderr, /Bypassed/);
    await gitOk(['fetch', '-q', 'origin'], { cwd: writerClone.dir });
    await gitOk(['reset', '-q', '--hard', 'origin/main~1'], { cwd: writerClone.dir });
    await commitFiles(writerClone, { 'writer.txt': 'w\n' }, 'Writer rewrite');
    const w = await tryPush(writerClone, '--force', 'HEAD:main');
    assert.notEqual(w.code, 0);
    assert.match(w.stderr, /Cannot force-push to this branch/);
    assert.doesNotMatch(w.stderr, /Bypassed/);
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), ffSha);
  });

  test('a tag ruleset refuses creating, moving and deleting matching tags, by push and by the refs API', async () => {
    const kit = t.octokit(owner.token);
    await gitOk(['fetch', '-q', 'origin'], { cwd: clone.dir });
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
    await gitOk(['tag', 'v1.0'], { cwd: clone.dir });
    await gitOk(['push', '-q', 'origin', 'v1.0'], { cwd: clone.dir });
    await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'release tags', target: 'tag', enforcement: 'active',
      conditions: { ref_name: { include: ['refs/tags/v*'], exclude: [] } },
      rules: [{ type: 'creation' }, { type: 'update' }, { type: 'deletion' }],
    });
    await gitOk(['tag', 'v2.0'], { cwd: clone.dir });
    const created = await tryPush(clone, 'v2.0');
    assert.notEqual(created.code, 0);
    assert.match(created.stderr, /GH013: Repository rule violations found for refs\/tags\/v2\.0\./);
    assert.match(created.stderr, /- Cannot create ref due to creations being restricted\./);
    const deleted = await tryPush(clone, '--delete', 'v1.0');
    assert.notEqual(deleted.code, 0);
    assert.match(deleted.stderr, /- Cannot delete this tag/);
    const head = (await gitOk(['rev-parse', 'HEAD~1'], { cwd: clone.dir })).trim();
    const moved = await tryPush(clone, '--force', `${head}:refs/tags/v1.0`);
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /- Cannot update this protected ref\./);
    const api = await failsWith(kit.rest.git.createRef({ owner: owner.login, repo, ref: 'refs/tags/v3.0', sha: head }), 422);
    assert.match(api.message, /Cannot create ref due to creations being restricted\./);
    await failsWith(kit.rest.git.deleteRef({ owner: owner.login, repo, ref: 'tags/v1.0' }), 422);
    assert.equal(await serverSha(owner.login, repo, 'tags/v2.0'), null);
    assert.ok(await serverSha(owner.login, repo, 'tags/v1.0'));
    // Other tags are not covered.
    await gitOk(['tag', 'nightly'], { cwd: clone.dir });
    const other = await tryPush(clone, 'nightly');
    assert.equal(other.code, 0, other.stderr);
  });
});

describe('rulesets on merges', () => {
  let owner: CreatedUser;
  let repo: string;
  let featureSha: string;
  let number: number;
  let rsId: number;
  before(async () => {
    owner = await createUser(t);
    const made = await repoWithFeature(t, owner);
    repo = made.clone.repo;
    featureSha = made.featureSha;
    const kit = t.octokit(owner.token);
    rsId = (await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'checks', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      rules: [{ type: 'required_status_checks', parameters: { strict_required_status_checks_policy: false, required_status_checks: [{ context: 'ci' }] } }],
    })).data.id;
    number = (await kit.rest.pulls.create({ owner: owner.login, repo, head: 'feature', base: 'main', title: 'Feature' })).data.number;
  });

  async function mergeableState(): Promise<string | undefined> {
    return (await t.octokit(owner.token).rest.pulls.get({ owner: owner.login, repo, pull_number: number })).data.mergeable_state;
  }

  test('required_status_checks blocks the merge, for the admin too (405) until the check passes', async () => {
    const kit = t.octokit(owner.token);
    assert.equal(await mergeableState(), 'blocked');
    const e = await failsWith(kit.rest.pulls.merge({ owner: owner.login, repo, pull_number: number }), 405);
    assert.equal(e.message, 'Required status check "ci" is expected.');
    await kit.rest.repos.createCommitStatus({ owner: owner.login, repo, sha: featureSha, state: 'failure', context: 'ci' });
    const failing = await failsWith(kit.rest.pulls.merge({ owner: owner.login, repo, pull_number: number }), 405);
    assert.equal(failing.message, 'Required status check "ci" is failing.');
    // Evaluate mode reports nothing blocking.
    await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: rsId, enforcement: 'evaluate' });
    assert.equal(await mergeableState(), 'unstable');
    await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: rsId, enforcement: 'active' });
    await kit.rest.repos.createCommitStatus({ owner: owner.login, repo, sha: featureSha, state: 'success', context: 'ci' });
    assert.equal(await mergeableState(), 'clean');
    const merged = await kit.rest.pulls.merge({ owner: owner.login, repo, pull_number: number });
    assert.equal(merged.data.merged, true);
  });

  test('a pull_request bypass actor may merge past the rules; mergeable_state still says blocked', async () => {
    const kit = t.octokit(owner.token);
    const rs = await kit.rest.repos.updateRepoRuleset({
      owner: owner.login, repo, ruleset_id: rsId,
      bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'pull_request' }],
      rules: [{ type: 'pull_request', parameters: { required_approving_review_count: 1, dismiss_stale_reviews_on_push: false, require_code_owner_review: false, require_last_push_approval: false, required_review_thread_resolution: false } }],
    });
    assert.equal(rs.data.current_user_can_bypass, 'pull_requests_only');
    const main = (await kit.rest.git.getRef({ owner: owner.login, repo, ref: 'heads/main' })).data.object.sha;
    await kit.rest.git.createRef({ owner: owner.login, repo, ref: 'refs/heads/more', sha: main });
    await kit.rest.repos.createOrUpdateFileContents({ owner: owner.login, repo, branch: 'more', path: 'more.txt', message: 'More', content: Buffer.from('m\n').toString('base64') });
    const pr = (await kit.rest.pulls.create({ owner: owner.login, repo, head: 'more', base: 'main', title: 'More' })).data.number;
    const state = (await kit.rest.pulls.get({ owner: owner.login, repo, pull_number: pr })).data.mergeable_state;
    assert.equal(state, 'blocked');
    // A writer holds no bypass: the same merge is refused them.
    const writer = await createUser(t);
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    const e = await failsWith(t.octokit(writer.token).rest.pulls.merge({ owner: owner.login, repo, pull_number: pr }), 405);
    assert.equal(e.message, 'At least 1 approving review is required by reviewers with write access.');
    // Nor may they write to main through the contents API (the same rules, upstream's 409).
    const contents = await failsWith(t.octokit(writer.token).rest.repos.createOrUpdateFileContents({
      owner: owner.login, repo, path: 'direct.txt', message: 'Direct', content: Buffer.from('d\n').toString('base64'),
    }), 409);
    assert.equal(contents.message, 'Repository rule violations found\n\nChanges must be made through a pull request.\n\n');
    const merged = await kit.rest.pulls.merge({ owner: owner.login, repo, pull_number: pr });
    assert.equal(merged.data.merged, true);
  });
});

describe('classic push restrictions naming a parent team', () => {
  test('members of its child teams may push, others may not', async () => {
    const org = await createOrgWithOwner(t);
    const kit = t.octokit(org.owner.token);
    const name = `restricted-${process.pid}`;
    await kit.rest.repos.createInOrg({ org: org.login, name, auto_init: true });
    const parent = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const child = await createTeam(t, org.owner.token, org.login, { privacy: 'closed', parent_team_id: parent.id });
    const member = await addMember(t, org);
    const outsider = await addMember(t, org);
    await kit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: child.slug, username: member.login });
    for (const u of [member, outsider]) await kit.rest.repos.addCollaborator({ owner: org.login, repo: name, username: u.login, permission: 'push' });
    await kit.rest.repos.updateBranchProtection({
      owner: org.login, repo: name, branch: 'main', required_status_checks: null, enforce_admins: true,
      required_pull_request_reviews: null, restrictions: { users: [], teams: [parent.slug] },
    });
    // Through the contents API, which asks the same rule as a push.
    const file = (path: string) => ({ owner: org.login, repo: name, path, message: 'Add', content: Buffer.from('x\n').toString('base64') });
    const ok = await t.octokit(member.token).rest.repos.createOrUpdateFileContents(file('child.txt'));
    assert.equal(ok.status, 201);
    const e = await failsWith(t.octokit(outsider.token).rest.repos.createOrUpdateFileContents(file('out.txt')), 409);
    assert.match(e.message, /You're not authorized to push to this branch/);
  });
});
