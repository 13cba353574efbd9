// A request through the test server's client, its JSON body parsed (undefined when empty):
// for the status codes and headers Octokit would turn into exceptions.
import type { TestServer } from './server.ts';

export interface JsonResponse {
  status: number;
  // Any: suites read whatever field the route at hand answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export async function requestJson(t: TestServer, method: string, path: string, token: string | undefined, json?: unknown): Promise<JsonResponse> {
  const res = await t.request(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
