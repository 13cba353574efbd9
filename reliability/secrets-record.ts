// What the secrets suite searches: every response Wharf gives (a recording reverse
// proxy in front of it, through which every client of the run talks — fetch, the web
// client, git), every request Wharf sends (webhook deliveries, at a receiver here),
// and every row of every table of its database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  /** Header name (lower case) and value, each as sent. */
  headers: [string, string][];
  /** latin1, so that binary bodies (git packs) keep every byte. */
  body: string;
}

/** A reverse proxy to Wharf that keeps every response whole. */
export class RecordingProxy {
  readonly responses: RecordedResponse[] = [];
  private server: http.Server | null = null;
  base = '';

  async start(targetPort: number): Promise<void> {
    this.server = http.createServer((req, res) => {
      const headers = { ...req.headers };
      // Identity bodies only: a compressed one would hide what is in it.
      delete headers['accept-encoding'];
      const up = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const raw = answer.rawHeaders;
          const pairs: [string, string][] = [];
          for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
          this.responses.push({ method: req.method ?? '', path: req.url ?? '', status: answer.statusCode ?? 0, headers: pairs, body: body.toString('latin1') });
          res.writeHead(answer.statusCode ?? 502, raw);
          res.end(body);
        });
        answer.on('error', () => res.destroy());
      });
      up.on('error', () => { res.writeHead(502).end(); });
      req.pipe(up);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export interface ReceivedDelivery { headers: [string, string][]; body: string }

/** Where Wharf's webhooks go: keeps each request whole, answers 200. */
export class DeliveryReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = req.rawHeaders;
        const headers: [string, string][] = [];
        for (let i = 0; i < raw.length; i += 2) headers.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
        this.deliveries.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/** One cell of the database, as text (binary columns as latin1). */
export interface Cell { table: string; column: string; text: string }

function cellText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (v instanceof Date) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  return null; // numbers and booleans hold no secret text
}

/** Every text and binary cell of every table of Wharf's database. */
export async function databaseCells(dialect: 'sqlite' | 'postgres', dataDir: string, databaseUrl?: string, schema?: string): Promise<Cell[]> {
  const cells: Cell[] = [];
  const push = (table: string, row: Record<string, unknown>) => {
    for (const [column, v] of Object.entries(row)) {
      const text = cellText(v);
      if (text) cells.push({ table, column, text });
    }
  };
  if (dialect === 'sqlite') {
    const db = new Database(path.join(dataDir, 'wharf.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      for (const { name } of tables) {
        for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).iterate() as Iterable<Record<string, unknown>>) push(name, row);
      }
    } finally {
      db.close();
    }
    return cells;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'", [schema]);
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`SELECT * FROM "${schema}"."${table_name.replace(/"/g, '""')}"`);
      for (const row of rows.rows as Record<string, unknown>[]) push(table_name, row);
    }
  } finally {
    await client.end();
  }
  return cells;
}
