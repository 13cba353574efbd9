// The everyday commands of gh 2.23 (Debian's package) against Wharf over TLS, each
// checked by its exit status, its output, and the state after it through the API:
// gh api; repo create/view/list/clone/edit/fork/delete; issue create/list/view/close/
// reopen/comment/edit/status; label list/create; pr create/list/view/diff/comment/
// close/reopen/ready/review/merge/checks/status; release create/list/view/upload/
// download/delete; search repos/issues/prs/commits. gh finds Wharf as GH_HOST=localhost with GH_ENTERPRISE_TOKEN, inside
// a clone through its remote (https://localhost/…) and elsewhere through -R. Skipped
// (saying why) where gh is missing or port 443 cannot be bound (test/helpers/gh.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createGhUser, GH_HOST, ghUnavailable, startGhServer, type GhServer, type RunResult } from './helpers/gh.ts';

type Json = Record<string, any>;

if (ghUnavailable) console.log(`# skipping the gh commands: ${ghUnavailable}`);

/** The command succeeded; its stdout. */
function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

describe('gh commands against Wharf', { skip: ghUnavailable ?? false }, () => {
  let s: GhServer;
  let alice: { login: string; token: string };
  let bob: { login: string; token: string };
  let clone: string;
  /** alice's gh: GH_HOST and GH_ENTERPRISE_TOKEN. */
  let gh: (args: string[], cwd?: string) => Promise<RunResult>;
  let git: (args: string[], cwd?: string) => Promise<RunResult>;
  let R: string;

  before(async () => {
    s = await startGhServer();
    alice = await createGhUser(s, ['repo', 'user', 'read:org', 'delete_repo', 'gist', 'workflow']);
    bob = await createGhUser(s, ['repo', 'user', 'read:org', 'delete_repo']);
    gh = (args, cwd) => s.gh(args, { cwd, env: { GH_HOST, GH_ENTERPRISE_TOKEN: alice.token } });
    // git asks gh for credentials (gh auth setup-git), and gh finds the token in its environment.
    git = (args, cwd) => s.run('git', args, { cwd, env: { GH_HOST, GH_ENTERPRISE_TOKEN: alice.token } });
    R = `${GH_HOST}/${alice.login}/harbor`;
    clone = path.join(s.dir, 'harbor');
  });
  after(async () => { await s?.close(); });

  test('gh api: REST, --paginate and graphql', async () => {
    const user = JSON.parse(ok(await gh(['api', 'user']), 'gh api user')) as Json;
    assert.equal(user.login, alice.login);
    const q = JSON.parse(ok(await gh(['api', 'graphql', '-f', 'query={ viewer { login } }']), 'gh api graphql')) as Json;
    assert.equal(q.data.viewer.login, alice.login);
  });

  test("the README's recipe for Octokit: NODE_EXTRA_CA_CERTS trusts the certificate authority", async () => {
    const script = `import { Octokit } from '@octokit/rest';
      const o = new Octokit({ baseUrl: 'https://${GH_HOST}/api/v3', auth: process.env.TOKEN });
      console.log((await o.rest.users.getAuthenticated()).data.login);`;
    const run = (env: NodeJS.ProcessEnv) => s.run(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), env: { TOKEN: alice.token, ...env } });
    assert.equal(ok(await run({ NODE_EXTRA_CA_CERTS: s.ca }), 'node with NODE_EXTRA_CA_CERTS').trim(), alice.login);
    const untrusted = await run({});
    assert.notEqual(untrusted.code, 0, 'without the authority the certificate is refused');
  });

  test('gh repo create, view, list, edit', async () => {
    const out = ok(await gh(['repo', 'create', 'harbor', '--public', '--description', 'A harbor', '--add-readme']), 'repo create');
    assert.match(out, new RegExp(`https://${GH_HOST}/${alice.login}/harbor`));
    const got = await s.api('GET', `/repos/${alice.login}/harbor`, alice.token);
    assert.equal(got.status, 200);
    assert.equal(got.body.description, 'A harbor');

    const view = ok(await gh(['repo', 'view', R]), 'repo view');
    assert.match(view, /A harbor/);
    const json = JSON.parse(ok(await gh(['repo', 'view', R, '--json', 'name,description,languages,primaryLanguage,isPrivate,defaultBranchRef']), 'repo view --json')) as Json;
    assert.equal(json.name, 'harbor');
    assert.deepEqual(json.languages, []);
    assert.equal(json.defaultBranchRef.name, 'main');
    assert.equal(json.isPrivate, false);

    const list = ok(await gh(['repo', 'list', alice.login]), 'repo list');
    assert.match(list, new RegExp(`${alice.login}/harbor`));
    const listed = JSON.parse(ok(await gh(['repo', 'list', alice.login, '--source', '--json', 'name,isFork']), 'repo list --source')) as Json[];
    assert.deepEqual(listed.map((r) => r.name), ['harbor']);

    ok(await gh(['repo', 'edit', R, '--description', 'The harbor', '--enable-wiki=false']), 'repo edit');
    const edited = await s.api('GET', `/repos/${alice.login}/harbor`, alice.token);
    assert.equal(edited.body.description, 'The harbor');
    assert.equal(edited.body.has_wiki, false);
  });

  test('gh repo clone, then languages from a push; gh inside the clone finds the repository by its remote', async () => {
    ok(await gh(['auth', 'setup-git', '--hostname', GH_HOST]), 'auth setup-git');
    ok(await gh(['repo', 'clone', `${alice.login}/harbor`, clone]), 'repo clone');
    assert.ok(fs.existsSync(path.join(clone, 'README.md')));
    fs.writeFileSync(path.join(clone, 'main.go'), 'package main\n\nfunc main() {}\n');
    ok(await git(['add', 'main.go'], clone), 'git add');
    ok(await git(['commit', '-q', '-m', 'Go'], clone), 'git commit');
    ok(await git(['push', '-q', 'origin', 'HEAD'], clone), 'git push (gh as credential helper)');
    const json = JSON.parse(ok(await gh(['repo', 'view', '--json', 'name,languages,primaryLanguage'], clone), 'repo view inside the clone')) as Json;
    assert.equal(json.name, 'harbor');
    assert.deepEqual(json.languages, [{ size: 29, node: { name: 'Go' } }]);
    assert.deepEqual(json.primaryLanguage, { name: 'Go' });
  });

  test('gh label create and list', async () => {
    ok(await gh(['label', 'create', 'leak', '-R', R, '--color', 'd73a4a', '--description', 'Something broke']), 'label create');
    const labels = await s.api<Json[]>('GET', `/repos/${alice.login}/harbor/labels`, alice.token);
    assert.ok(labels.body.some((l) => l.name === 'leak' && l.color === 'd73a4a'));
    assert.match(ok(await gh(['label', 'list', '-R', R]), 'label list'), /leak\s+Something broke/);
  });

  test('gh issue create -l -a, list, view, comment, edit, close, reopen, status', async () => {
    const made = ok(await gh(['issue', 'create', '-R', R, '-t', 'Leaky hull', '-b', 'Water everywhere', '-l', 'leak', '-a', '@me']), 'issue create');
    assert.match(made, new RegExp(`https://${GH_HOST}/${alice.login}/harbor/issues/1`));
    const issue = (await s.api('GET', `/repos/${alice.login}/harbor/issues/1`, alice.token)).body as Json;
    assert.deepEqual(issue.labels.map((l: Json) => l.name), ['leak']);
    assert.deepEqual(issue.assignees.map((a: Json) => a.login), [alice.login]);

    assert.match(ok(await gh(['issue', 'list', '-R', R]), 'issue list'), /Leaky hull/);
    const listed = JSON.parse(ok(await gh(['issue', 'list', '-R', R, '--json', 'number,title,labels,comments']), 'issue list --json')) as Json[];
    assert.deepEqual(listed.map((i) => i.number), [1]);
    assert.match(ok(await gh(['issue', 'view', '1', '-R', R]), 'issue view'), /Water everywhere/);

    ok(await gh(['issue', 'comment', '1', '-R', R, '-b', 'Bailing now']), 'issue comment');
    const comments = (await s.api<Json[]>('GET', `/repos/${alice.login}/harbor/issues/1/comments`, alice.token)).body;
    assert.deepEqual(comments.map((c) => c.body), ['Bailing now']);
    assert.match(ok(await gh(['issue', 'view', '1', '-R', R, '--comments']), 'issue view --comments'), /Bailing now/);

    ok(await gh(['issue', 'edit', '1', '-R', R, '--title', 'Leaky hull, port side']), 'issue edit');
    assert.equal((await s.api('GET', `/repos/${alice.login}/harbor/issues/1`, alice.token)).body.title, 'Leaky hull, port side');

    ok(await gh(['issue', 'close', '1', '-R', R]), 'issue close');
    assert.equal((await s.api('GET', `/repos/${alice.login}/harbor/issues/1`, alice.token)).body.state, 'closed');
    ok(await gh(['issue', 'reopen', '1', '-R', R]), 'issue reopen');
    assert.equal((await s.api('GET', `/repos/${alice.login}/harbor/issues/1`, alice.token)).body.state, 'open');

    assert.match(ok(await gh(['issue', 'status', '-R', R]), 'issue status'), /Leaky hull, port side/);
    // gh api --paginate follows Link headers: per_page=1 over two issues is two pages.
    ok(await gh(['issue', 'create', '-R', R, '-t', 'Second', '-b', 'Two']), 'issue create');
    const paged = ok(await gh(['api', '--paginate', `repos/${alice.login}/harbor/issues?per_page=1`, '--jq', '.[].title']), 'api --paginate');
    assert.deepEqual(paged.trim().split('\n').sort(), ['Leaky hull, port side', 'Second']);
  });

  test('gh pr create, list, view, diff, comment, close, reopen, ready, checks, review, status, merge', async () => {
    ok(await git(['checkout', '-q', '-b', 'feature'], clone), 'git checkout');
    fs.writeFileSync(path.join(clone, 'feature.go'), 'package main\n\nfunc feature() {}\n');
    ok(await git(['add', 'feature.go'], clone), 'git add');
    ok(await git(['commit', '-q', '-m', 'A feature'], clone), 'git commit');
    ok(await git(['push', '-q', '-u', 'origin', 'feature'], clone), 'git push');
    ok(await git(['checkout', '-q', 'main'], clone), 'git checkout main');
    const made = ok(await gh(['pr', 'create', '--draft', '--title', 'A feature', '--body', 'Adds it', '--base', 'main', '--head', 'feature'], clone), 'pr create');
    const n = /\/harbor\/pull\/(\d+)$/m.exec(made)?.[1];
    assert.ok(n, made);
    assert.match(made, new RegExp(`https://${GH_HOST}/${alice.login}/harbor/pull/${n}`));
    const pr = () => s.api('GET', `/repos/${alice.login}/harbor/pulls/${n}`, alice.token).then((r) => r.body as Json);
    assert.equal((await pr()).draft, true);

    assert.match(ok(await gh(['pr', 'list', '-R', R]), 'pr list'), /A feature/);
    assert.match(ok(await gh(['pr', 'view', n, '-R', R]), 'pr view'), /Adds it/);
    ok(await gh(['pr', 'checkout', n], clone), 'pr checkout');
    assert.equal((await git(['rev-parse', '--abbrev-ref', 'HEAD'], clone)).stdout.trim(), 'feature');
    assert.match(ok(await gh(['pr', 'view'], clone), 'pr view (current branch)'), /A feature/);
    ok(await gh(['pr', 'edit', n, '-R', R, '--title', 'A fine feature', '--add-label', 'leak']), 'pr edit');
    assert.equal((await pr()).title, 'A fine feature');
    assert.deepEqual((await pr()).labels.map((l: Json) => l.name), ['leak']);
    assert.match(ok(await gh(['pr', 'diff', n, '-R', R]), 'pr diff'), /\+func feature\(\) \{\}/);

    ok(await gh(['pr', 'comment', n, '-R', R, '-b', 'Looks right']), 'pr comment');
    const comments = (await s.api<Json[]>('GET', `/repos/${alice.login}/harbor/issues/${n}/comments`, alice.token)).body;
    assert.deepEqual(comments.map((c) => c.body), ['Looks right']);

    ok(await gh(['pr', 'close', n, '-R', R]), 'pr close');
    assert.equal((await pr()).state, 'closed');
    ok(await gh(['pr', 'reopen', n, '-R', R]), 'pr reopen');
    assert.equal((await pr()).state, 'open');
    ok(await gh(['pr', 'ready', n, '-R', R]), 'pr ready');
    assert.equal((await pr()).draft, false);

    const head = (await pr()).head.sha as string;
    await s.api('POST', `/repos/${alice.login}/harbor/statuses/${head}`, alice.token, { state: 'success', context: 'ci/build', description: 'Built' });
    // A check run beside the status (a user's token: the site allows it here, as for CI without an app).
    s.t.server.ctx.config.checksAllowUserTokens = true;
    await s.api('POST', `/repos/${alice.login}/harbor/check-runs`, alice.token, { name: 'lint', head_sha: head, conclusion: 'success', details_url: 'https://ci.example/lint' });
    const checks = ok(await gh(['pr', 'checks', n, '-R', R]), 'pr checks');
    assert.match(checks, /ci\/build/);
    assert.match(checks, /lint\s+pass.*https:\/\/ci\.example\/lint/);

    const bobGh = (args: string[]) => s.gh(args, { env: { GH_HOST, GH_ENTERPRISE_TOKEN: bob.token } });
    await s.api('PUT', `/repos/${alice.login}/harbor/collaborators/${bob.login}`, alice.token, { permission: 'push' });
    ok(await bobGh(['pr', 'review', n, '-R', R, '--approve', '-b', 'Ship it']), 'pr review --approve');
    const reviews = (await s.api<Json[]>('GET', `/repos/${alice.login}/harbor/pulls/${n}/reviews`, alice.token)).body;
    assert.deepEqual(reviews.map((r) => [r.user.login, r.state, r.body]), [[bob.login, 'APPROVED', 'Ship it']]);

    assert.match(ok(await gh(['pr', 'status'], clone), 'pr status'), /A fine feature/);

    ok(await gh(['pr', 'merge', n, '-R', R, '--merge']), 'pr merge');
    const merged = await pr();
    assert.equal(merged.merged, true);
    assert.equal(merged.state, 'closed');
  });

  test('gh release create, list, view, upload, download, delete', async () => {
    const notes = path.join(s.dir, 'notes.txt');
    fs.writeFileSync(notes, 'first cargo\n');
    const made = ok(await gh(['release', 'create', 'v1.0', '-R', R, '--title', 'One', '--notes', 'The first', '--target', 'main']), 'release create');
    assert.match(made, /releases\/tag\/v1\.0/);
    const release = (await s.api('GET', `/repos/${alice.login}/harbor/releases/tags/v1.0`, alice.token)).body as Json;
    assert.equal(release.name, 'One');
    assert.equal(release.body, 'The first');

    ok(await gh(['release', 'upload', 'v1.0', notes, '-R', R]), 'release upload');
    const assets = (await s.api<Json[]>('GET', `/repos/${alice.login}/harbor/releases/${release.id}/assets`, alice.token)).body;
    assert.deepEqual(assets.map((a) => [a.name, a.size]), [['notes.txt', 12]]);

    assert.match(ok(await gh(['release', 'list', '-R', R]), 'release list'), /One\s+Latest\s+v1\.0/);
    assert.match(ok(await gh(['release', 'view', 'v1.0', '-R', R]), 'release view'), /notes\.txt/);
    const into = path.join(s.dir, 'downloads');
    ok(await gh(['release', 'download', 'v1.0', '-R', R, '-D', into]), 'release download');
    assert.equal(fs.readFileSync(path.join(into, 'notes.txt'), 'utf8'), 'first cargo\n');

    ok(await gh(['release', 'delete', 'v1.0', '-R', R, '--yes']), 'release delete');
    assert.equal((await s.api('GET', `/repos/${alice.login}/harbor/releases/tags/v1.0`, alice.token)).status, 404);
  });

  test("the README's gh recipe, line by line, inside a clone", async () => {
    ok(await gh(['repo', 'create', 'dock', '--public', '--add-readme']), 'repo create dock');
    ok(await gh(['repo', 'clone', 'dock'], s.dir), 'repo clone dock');
    const dock = path.join(s.dir, 'dock');
    ok(await git(['switch', '-c', 'fix'], dock), 'git switch');
    fs.writeFileSync(path.join(dock, 'fix.txt'), 'fix\n');
    ok(await git(['add', '.'], dock), 'git add');
    ok(await git(['commit', '-m', 'fix'], dock), 'git commit');
    ok(await git(['push', '-u', 'origin', 'fix'], dock), 'git push -u');
    ok(await gh(['pr', 'create', '--title', 'Fix', '--body', 'A fix'], dock), 'pr create (inside the clone)');
    ok(await gh(['pr', 'merge', '--merge'], dock), 'pr merge (inside the clone)');
    const pulls = (await s.api<Json[]>('GET', `/repos/${alice.login}/dock/pulls?state=closed`, alice.token)).body;
    assert.deepEqual(pulls.map((p) => [p.title, p.head.ref, p.merged_at !== null]), [['Fix', 'fix', true]]);
    ok(await gh(['release', 'create', 'v1.0', '--notes', 'First'], dock), 'release create (inside the clone)');
    ok(await gh(['release', 'upload', 'v1.0', 'fix.txt'], dock), 'release upload (inside the clone)');
    const release = (await s.api('GET', `/repos/${alice.login}/dock/releases/tags/v1.0`, alice.token)).body as Json;
    assert.deepEqual(release.assets.map((a: Json) => a.name), ['fix.txt']);
  });

  test('gh repo create --source . --push: a private repository from a local one, pushed with the credential helper', async () => {
    const local = path.join(s.dir, 'local-src');
    fs.mkdirSync(local);
    ok(await git(['init', '-q', '-b', 'main'], local), 'git init');
    fs.writeFileSync(path.join(local, 'app.py'), 'print("hi")\n');
    ok(await git(['add', '.'], local), 'git add');
    ok(await git(['commit', '-q', '-m', 'start'], local), 'git commit');
    ok(await gh(['repo', 'create', 'from-source', '--private', '--source', '.', '--push'], local), 'repo create --source . --push');
    const repo = (await s.api('GET', `/repos/${alice.login}/from-source`, alice.token)).body as Json;
    assert.equal(repo.private, true);
    assert.equal(repo.language, 'Python');
    const head = (await git(['rev-parse', 'HEAD'], local)).stdout.trim();
    assert.equal((await s.api('GET', `/repos/${alice.login}/from-source/commits/main`, alice.token)).body.sha, head);
  });

  test('gh repo fork and delete', async () => {
    const bobGh = (args: string[]) => s.gh(args, { env: { GH_HOST, GH_ENTERPRISE_TOKEN: bob.token } });
    ok(await bobGh(['repo', 'fork', R, '--clone=false']), 'repo fork');
    const fork = await s.api('GET', `/repos/${bob.login}/harbor`, bob.token);
    assert.equal(fork.status, 200);
    assert.equal(fork.body.fork, true);
    assert.equal(fork.body.parent.full_name, `${alice.login}/harbor`);

    ok(await bobGh(['repo', 'delete', `${GH_HOST}/${bob.login}/harbor`, '--yes']), 'repo delete');
    assert.equal((await s.api('GET', `/repos/${bob.login}/harbor`, bob.token)).status, 404);
  });

  test('gh search repos, issues and prs reach Wharf\'s search and find what was made', async () => {
    const name = `lighthouse-${Date.now().toString(36)}`;
    assert.equal((await s.api('POST', '/user/repos', alice.token, { name, auto_init: true })).status, 201);
    const issue = await s.api('POST', `/repos/${alice.login}/${name}/issues`, alice.token, { title: 'Foghorn is broken', body: 'It hums.' });
    assert.equal(issue.status, 201);
    const main = await s.api('GET', `/repos/${alice.login}/${name}/git/ref/heads/main`, alice.token);
    assert.equal((await s.api('POST', `/repos/${alice.login}/${name}/git/refs`, alice.token, { ref: 'refs/heads/lamp', sha: main.body.object.sha })).status, 201);
    const put = await s.api('PUT', `/repos/${alice.login}/${name}/contents/lamp.txt`, alice.token, { message: 'Lamp', content: Buffer.from('on\n').toString('base64'), branch: 'lamp' });
    assert.equal(put.status, 201);
    assert.equal((await s.api('POST', `/repos/${alice.login}/${name}/pulls`, alice.token, { title: 'Brighter lamp', head: 'lamp', base: 'main' })).status, 201);

    const repos = JSON.parse(ok(await gh(['search', 'repos', name, '--owner', alice.login, '--json', 'fullName']), 'search repos')) as Json[];
    assert.deepEqual(repos.map((r) => r.fullName), [`${alice.login}/${name}`]);
    const issues = JSON.parse(ok(await gh(['search', 'issues', 'foghorn', '--repo', `${alice.login}/${name}`, '--json', 'title,number']), 'search issues')) as Json[];
    assert.deepEqual(issues.map((i) => [i.title, i.number]), [['Foghorn is broken', issue.body.number]]);
    const prs = JSON.parse(ok(await gh(['search', 'prs', '--repo', `${alice.login}/${name}`, '--json', 'title,state']), 'search prs')) as Json[];
    assert.deepEqual(prs.map((p) => [p.title, p.state]), [['Brighter lamp', 'open']]);
    // Another user does not find alice's private work: a private repository stays hidden.
    assert.equal((await s.api('PATCH', `/repos/${alice.login}/${name}`, alice.token, { private: true })).status, 200);
    const hidden = await s.gh(['search', 'issues', 'foghorn', '--json', 'title'], { env: { GH_HOST, GH_ENTERPRISE_TOKEN: bob.token } });
    assert.deepEqual(JSON.parse(ok(hidden, 'search issues as bob')), []);
  });

  test('gh search commits finds the commits of a default branch once indexed; not in another user\'s private repository', async () => {
    const name = `beacon-${Date.now().toString(36)}`;
    assert.equal((await s.api('POST', '/user/repos', alice.token, { name, auto_init: true })).status, 201);
    const local = path.join(s.dir, name);
    ok(await gh(['repo', 'clone', `${alice.login}/${name}`, local]), 'repo clone');
    fs.writeFileSync(path.join(local, 'beacon.txt'), 'lit\n');
    ok(await git(['add', '-A'], local), 'git add');
    ok(await git(['commit', '-q', '-m', 'Light the beacon'], local), 'git commit');
    ok(await git(['push', '-q', 'origin', 'HEAD'], local), 'git push');
    await s.t.server.searchIndex.idle();
    const head = (await s.api('GET', `/repos/${alice.login}/${name}/git/ref/heads/main`, alice.token)).body.object.sha as string;

    const found = JSON.parse(ok(await gh(['search', 'commits', 'beacon', '--repo', `${alice.login}/${name}`, '--json', 'sha,commit,repository,url,parents']), 'search commits')) as Json[];
    assert.deepEqual(found.map((c) => [c.sha, c.commit.message]), [[head, 'Light the beacon']]);
    assert.equal(found[0]!.repository.fullName, `${alice.login}/${name}`);
    assert.equal(found[0]!.url, `https://${GH_HOST}/${alice.login}/${name}/commit/${head}`);
    assert.equal(found[0]!.parents.length, 1);
    const table = ok(await gh(['search', 'commits', '--repo', `${alice.login}/${name}`, '--sort', 'committer-date', '--order', 'asc', '--merge=false']), 'search commits (table)');
    assert.match(table, /Light the beacon/);

    assert.equal((await s.api('PATCH', `/repos/${alice.login}/${name}`, alice.token, { private: true })).status, 200);
    const hidden = await s.gh(['search', 'commits', 'beacon', '--json', 'sha'], { env: { GH_HOST, GH_ENTERPRISE_TOKEN: bob.token } });
    assert.deepEqual(JSON.parse(ok(hidden, 'search commits as bob')), []);
  });
});
