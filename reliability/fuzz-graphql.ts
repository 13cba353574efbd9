// Malformed and abusive GraphQL calls (POST /graphql), generated deterministically from a
// seed. The kinds that cross one of the endpoint's bounds (src/graphql/limits.ts: text
// nesting, selection depth, selections, aliases, page size, fragment cycles) must be
// answered with GraphQL errors, not run; every kind must be answered without a 5xx.
import { Random, type FuzzRequest } from './fuzz-generate.ts';
import type { Fixtures } from './fuzz-fixtures.ts';

export const GRAPHQL_KINDS = ['deep-nesting', 'aliases', 'huge-first', 'fragment-cycle', 'huge-string', 'bad-variables', 'syntax', 'bad-envelope', 'bad-mutation', 'many-selections'] as const;
export type GraphQLKind = (typeof GRAPHQL_KINDS)[number];
/** Kinds past a bound: each must come back with a non-empty `errors`. */
export const LIMIT_KINDS: readonly GraphQLKind[] = ['deep-nesting', 'aliases', 'huge-first', 'fragment-cycle', 'many-selections'];

export interface GraphQLRequest extends Omit<FuzzRequest, 'kind'> { kind: GraphQLKind }

function deepSelection(levels: number): string {
  // repository → owner → repository … each level a real field, so depth is the bound hit.
  let q = 'login';
  for (let i = 0; i < levels; i++) q = i % 2 === 0 ? `repositories(first: 1) { nodes { owner { ${q} } } }` : `... on User { ${q} }`;
  return `{ viewer { ${q} } }`;
}

export function generateGraphQL(f: Fixtures, token: string, seed: number, n: number): GraphQLRequest {
  const r = new Random((seed * 2_000_003 + n * 104_729) >>> 0);
  r.next();
  const kind = GRAPHQL_KINDS[(n + r.int(GRAPHQL_KINDS.length)) % GRAPHQL_KINDS.length]!;
  const headers: Record<string, string> = {
    'user-agent': 'wharf-reliability-fuzz/1.0', authorization: `bearer ${token}`, 'content-type': 'application/json',
  };
  const repo = `repository(owner: "${f.owner}", name: "${f.repo}")`;
  let payload: unknown;
  let raw: string | null = null;
  switch (kind) {
    case 'deep-nesting': {
      const choice = r.int(3);
      if (choice === 0) payload = { query: deepSelection(r.pick([40, 80, 300])) };
      else if (choice === 1) { const d = r.pick([100, 10_000, 200_000]); payload = { query: `{ viewer ${'{ login '.repeat(d)}${'}'.repeat(d)} }` }; }
      else { const d = r.pick([70, 5_000]); payload = { query: `{ ${repo} { issues(first: 1, labels: ${'['.repeat(d)}"a"${']'.repeat(d)}) { totalCount } } }` }; }
      break;
    }
    case 'aliases': {
      const count = r.pick([501, 1_000, 5_000]);
      const field = r.pick(['viewer { login }', `${repo} { issues(first: 100) { nodes { title body } } }`, '__typename', 'rateLimit { remaining }']);
      payload = { query: `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }` };
      break;
    }
    case 'huge-first': {
      const v = r.pick(['101', '100000', '2147483648', '-1', '1e9', '99999999999999999999', '"1"', 'null']);
      const which = r.pick(['first', 'last']);
      // (first: null beside last: 5 is a valid call: null is not given.)
      const both = v !== 'null' && r.chance(0.2) ? `, ${which === 'first' ? 'last' : 'first'}: 5` : '';
      payload = { query: `{ ${repo} { issues(${which}: ${v}${both}) { nodes { number } } labels(first: ${v}) { totalCount } } viewer { repositories(${which}: ${v}) { totalCount } } }` };
      break;
    }
    case 'fragment-cycle': {
      payload = { query: r.pick([
        'query { viewer { ...A } } fragment A on User { login ...B } fragment B on User { name ...A }',
        'query { viewer { ...A } } fragment A on User { ...A }',
        'query { viewer { ...A } } fragment A on User { repositories(first: 1) { nodes { owner { ...A } } } }',
        // Not a cycle but a blow-up: each fragment spreads the next twice (2^20 selections).
        `query { viewer { ...F0 } } ${Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { login ...F${i + 1} a${i}: name ...F${i + 1} }`).join(' ')} fragment F20 on User { login }`,
      ]) };
      break;
    }
    case 'huge-string': {
      const s = r.pick(['x'.repeat(1_000_000), '\ud800'.repeat(1000), '\u0000', "' OR 1=1 --", '../../etc/passwd', '\u202e'.repeat(100)]);
      payload = r.chance(0.5)
        ? { query: 'query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name } }', variables: { o: s, n: s } }
        : { query: `{ search(query: ${JSON.stringify(s)}, type: ISSUE, first: 5) { issueCount } }` };
      break;
    }
    case 'bad-variables': {
      const q = 'query($n: Int!, $o: String!) { repository(owner: $o, name: "x") { issue(number: $n) { title } } }';
      payload = { query: q, variables: r.pick<unknown>(['{"n":1}', [1, 2], 7, { n: 'one', o: 1 }, { n: 1e100, o: 'x' }, { n: null, o: null }, { n: 2 ** 31, o: {} }, { o: 'x' }, { n: 1, o: 'x', extra: { deep: [[[[]]]] } }, { n: [1], o: ['x'] }]) };
      break;
    }
    case 'syntax': {
      raw = JSON.stringify({ query: r.pick(['{', '}', '{ viewer { login }', 'query { viewer { login } } }', '{ "unterminated }', '{ viewer(login: ) { login } }', 'query query { }', '\u0000', '#'.repeat(10_000), '{ viewer { login } } mutation { x }', 'subscription { x }', '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }', '{ ...on Query { viewer { login } } }', `{ viewer { login(${'a: 1, '.repeat(10_000)}) } }`]) });
      break;
    }
    case 'bad-envelope': {
      const choice = r.int(6);
      if (choice === 0) raw = r.pick(['{"query":', '{"query": 1}', '{"query": null}', '[{"query":"{ viewer { login } }"}]', '"query"', '{}', '{"query":["{ viewer { login } }"]}']);
      else if (choice === 1) payload = { query: '{ viewer { login } }', operationName: r.pick(['Missing', 7, '', {}]) };
      else if (choice === 2) payload = { query: 'query A { viewer { login } } query B { viewer { name } }' };
      else if (choice === 3) { headers['content-type'] = r.pick(['text/plain', 'application/graphql', 'application/x-www-form-urlencoded']); raw = '{ viewer { login } }'; }
      else if (choice === 4) { headers.authorization = r.pick(['bearer', 'bearer x', 'token \u00ff', 'Basic !!!']); payload = { query: '{ viewer { login } }' }; }
      else { headers.accept = r.pick(['application/vnd.service.v99+json', 'text/html', '*/*;q=abc']); raw = '{"query": "{ viewer { login }"'; }
      break;
    }
    case 'bad-mutation': {
      payload = { query: r.pick([
        'mutation { addReaction(input: { subjectId: "not-an-id", content: HOORAY }) { reaction { content } } }',
        'mutation { addReaction(input: { subjectId: "MDU6SXNzdWUx", content: NOPE }) { reaction { content } } }',
        `mutation { createIssue(input: { repositoryId: "${'A'.repeat(10_000)}", title: "" }) { issue { number } } }`,
        'mutation { updateIssue(input: { id: "\\u0000" }) { issue { number } } }',
        'mutation { closeIssue(input: {}) { issue { number } } }',
        'mutation { addComment(input: { subjectId: "I_kwDO", body: null }) { clientMutationId } }',
        'mutation { deleteIssue(input: { issueId: "../../x" }) { clientMutationId } }',
        'mutation { createRef(input: { repositoryId: "x", name: "refs/heads/../../x", oid: "zz" }) { ref { name } } }',
        'mutation { mergePullRequest(input: { pullRequestId: "' + "' OR 1=1 --" + '" }) { pullRequest { number } } }',
      ]) };
      break;
    }
    case 'many-selections': {
      const count = r.pick([6_000, 20_000]);
      payload = { query: `{ viewer { ${Array.from({ length: count }, () => 'login').join(' ')} } }` };
      break;
    }
  }
  const body = Buffer.from(raw ?? JSON.stringify(payload));
  return { n, kind, route: 'POST /graphql', method: 'POST', path: '/graphql', headers, body };
}
