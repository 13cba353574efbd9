// The GraphQL issue scenario of `npm run bench` (issue #6 §4), also runnable alone:
//   node --import tsx bench/graphql-issues.ts
// One query for 100 issues, each with its author, labels(first: 10), assignees(first: 10)
// and reactionGroups, against the REST call that fetches the same data:
// GET /repos/{owner}/{repo}/issues?per_page=100 (labels, assignees and the reactions
// rollup are in each issue). Both at 16 connections; aim: GraphQL at ≥ 0.5 of REST's
// throughput, and its p99 under 50 ms. graphql-js checks every type it meets unless
// NODE_ENV=production (about a third of this query's time): run Wharf that way for
// production figures (the standalone run passes NODE_ENV on).
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startStandaloneWharf } from './standalone.ts';

const USER_AGENT = 'wharf-bench/1.0';
const ISSUES = 100;

export interface GraphQLIssuesOptions {
  base: string;
  token: string;
  login: string;
  seconds: number;
  warmupSeconds: number;
  /** Default 16, as the aim is stated. */
  connections?: number;
}

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface GraphQLIssuesResult {
  connections: number;
  issues: number;
  rest: Figures;
  graphql: Figures;
  /** GraphQL req/s over REST req/s (aim ≥ 0.5). */
  throughputRatio: number;
}

/** What a client listing issues shows: each issue, its author, labels, assignees and reaction counts. */
export const ISSUES_QUERY = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  issues(first: ${ISSUES}, orderBy: {field: CREATED_AT, direction: DESC}) { nodes {
    id number title state createdAt updatedAt comments { totalCount }
    author { login }
    labels(first: 10) { nodes { name color } }
    assignees(first: 10) { nodes { login } }
    reactionGroups { content users { totalCount } }
  } } } }`;

function headers(token: string): Record<string, string> {
  return { 'user-agent': USER_AGENT, authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' };
}

async function post(base: string, token: string, pathname: string, body: unknown): Promise<Response> {
  const res = await fetch(`${base}${pathname}`, { method: 'POST', headers: headers(token), body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${pathname} answered ${res.status}: ${await res.text()}`);
  return res;
}

async function load(url: string, token: string, seconds: number, connections: number, body?: string): Promise<Figures> {
  const result = await autocannon({
    url, connections, duration: seconds, headers: headers(token), ...(body ? { method: 'POST', body } : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** A repository of 100 issues with two labels, an assignee and reactions each, both ways measured. */
export async function measureGraphQLIssues(o: GraphQLIssuesOptions): Promise<GraphQLIssuesResult> {
  const connections = o.connections ?? 16;
  const name = `bench-gql-issues-${randomBytes(3).toString('hex')}`;
  await post(o.base, o.token, '/user/repos', { name, auto_init: true });
  const repoPath = `/repos/${o.login}/${name}`;
  process.stderr.write(`seeding ${ISSUES} issues for the GraphQL scenario …\n`);
  const labelSets = [['bug', 'help wanted'], ['enhancement', 'question'], ['documentation', 'good first issue']];
  const contents = ['+1', 'heart', 'hooray', 'rocket'];
  for (let i = 0; i < ISSUES; i++) {
    const res = await post(o.base, o.token, `${repoPath}/issues`, {
      title: `GraphQL bench issue ${i}`, body: `Body of issue ${i}`, labels: labelSets[i % labelSets.length], assignees: [o.login],
    });
    const issue = (await res.json()) as { number: number };
    for (const content of contents.slice(0, i % 3)) await post(o.base, o.token, `${repoPath}/issues/${issue.number}/reactions`, { content });
  }

  const restUrl = `${o.base}${repoPath}/issues?per_page=${ISSUES}`;
  const graphqlUrl = `${o.base}/graphql`;
  const body = JSON.stringify({ query: ISSUES_QUERY, variables: { owner: o.login, name } });
  // Both answer the 100 issues, with their labels and assignees, before anything is measured.
  const restCheck = (await (await fetch(restUrl, { headers: headers(o.token) })).json()) as { labels: unknown[]; assignees: unknown[] }[];
  if (restCheck.length !== ISSUES || restCheck.some((i) => i.labels.length !== 2 || i.assignees.length !== 1)) throw new Error('REST does not list the seeded issues');
  const check = (await (await fetch(graphqlUrl, { method: 'POST', headers: headers(o.token), body })).json()) as {
    data?: { repository: { issues: { nodes: { labels: { nodes: unknown[] } }[] } } }; errors?: unknown;
  };
  if (check.errors || check.data?.repository.issues.nodes.length !== ISSUES || check.data.repository.issues.nodes.some((n) => n.labels.nodes.length !== 2)) {
    throw new Error(`the GraphQL query does not answer the seeded issues: ${JSON.stringify(check).slice(0, 500)}`);
  }

  process.stderr.write(`measuring GET …/issues?per_page=${ISSUES} at ${connections} connections …\n`);
  await load(restUrl, o.token, o.warmupSeconds, connections);
  const rest = await load(restUrl, o.token, o.seconds, connections);
  process.stderr.write(`measuring the GraphQL query for the same ${ISSUES} issues at ${connections} connections …\n`);
  await load(graphqlUrl, o.token, o.warmupSeconds, connections, body);
  const graphql = await load(graphqlUrl, o.token, o.seconds, connections, body);
  return { connections, issues: ISSUES, rest, graphql, throughputRatio: +(graphql.rps / rest.rps).toFixed(3) };
}

export function printGraphQLIssues(r: GraphQLIssuesResult): void {
  const line = (f: Figures) => `${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms${f.non2xx || f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : ''}`;
  console.log(`graphql issues: ${r.issues} issues with author, labels, assignees and reactions, ${r.connections} connections`);
  console.log(`  REST GET …/issues?per_page=${r.issues}: ${line(r.rest)}`);
  console.log(`  POST /graphql (same data):        ${line(r.graphql)}`);
  console.log(`  GraphQL/REST throughput ${r.throughputRatio} (aim ≥ 0.5); GraphQL p99 ${r.graphql.p99.toFixed(2)} ms (aim < 50 ms)`);
}

// ---------------------------------------------------------------- standalone

async function standalone(): Promise<void> {
  const { base, token, login, finish } = await startStandaloneWharf('gql');
  try {
    const num = (key: string, fallback: number) => (process.env[key] ? Number(process.env[key]) : fallback);
    const result = await measureGraphQLIssues({
      base, token, login, seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 3), connections: num('BENCH_GRAPHQL_CONNECTIONS', 16),
    });
    printGraphQLIssues(result);
    console.log(JSON.stringify({ graphqlIssues: result }));
  } finally {
    await finish();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  standalone().catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack ?? err.message : err);
    process.exitCode = 1;
  });
}
