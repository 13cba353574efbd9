// Bad input never gets a 5xx: every write route of the collaboration and event areas
// (and, with fewer values, every other write route)
// takes each body field with values of every wrong type (and NUL, huge numbers, bad
// dates), bad path parameters, and bad list query parameters. A 500 on user input is
// a bug; this sweeps for them on both dialects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';

/** Requests of one route in flight at once. */
const CONCURRENCY = 8;

test('no 5xx on bad input across the collaboration and event routes', { timeout: 600_000 }, async () => {
  const t = await startTestServer();
  const u = await createUser(t, ['repo', 'user', 'admin:org', 'notifications', 'write:discussion', 'read:discussion', 'admin:repo_hook', 'repo_deployment']);
  const kit = t.octokit(u.token);
  const repo = 'fuzz';
  await kit.rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
  const owner = u.login;
  const main = (await kit.rest.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha;
  const blob = await kit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'f.txt', message: 'f', content: Buffer.from('x').toString('base64'), branch: 'main' });
  await kit.rest.git.createRef({ owner, repo, ref: 'refs/heads/feature', sha: main });
  await kit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'g.txt', message: 'g', content: Buffer.from('y').toString('base64'), branch: 'feature' });
  const issue = await kit.rest.issues.create({ owner, repo, title: 'i' });
  const pr = await kit.rest.pulls.create({ owner, repo, title: 'p', head: 'feature', base: 'main' });
  const comment = await kit.rest.issues.createComment({ owner, repo, issue_number: 1, body: 'c' });
  await kit.rest.issues.createMilestone({ owner, repo, title: 'm' });
  const hook = await kit.rest.repos.createWebhook({ owner, repo, config: { url: 'http://example.invalid/h' } });
  const dep = await kit.rest.repos.createDeployment({ owner, repo, ref: 'main', required_contexts: [] });
  const reaction = await kit.rest.reactions.createForIssue({ owner, repo, issue_number: 1, content: 'heart' });
  const sha = blob.data.commit.sha!;
  void issue; void pr;

  const p = { owner, repo, issue_number: '1', pull_number: '2', comment_id: String(comment.data.id), milestone_number: '1', name: 'bug', hook_id: String(hook.data.id),
    deployment_id: String((dep.data as { id: number }).id), status_id: '1', reaction_id: String(reaction.data.id), thread_id: '1', delivery_id: '1', review_id: '1', sha, ref: 'main' };
  const routes = `POST /repos/{owner}/{repo}/issues
  PATCH /repos/{owner}/{repo}/issues/{issue_number}
  PUT /repos/{owner}/{repo}/issues/{issue_number}/lock
  POST /repos/{owner}/{repo}/issues/{issue_number}/comments
  PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}
  POST /repos/{owner}/{repo}/issues/{issue_number}/labels
  PUT /repos/{owner}/{repo}/issues/{issue_number}/labels
  POST /repos/{owner}/{repo}/issues/{issue_number}/assignees
  DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees
  POST /repos/{owner}/{repo}/labels
  PATCH /repos/{owner}/{repo}/labels/{name}
  POST /repos/{owner}/{repo}/milestones
  PATCH /repos/{owner}/{repo}/milestones/{milestone_number}
  POST /repos/{owner}/{repo}/issues/{issue_number}/reactions
  POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions
  POST /repos/{owner}/{repo}/pulls
  PATCH /repos/{owner}/{repo}/pulls/{pull_number}
  PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge
  PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch
  POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers
  DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers
  POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews
  POST /repos/{owner}/{repo}/pulls/{pull_number}/comments
  PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}
  POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events
  PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals
  POST /repos/{owner}/{repo}/deployments
  POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses
  POST /repos/{owner}/{repo}/statuses/{sha}
  PATCH /repos/{owner}/{repo}/hooks/{hook_id}
  POST /repos/{owner}/{repo}/hooks
  PUT /notifications
  PUT /repos/{owner}/{repo}/notifications
  PATCH /notifications/threads/{thread_id}
  PUT /notifications/threads/{thread_id}/subscription
  POST /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts
  PUT /repos/{owner}/{repo}/interaction-limits
  GET /repos/{owner}/{repo}/issues
  GET /issues
  GET /repos/{owner}/{repo}/pulls
  GET /repos/{owner}/{repo}/deployments
  GET /repos/{owner}/{repo}/commits/{ref}/status
  GET /notifications
  GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries
  GET /repos/{owner}/{repo}/issues/comments
  GET /repos/{owner}/{repo}/milestones
  GET /repos/{owner}/{repo}/issues/{issue_number}/reactions`.split('\n').map((l) => l.trim().split(' ') as [string, string]);

  // Each route gets the fields its body schema declares (from the route table, so a
  // field added to a schema is swept without editing this list) and one it does not.
  const table = new Map(t.server.app.routeTable.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r.bodyFields]));
  // The label routes take a free-form body (an array, a string or {labels}): no schema to read.
  const freeForm: Record<string, string[]> = { 'labels': ['labels'] };
  function fieldsOf(method: string, path: string): string[] {
    const declared = path.endsWith('/labels') && path.includes('{issue_number}') ? freeForm.labels : table.get(`${method} ${path}`);
    assert.ok(declared, `${method} ${path} is not a route`);
    return [...declared, 'not_a_field'];
  }
  const values: unknown[] = [null, -1, 1.5, '', [], {}, [null], [{}], true, '\u0000', 99999999999999999999, { name: 1 }, '2020-13-45'];
  const badParams = ['abc', '-1', '0', '99999999999999999999', '1.5', '%00'];
  const queries = ['?per_page=abc', '?page=-1', '?since=nope', '?state=weird', '?sort=x&direction=y', '?labels=%00', '?milestone=abc', '?assignee=%00', '?per_page=1000', '?head=%00:x', '?before=x', '?cursor=%%%', '?content=x', '?filter=x', '?all=maybe'];

  function fill(path: string, over: Record<string, string> = {}): string {
    return path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(over[k] ?? (p as Record<string, string>)[k] ?? 'x'));
  }
  const bad: string[] = [];
  let n = 0;
  async function hit(method: string, url: string, body?: unknown) {
    n++;
    if (process.env.SWEEP_TRACE) console.log(n, method, url, JSON.stringify(body)?.slice(0, 80));
    const res = await t.request(url, { method, token: u.token, ...(body !== undefined ? { json: body } : {}) });
    if (res.status >= 500) bad.push(`${res.status} ${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${(await res.text()).slice(0, 200)}`);
    else await res.arrayBuffer();
  }
  // One route's requests, CONCURRENCY at a time (they wait on the database and on git, not
  // on each other; one at a time the sweep took 44 s on SQLite and 80 s on PostgreSQL).
  // Routes still go one after another, so each starts on what the previous ones left.
  async function hitAll(requests: [method: string, url: string, body?: unknown][]) {
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const [method, url, body] = requests[next++]!;
        await hit(method, url, body);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  for (const [method, path] of routes) {
    const requests: [string, string, unknown?][] = [];
    if (method === 'GET') {
      for (const q of queries) requests.push([method, fill(path) + q]);
    } else {
      for (const f of fieldsOf(method, path)) for (const v of values) requests.push([method, fill(path), { [f]: v }]);
      requests.push([method, fill(path), [1, 2]]);
    }
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((k) => !['owner', 'repo'].includes(k));
    for (const k of params) for (const b of badParams) requests.push([method, fill(path, { [k]: b }), method === 'GET' ? undefined : {}]);
    await hitAll(requests);
  }

  // Then every other write route the server has (new areas are swept without being
  // listed here), on a repository of its own, with each declared field and fewer
  // values. DELETEs and pages (form bodies, raw answers) are left out: a DELETE with
  // an ignored body would remove what the rest of the sweep runs on.
  await kit.rest.repos.createForAuthenticatedUser({ name: 'fuzz2', auto_init: true });
  const listed = new Set(routes.map(([m, path]) => `${m} ${path}`));
  const others = t.server.app.routeTable
    .map((r) => ({ ...r, path: r.url.replace(/:(\w+)/g, '{$1}') }))
    .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.rawResponse && !listed.has(`${r.method} ${r.path}`));
  const fewer: unknown[] = [null, -1, '', [], {}, true, '\u0000', 99999999999999999999];
  const before = n;
  for (const r of others) {
    const url = fill(r.path, { repo: 'fuzz2' });
    await hitAll([...r.bodyFields, 'not_a_field'].flatMap((f) => fewer.map((v): [string, string, unknown] => [r.method, url, { [f]: v }])));
  }
  assert.ok(others.length > 50 && n - before > 2000, `only ${others.length} other routes, ${n - before} requests`);
  await t.close();
  console.log(`# ${n} requests`);
  assert.ok(n > 3000, `only ${n} requests were made`);
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} of ${n} requests answered 5xx`);
});
