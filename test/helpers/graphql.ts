// Driving /graphql in tests: Octokit's GraphQL client for a token, the raw HTTP
// answer when a test looks at status, headers or the exact error shape, and the
// statement counter for batching tests.
import { graphql, GraphqlResponseError } from '@octokit/graphql';
import assert from 'node:assert/strict';
import { countStatements, type StatementCounter } from '../../src/graphql/statement-counter.ts';
import { USER_AGENT, type TestServer } from './server.ts';

export { countStatements, type StatementCounter };

/** Octokit's graphql client against the server, as `bearer <token>` (the form upstream documents). */
export function gql(t: TestServer, token: string, options: { ghes?: boolean } = {}) {
  return graphql.defaults({
    baseUrl: options.ghes ? `${t.baseUrl}/api/v3` : t.baseUrl,
    headers: { authorization: `bearer ${token}`, 'user-agent': USER_AGENT },
  });
}

export interface WireError {
  type?: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  message: string;
}

export interface RawAnswer<D = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { data?: D | null; errors?: WireError[]; message?: string; documentation_url?: string };
}

/** POST /graphql as plain fetch: the whole answer. */
export async function postGraphQL<D = Record<string, unknown>>(
  t: TestServer, token: string | null, body: unknown, path = '/graphql',
): Promise<RawAnswer<D>> {
  const res = await t.request(path, {
    method: 'POST',
    headers: token ? { authorization: `bearer ${token}` } : {},
    json: body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as RawAnswer<D>['body'] };
}

/** Runs a query through Octokit's client and expects it to fail with GraphQL errors; returns them and the partial data. */
export async function graphqlErrors(call: Promise<unknown>): Promise<{ errors: WireError[]; data: unknown }> {
  try {
    await call;
  } catch (e) {
    if (e instanceof GraphqlResponseError) return { errors: e.errors as unknown as WireError[], data: e.data };
    throw e;
  }
  assert.fail('expected GraphQL errors, the query succeeded');
}
