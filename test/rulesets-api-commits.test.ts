// Rulesets' commit metadata patterns (commit_message_pattern, commit_author_email_pattern,
// committer_email_pattern) judged on the commits the API writes itself: the contents
// API (PUT and DELETE …/contents/{path}, a 409 with the rule's words) and GraphQL's
// createCommitOnBranch (a GraphQL error), as pushes and the refs API are judged. A
// refusal writes nothing: the branch stays and no file changes. Commits that keep the
// rules land; other branches and bypass actors are not judged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { requestJson } from './helpers/json-request.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { uniqueName } from './factories/pulls.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('commit patterns on commits made through the API', () => {
  let owner: CreatedUser;
  let repo: string;
  let rulesetId: number;

  async function head(branch = 'main'): Promise<string> {
    const res = await requestJson(t, 'GET', `/repos/${owner.login}/${repo}/git/ref/heads/${branch}`, undefined);
    assert.equal(res.status, 200);
    return res.body.object.sha;
  }

  async function putFile(path: string, message: string, extra: Record<string, unknown> = {}) {
    return requestJson(t, 'PUT', `/repos/${owner.login}/${repo}/contents/${path}`, owner.token, { message, content: b64(`${path}\n`), ...extra });
  }

  async function commitOnBranch(expectedHeadOid: string, headline: string, branchName = 'main') {
    return gql(t, owner.token)<{ createCommitOnBranch: { commit: { oid: string } } }>(`
      mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`, {
      input: {
        branch: { repositoryNameWithOwner: `${owner.login}/${repo}`, branchName }, expectedHeadOid,
        fileChanges: { additions: [{ path: 'g.txt', contents: b64(headline) }] }, message: { headline },
      },
    });
  }

  before(async () => {
    owner = await createUser(t);
    repo = uniqueName();
    const kit = t.octokit(owner.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
    await kit.rest.git.createRef({ owner: owner.login, repo, ref: 'refs/heads/side', sha: await head() });
    rulesetId = (await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'commit hygiene', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      rules: [
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-' } },
        { type: 'committer_email_pattern', parameters: { operator: 'ends_with', pattern: '@example.com' } },
        { type: 'commit_author_email_pattern', parameters: { operator: 'contains', pattern: 'robot', negate: true } },
      ],
    })).data.id;
  });

  test('contents PUT: a message or committer breaking a rule is a 409 naming each rule, and nothing is written', async () => {
    const before = await head();
    const res = await putFile('a.txt', 'quick fix', { committer: { name: 'Dev', email: 'dev@elsewhere.org' } });
    assert.equal(res.status, 409);
    assert.equal(res.body.message, 'Repository rule violations found\n\nCommit message must start with a matching pattern: JIRA-\n\nCommitter email must end with a matching pattern: @example.com\n\n');
    assert.equal(await head(), before);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${repo}/contents/a.txt`, owner.token)).status, 404);

    const author = await putFile('a.txt', 'JIRA-1 add a', {
      committer: { name: 'Dev', email: 'dev@example.com' }, author: { name: 'Bot', email: 'robot@example.com' },
    });
    assert.equal(author.status, 409);
    assert.equal(author.body.message, 'Repository rule violations found\n\nCommit author email must not contain a matching pattern: robot\n\n');
    assert.equal(await head(), before);
  });

  test('contents PUT and DELETE: a commit keeping the rules lands; a DELETE breaking them is a 409 and the file stays', async () => {
    const ok = await putFile('b.txt', 'JIRA-2 add b', { committer: { name: 'Dev', email: 'dev@example.com' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const blob = ok.body.content.sha as string;
    const at = await head();
    assert.equal(at, ok.body.commit.sha);

    const del = await requestJson(t, 'DELETE', `/repos/${owner.login}/${repo}/contents/b.txt`, owner.token, {
      message: 'remove b', sha: blob, committer: { name: 'Dev', email: 'dev@example.com' },
    });
    assert.equal(del.status, 409);
    assert.equal(del.body.message, 'Repository rule violations found\n\nCommit message must start with a matching pattern: JIRA-\n\n');
    assert.equal(await head(), at);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${repo}/contents/b.txt`, owner.token)).status, 200);
  });

  test('createCommitOnBranch: a message breaking a rule is a GraphQL error and the branch stays; other branches are not judged', async () => {
    // The owner's own address is no @example.com one: a committer rule would refuse every commit here.
    await t.octokit(owner.token).rest.repos.updateRepoRuleset({
      owner: owner.login, repo, ruleset_id: rulesetId,
      rules: [{ type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-' } }],
    });
    const before = await head();
    const { errors } = await graphqlErrors(commitOnBranch(before, 'quick fix'));
    assert.equal(errors[0]!.type, 'UNPROCESSABLE');
    assert.equal(errors[0]!.message, 'Repository rule violations found\n\nCommit message must start with a matching pattern: JIRA-\n\n');
    assert.equal(await head(), before);

    const ok = await commitOnBranch(before, 'JIRA-3 add g');
    assert.equal(await head(), ok.createCommitOnBranch.commit.oid);
    const side = await commitOnBranch(await head('side'), 'anything goes', 'side');
    assert.equal(await head('side'), side.createCommitOnBranch.commit.oid);
    const sideFile = await requestJson(t, 'PUT', `/repos/${owner.login}/${repo}/contents/s.txt`, owner.token, { message: 'free form', content: b64('s'), branch: 'side' });
    assert.equal(sideFile.status, 201);
  });

  test('a bypass actor (repository admin role) commits freely through both', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateRepoRuleset({
      owner: owner.login, repo, ruleset_id: rulesetId,
      bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
    });
    const put = await putFile('c.txt', 'no ticket');
    assert.equal(put.status, 201, JSON.stringify(put.body));
    const r = await commitOnBranch(await head(), 'no ticket either');
    assert.equal(await head(), r.createCommitOnBranch.commit.oid);
    await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: rulesetId, bypass_actors: [] });
  });
});
