// Rulesets' push-content rules enforced on real git pushes: commit message, author and
// committer email patterns (starts_with, ends_with, contains, regex; negate), new
// branch and tag name patterns, and a push ruleset's restricted paths, path length,
// extensions and file size, judged on the commits a push adds. A refusal is upstream's
// GH013 with one line per broken rule (and what broke it); nothing of the push lands.
// The refs API judges the metadata and name patterns too (422). Bad patterns are a 422
// with nothing stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { requestJson } from './helpers/json-request.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { cloneAs, commitFiles, uniqueName, type Clone } from './factories/pulls.ts';
import { git, gitOk } from './helpers/git.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

async function tryPush(c: Clone, args: string[], env?: Record<string, string>) {
  const r = await git(['push', 'origin', ...args], { cwd: c.dir, ...(env ? { env } : {}) });
  return { code: r.code, stderr: r.stderr };
}

async function serverSha(owner: string, repo: string, ref: string): Promise<string | null> {
  const res = await requestJson(t, 'GET', `/repos/${owner}/${repo}/git/ref/${ref}`, undefined);
  return res.status === 200 ? res.body.object.sha : null;
}

/** The `- rule` lines of a GH013 refusal, without git's "remote: " prefix and the padding git adds. */
function ruleLines(stderr: string): string[] {
  return stderr.split('\n').map((l) => l.replace(/^remote: /, '').trimEnd()).filter((l) => l.startsWith('- '));
}

async function newRepo(owner: CreatedUser): Promise<{ repo: string; clone: Clone }> {
  const repo = uniqueName();
  await t.octokit(owner.token).rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
  return { repo, clone: await cloneAs(t, owner.login, repo, owner) };
}

/** Commits whole files as author and committer `email`; returns the commit's sha. */
async function commitAs(c: Clone, email: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(c.dir, name), content);
  await gitOk(['add', '-A'], { cwd: c.dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: c.dir, env: { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email } });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: c.dir })).trim();
}

describe('commit metadata patterns on pushes', () => {
  let owner: CreatedUser;
  let repo: string;
  let clone: Clone;
  before(async () => {
    owner = await createUser(t);
    ({ repo, clone } = await newRepo(owner));
    await t.octokit(owner.token).rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'commit hygiene', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      rules: [
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-' } },
        { type: 'commit_author_email_pattern', parameters: { operator: 'ends_with', pattern: '@example.com' } },
        { type: 'committer_email_pattern', parameters: { operator: 'contains', pattern: 'robot', negate: true } },
      ],
    });
  });

  test('a commit breaking two rules is refused with GH013 and a line for each, naming the commit; the branch stays', async () => {
    const start = await serverSha(owner.login, repo, 'heads/main');
    const sha = await commitAs(clone, 'dev@elsewhere.org', { 'a.txt': 'a\n' }, 'quick fix');
    const r = await tryPush(clone, ['main']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH013: Repository rule violations found for refs\/heads\/main\./);
    assert.match(r.stderr, new RegExp(`remote: Review all repository rules at ${t.baseUrl.replace(/[.]/g, '\\.')}/${owner.login}/${repo}/rules\\?ref=refs%2Fheads%2Fmain`));
    assert.deepEqual(ruleLines(r.stderr), [
      '- Commit message must start with a matching pattern: JIRA-',
      '- Commit author email must end with a matching pattern: @example.com',
    ]);
    assert.match(r.stderr, new RegExp(`Found 1 violation:\\s+remote:\\s+remote:\\s+${sha.slice(0, 7)}`));
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), start);
  });

  test('every new commit is judged: one bad commit among good ones refuses the push; fixed, it lands', async () => {
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
    await commitAs(clone, 'dev@example.com', { 'b.txt': 'b\n' }, 'JIRA-1 first');
    const bad = await commitAs(clone, 'dev@example.com', { 'c.txt': 'c\n' }, 'second, no key');
    await commitAs(clone, 'dev@example.com', { 'd.txt': 'd\n' }, 'JIRA-3 third');
    const r = await tryPush(clone, ['main']);
    assert.notEqual(r.code, 0);
    assert.deepEqual(ruleLines(r.stderr), ['- Commit message must start with a matching pattern: JIRA-']);
    assert.match(r.stderr, new RegExp(bad.slice(0, 7)));

    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
    const good = await commitAs(clone, 'dev@example.com', { 'b.txt': 'b\n' }, 'JIRA-1 all good');
    const ok = await tryPush(clone, ['main']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), good);
  });

  test('negate: a committer email containing the pattern is refused', async () => {
    await commitAs(clone, 'robot@example.com', { 'e.txt': 'e\n' }, 'JIRA-4 by a robot');
    const r = await tryPush(clone, ['main']);
    assert.notEqual(r.code, 0);
    assert.deepEqual(ruleLines(r.stderr), ['- Committer email must not contain a matching pattern: robot']);
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
  });

  test('a regex rule with a name shows the name; other branches are not covered', async () => {
    const kit = t.octokit(owner.token);
    const rs = await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'conventional', enforcement: 'active',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      rules: [{ type: 'commit_message_pattern', parameters: { name: 'Use conventional commits', operator: 'regex', pattern: '^JIRA-\\d+ (feat|fix):' } }],
    });
    await commitAs(clone, 'dev@example.com', { 'f.txt': 'f\n' }, 'JIRA-5 chore: tidy');
    const r = await tryPush(clone, ['main']);
    assert.notEqual(r.code, 0);
    assert.deepEqual(ruleLines(r.stderr), ['- Use conventional commits']);
    // The same commit on a branch no ruleset covers lands.
    const side = await tryPush(clone, ['HEAD:refs/heads/side']);
    assert.equal(side.code, 0, side.stderr);
    // Moving main onto it through the refs API is judged as a push is: 422, main stays.
    const sideSha = await serverSha(owner.login, repo, 'heads/side');
    const mainSha = await serverSha(owner.login, repo, 'heads/main');
    const moved = await requestJson(t, 'PATCH', `/repos/${owner.login}/${repo}/git/refs/heads/main`, owner.token, { sha: sideSha });
    assert.equal(moved.status, 422);
    assert.equal(moved.body.message, 'Repository rule violations found\n\nUse conventional commits\n\n');
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), mainSha);
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
    await commitAs(clone, 'dev@example.com', { 'f.txt': 'f\n' }, 'JIRA-5 fix: tidy');
    const ok = await tryPush(clone, ['main']);
    assert.equal(ok.code, 0, ok.stderr);
    await kit.rest.repos.deleteRepoRuleset({ owner: owner.login, repo, ruleset_id: rs.data.id });
  });

  test('a bypass actor is not judged; evaluate binds nobody', async () => {
    const kit = t.octokit(owner.token);
    const writer = await createUser(t);
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    const { data } = await kit.rest.repos.getRepoRulesets({ owner: owner.login, repo });
    const id = data.find((r) => r.name === 'commit hygiene')!.id;
    await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: id, bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }] });
    await commitAs(clone, 'dev@example.com', { 'g.txt': 'g\n' }, 'admin bypasses');
    const mine = await tryPush(clone, ['main']);
    assert.equal(mine.code, 0, mine.stderr);

    const theirs = await cloneAs(t, owner.login, repo, writer);
    await commitAs(theirs, 'dev@example.com', { 'h.txt': 'h\n' }, 'writer does not');
    const refused = await tryPush(theirs, ['main']);
    assert.notEqual(refused.code, 0);
    assert.deepEqual(ruleLines(refused.stderr), ['- Commit message must start with a matching pattern: JIRA-']);
    await kit.rest.repos.updateRepoRuleset({ owner: owner.login, repo, ruleset_id: id, enforcement: 'evaluate' });
    const now = await tryPush(theirs, ['main']);
    assert.equal(now.code, 0, now.stderr);
  });
});

describe('branch and tag name patterns', () => {
  test('a new branch or tag whose name breaks the pattern is refused; matching names and existing branches are not', async () => {
    const owner = await createUser(t);
    const { repo, clone } = await newRepo(owner);
    const kit = t.octokit(owner.token);
    await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'branch names', enforcement: 'active',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] } },
      rules: [{ type: 'branch_name_pattern', parameters: { operator: 'regex', pattern: '^(main|feature/.+|fix/.+)$' } }],
    });
    await kit.rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'tag names', enforcement: 'active', target: 'tag',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] } },
      rules: [{ type: 'tag_name_pattern', parameters: { operator: 'starts_with', pattern: 'v' } }],
    });
    const wip = await tryPush(clone, ['HEAD:refs/heads/wip']);
    assert.notEqual(wip.code, 0);
    assert.match(wip.stderr, /GH013: Repository rule violations found for refs\/heads\/wip\./);
    assert.deepEqual(ruleLines(wip.stderr), ['- Branch name must match a given regex pattern: ^(main|feature/.+|fix/.+)$']);
    assert.equal(await serverSha(owner.login, repo, 'heads/wip'), null);
    // The refs API judges a new ref's name too.
    const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: clone.dir })).trim();
    const made = await requestJson(t, 'POST', `/repos/${owner.login}/${repo}/git/refs`, owner.token, { ref: 'refs/heads/wip', sha: head });
    assert.equal(made.status, 422);
    assert.equal(made.body.message, 'Repository rule violations found\n\nBranch name must match a given regex pattern: ^(main|feature/.+|fix/.+)$\n\n');
    assert.equal(await serverSha(owner.login, repo, 'heads/wip'), null);
    const feature = await tryPush(clone, ['HEAD:refs/heads/feature/login']);
    assert.equal(feature.code, 0, feature.stderr);
    await commitFiles(clone, { 'x.txt': 'x\n' }, 'More');
    const main = await tryPush(clone, ['main']);
    assert.equal(main.code, 0, main.stderr);

    await gitOk(['tag', 'nightly'], { cwd: clone.dir });
    const nightly = await tryPush(clone, ['nightly']);
    assert.notEqual(nightly.code, 0);
    assert.deepEqual(ruleLines(nightly.stderr), ['- Tag name must start with a matching pattern: v']);
    assert.equal(await serverSha(owner.login, repo, 'tags/nightly'), null);
    await gitOk(['tag', 'v1.0'], { cwd: clone.dir });
    const v1 = await tryPush(clone, ['v1.0']);
    assert.equal(v1.code, 0, v1.stderr);
  });
});

describe('push rulesets: paths, extensions, path length and file size', () => {
  test('a push adding a restricted path, a restricted extension, a long path and a large file is refused with one line each; a clean push lands', async () => {
    const owner = await createUser(t);
    const { repo, clone } = await newRepo(owner);
    await t.octokit(owner.token).rest.repos.createRepoRuleset({
      owner: owner.login, repo, name: 'files', enforcement: 'active', target: 'push',
      rules: [
        { type: 'file_path_restriction', parameters: { restricted_file_paths: ['secrets/**'] } },
        { type: 'max_file_path_length', parameters: { max_file_path_length: 40 } },
        { type: 'file_extension_restriction', parameters: { restricted_file_extensions: ['*.exe'] } },
        { type: 'max_file_size', parameters: { max_file_size: 1 } },
      ],
    });
    const start = await serverSha(owner.login, repo, 'heads/main');
    const long = `docs/${'a'.repeat(40)}.md`;
    await commitFiles(clone, {
      'secrets/prod/key.pem': 'k\n', 'tools/setup.EXE': 'MZ\n', [long]: 'long\n', 'big.bin': 'x'.repeat(1024 * 1024 + 1), 'ok.txt': 'fine\n',
    }, 'Everything at once');
    const r = await tryPush(clone, ['main']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /GH013: Repository rule violations found for refs\/heads\/main\./);
    assert.deepEqual(ruleLines(r.stderr), [
      '- Cannot change restricted file paths: secrets/**',
      '- File paths must be no longer than 40 characters',
      '- Cannot push files with restricted extensions: .exe',
      '- Files must be no larger than 1 MB',
    ]);
    for (const file of ['secrets/prod/key.pem', 'tools/setup.EXE', long, 'big.bin']) assert.match(r.stderr, new RegExp(`remote:\\s+${file.replace(/[.]/g, '\\.')}\\s*\\n`));
    assert.doesNotMatch(r.stderr, /ok\.txt/);
    assert.equal(await serverSha(owner.login, repo, 'heads/main'), start);

    // A push ruleset judges every ref: the same commit on a new branch is refused too.
    const branch = await tryPush(clone, ['HEAD:refs/heads/elsewhere']);
    assert.notEqual(branch.code, 0);
    assert.equal(ruleLines(branch.stderr).length, 4);

    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
    // A file just under the limit, and a path of exactly 40 characters.
    await commitFiles(clone, { 'big.bin': 'x'.repeat(1024 * 1024), [`docs/${'a'.repeat(32)}.md`]: 'ok\n', 'setup.sh': 'echo\n' }, 'Clean');
    const ok = await tryPush(clone, ['main']);
    assert.equal(ok.code, 0, ok.stderr);
  });
});

describe('bad push-content rules', () => {
  test('an invalid regex, a blank pattern, a bad operator or a blank extension is a 422, and nothing is stored', async () => {
    const owner = await createUser(t);
    const { repo } = await newRepo(owner);
    const post = (rules: unknown[]) => requestJson(t, 'POST', `/repos/${owner.login}/${repo}/rulesets`, owner.token, { name: 'x', enforcement: 'active', rules });
    const regex = await post([{ type: 'committer_email_pattern', parameters: { operator: 'regex', pattern: '[a-' } }]);
    assert.equal(regex.status, 422);
    assert.deepEqual(regex.body.errors, [{ resource: 'Ruleset', field: 'rules', code: 'invalid', message: "Invalid rule 'committer_email_pattern': pattern is not a valid regular expression" }]);
    const blank = await post([{ type: 'tag_name_pattern', parameters: { operator: 'contains', pattern: '' } }]);
    assert.equal(blank.status, 422);
    assert.match(blank.body.errors[0].message, /pattern can't be blank/);
    const operator = await post([{ type: 'branch_name_pattern', parameters: { operator: 'equals', pattern: 'x' } }]);
    assert.equal(operator.status, 422);
    assert.match(operator.body.errors[0].message, /operator/);
    const ext = await post([{ type: 'file_extension_restriction', parameters: { restricted_file_extensions: ['*.'] } }]);
    assert.equal(ext.status, 422);
    const size = await post([{ type: 'max_file_size', parameters: { max_file_size: 101 } }]);
    assert.equal(size.status, 422);
    assert.deepEqual((await t.octokit(owner.token).rest.repos.getRepoRulesets({ owner: owner.login, repo })).data, []);
  });
});
