// The reliability suites' HTTP calls to Wharf: a token, JSON in and out, each with a
// time limit so that a hang is seen as one.
export const USER_AGENT = 'wharf-reliability/1.0';

export interface Answer {
  status: number;
  json: unknown;
  headers: Headers;
}

export interface SendOptions {
  /** Authorization header value as sent (`token …`, `Basic …`); none: anonymous. */
  authorization?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function send(base: string, method: string, pathname: string, o: SendOptions = {}): Promise<Answer> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      'user-agent': USER_AGENT, accept: 'application/vnd.github+json',
      ...(o.authorization ? { authorization: o.authorization } : {}),
      ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...o.headers,
    },
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    signal: AbortSignal.timeout(o.timeoutMs ?? 20_000),
  });
  // The status line arrived: a 2xx is acknowledged even if the body is then cut off.
  let json: unknown = null;
  try {
    const text = await res.text();
    json = text ? JSON.parse(text) : null;
  } catch { /* acknowledged without its body */ }
  return { status: res.status, json, headers: res.headers };
}

export function call(base: string, token: string, method: string, pathname: string, body?: unknown, timeoutMs = 20_000): Promise<Answer> {
  return send(base, method, pathname, { authorization: `token ${token}`, body, timeoutMs });
}

export async function callOk(base: string, token: string, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const a = await call(base, token, method, pathname, body);
  if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${pathname} answered ${a.status}: ${JSON.stringify(a.json).slice(0, 300)}`);
  return (a.json ?? {}) as Record<string, unknown>;
}

/** Every page of a list. */
export async function listAll(base: string, token: string, pathname: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const sep = pathname.includes('?') ? '&' : '?';
    const items = await callOk(base, token, 'GET', `${pathname}${sep}per_page=100&page=${page}`) as unknown as Record<string, unknown>[];
    all.push(...items);
    if (items.length < 100) return all;
  }
}
