// The route table the fuzz suite generates its requests from: Wharf's own, read from an
// app built in this process on a throwaway SQLite data dir (the conventions record
// every route with its JSON schemas as it is registered: app.routeTable), so that a
// route added to Wharf is fuzzed without being listed anywhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createServer } from '../src/server.ts';

/** A JSON schema as the route declared it (plain data: TypeBox's symbols dropped). */
export type JsonSchema = Record<string, unknown>;

export interface FuzzRoute {
  method: string;
  /** Fastify's form: /repos/:owner/:repo/issues, a trailing * for the rest of the path. */
  url: string;
  params: string[];
  body: JsonSchema | null;
  querystring: JsonSchema | null;
  /** Answers bytes that are not JSON (git, pages, archives). */
  raw: boolean;
}

export async function readRouteTable(): Promise<FuzzRoute[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-fuzz-routes-'));
  try {
    const config = loadConfig({ WHARF_DATA_DIR: dir, LOG_LEVEL: 'silent', WHARF_SSH_PORT: '0', PORT: '0', WHARF_BASE_URL: 'http://127.0.0.1:1' });
    const server = await createServer(config, { logger: false });
    try {
      await server.app.ready();
      const routes: FuzzRoute[] = [];
      for (const r of server.app.routeTable) {
        const schema = (r.schema ?? {}) as Record<string, unknown>;
        const plain = (s: unknown) => (s && typeof s === 'object' ? JSON.parse(JSON.stringify(s)) as JsonSchema : null);
        // PATCH routes answer POST too; fuzzing each method it was registered with.
        for (const method of r.method.split(',')) {
          routes.push({
            method, url: r.url,
            params: [...r.url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*'),
            body: plain(schema.body), querystring: plain(schema.querystring), raw: r.rawResponse,
          });
        }
      }
      return routes;
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
