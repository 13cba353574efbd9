// Bad input never gets a 5xx: every write route of the collaboration and event areas
// takes each body field with values of every wrong type (and NUL, huge numbers, bad
// dates), bad path parameters, and bad list query parameters. A 500 on user input is
// a bug; this sweeps for them on both dialects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';

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

  const fields = ['title', 'body', 'labels', 'assignees', 'assignee', 'milestone', 'state', 'state_reason', 'lock_reason', 'content', 'event', 'commit_id', 'comments', 'reviewers', 'team_reviewers', 'head', 'base', 'draft', 'merge_method', 'sha', 'commit_title', 'commit_message', 'ref', 'task', 'payload', 'environment', 'required_contexts', 'auto_merge', 'description', 'target_url', 'log_url', 'context', 'name', 'color', 'new_name', 'due_on', 'last_read_at', 'read', 'subscribed', 'ignored', 'expected_head_sha', 'line', 'side', 'path', 'position', 'in_reply_to', 'start_line', 'start_side', 'subject_type', 'config', 'events', 'add_events', 'remove_events', 'active', 'limit', 'expiry', 'issue', 'maintainer_can_modify', 'message', 'auto_inactive', 'transient_environment', 'production_environment', 'environment_url', 'head_repo', 'body_text'];
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
    const res = await t.request(url, { method, token: u.token, ...(body !== undefined ? { json: body } : {}) });
    if (res.status >= 500) bad.push(`${res.status} ${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${(await res.text()).slice(0, 200)}`);
    else await res.arrayBuffer();
  }
  for (const [method, path] of routes) {
    if (method === 'GET') {
      for (const q of queries) await hit(method, fill(path) + q);
    } else {
      for (const f of fields) for (const v of values) await hit(method, fill(path), { [f]: v });
      await hit(method, fill(path), [1, 2]);
    }
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((k) => !['owner', 'repo'].includes(k));
    for (const k of params) for (const b of badParams) await hit(method, fill(path, { [k]: b }), method === 'GET' ? undefined : {});
  }
  await t.close();
  assert.ok(n > 1000, `only ${n} requests were made`);
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} of ${n} requests answered 5xx`);
});
