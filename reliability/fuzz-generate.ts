// Malformed REST requests, generated deterministically from a seed and the route table
// (reliability/fuzz-routes.ts): each request is one route with its path parameters
// resolved to real objects (the fixtures), then one kind of damage. Kinds:
//   bad-json        unparsable or truncated JSON
//   wrong-types     a declared field (or the body itself) of a type its schema does not take
//   huge-body       a field of megabytes, or a body past the route's limit
//   deep-body       arrays and objects nested thousands deep
//   unicode         lone surrogates, NUL, bidi overrides, invalid UTF-8 bytes, in fields, parameters and queries
//   path-traversal  ../, %2e%2e, encoded slashes and absolute paths in path parameters
//   sql             SQL metacharacters in parameters, queries and fields
//   numbers         out-of-range, fractional, negative, exponent and non-numbers where numbers go
//   media-type      Content-Type and Accept that are not JSON, or malformed
//   headers         a bad API version, malformed credentials, malformed conditional headers
//   query           malformed query strings (bad encoding, arrays, huge values)
import type { FuzzRoute, JsonSchema } from './fuzz-routes.ts';

export const KINDS = ['bad-json', 'wrong-types', 'huge-body', 'deep-body', 'unicode', 'path-traversal', 'sql', 'numbers', 'media-type', 'headers', 'query'] as const;
export type Kind = (typeof KINDS)[number];

export interface FuzzRequest {
  n: number;
  kind: Kind;
  /** The route as registered: "POST /repos/:owner/:repo/issues". */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export class Random {
  private s: number;
  constructor(seed: number) { this.s = seed >>> 0; }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number { return Math.floor(this.next() * n); }
  pick<T>(items: readonly T[]): T { return items[this.int(items.length)]!; }
  chance(p: number): boolean { return this.next() < p; }
}

const ODD_UNICODE = [
  '\u0000', '\ud800', '\udfff', 'a\ud83dz', '\u202e\u202dtxt.exe', '\u200b\u200c\u200d\ufeff', 'e\u0301\u0301\u0301\u0301',
  '\uffff\ufffe', '𝕱𝖚𝖟𝖟 🏳️‍🌈👩‍👩‍👧‍👦', 'Ω≈ç√∫', '\u0085\u2028\u2029', 'ﷺ'.repeat(50), '\u0007\u001b[31m', 'İıﬃß',
];
/** Raw bytes that are not UTF-8 (overlong, truncated, surrogates encoded). */
const BAD_UTF8 = [Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff, 0xfe]), Buffer.from([0xe2, 0x82])];
const TRAVERSAL = ['..', '../../../../etc/passwd', '..%2F..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e', '....//....//', '/etc/passwd', '..\\..\\windows', '%252e%252e%252f', '.git/config', 'a/../../b', '~root', '%00../x', '.', '.%00.'];
const SQL = ["' OR '1'='1", "'; DROP TABLE users; --", '" OR ""="', "1; SELECT pg_sleep(5)--", '%', '_', '\\', "') UNION SELECT * FROM tokens --", "1' AND 1=CAST((SELECT version()) AS int)--", '$1', '?', "\\'; --", '/**/OR/**/1=1', 'x%_\\%'];
const NUMBERS: unknown[] = [-1, 0, -0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, 1e308, -1e308, 99999999999999999999, 1e-300, '1e3', '0x10', 'NaN', 'Infinity', '-Infinity', '١٢', '1_000', ' 1', '+1', '00001'];
const NUMBER_TEXT = ['-1', '0', '-0', '1.5', '2147483648', '9007199254740993', '99999999999999999999', '1e308', 'NaN', 'Infinity', '0x10', '1e3', '+1', '%2B1', '١', '1%00', ''];
const BAD_JSON = ['{', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":NaN}', '[1,2', 'nul', '{"a":"\\x00"}', '{"a":"\\ud800"', '}{', '{"a":1}{"b":2}', '\u0000', '{"a":01}', '{"__proto__":{"polluted":1}', '{"a":1e99999'];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=bogus', '', ';;;', 'application/octet-stream', 'application/*', 'image/png'];
const ACCEPTS = ['application/vnd.service.foo+xml', 'application/vnd.service.v3.raw+json;q=abc', '*/*;q=-1', 'text/html', 'application/vnd.github.squirrel-girl-preview', ',,,', 'application/vnd.service.v99+json', '\u00ff'];

type Fixtures = Record<string, string>;

/** A value of the schema's type: what a well-formed field would hold. */
function plausible(schema: JsonSchema | undefined, r: Random, depth = 0): unknown {
  if (!schema || depth > 4) return 'fuzz';
  if (Array.isArray(schema.enum) && schema.enum.length) return r.pick(schema.enum as unknown[]);
  if ('const' in schema) return schema.const;
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (anyOf?.length) return plausible(r.pick(anyOf), r, depth + 1);
  const type = Array.isArray(schema.type) ? r.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case 'string': return 'fuzz';
    case 'integer': return 1;
    case 'number': return 1.5;
    case 'boolean': return true;
    case 'null': return null;
    case 'array': return [plausible(schema.items as JsonSchema | undefined, r, depth + 1)];
    case 'object': return objectOf(schema, r, depth + 1);
    default: return 'fuzz';
  }
}

function objectOf(schema: JsonSchema, r: Random, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [k, s] of Object.entries(props)) if (required.has(k) || r.chance(0.5)) out[k] = plausible(s, r, depth);
  return out;
}

/** A value of a type the schema does not take (when it takes anything, something odd). */
function wrongType(schema: JsonSchema | undefined, r: Random): unknown {
  const types = new Set<string>();
  const collect = (s: JsonSchema | undefined) => {
    if (!s) return;
    if (Array.isArray(s.type)) for (const t of s.type as string[]) types.add(t);
    else if (typeof s.type === 'string') types.add(s.type);
    for (const a of ((s.anyOf ?? s.oneOf ?? []) as JsonSchema[])) collect(a);
  };
  collect(schema);
  const candidates: unknown[] = [];
  if (!types.has('string')) candidates.push('fuzz', '', '1');
  if (!types.has('integer') && !types.has('number')) candidates.push(7, -1, 1.5);
  if (!types.has('boolean')) candidates.push(true, false);
  if (!types.has('null')) candidates.push(null);
  if (!types.has('array')) candidates.push([], [1, 'a', null], [{}]);
  if (!types.has('object')) candidates.push({}, { name: 1 }, { '': [] });
  if (types.has('integer')) candidates.push(1.5, 2 ** 64);
  return candidates.length ? r.pick(candidates) : r.pick([Symbol.for('x').toString(), -1, [[[]]]]);
}

function deep(depth: number, r: Random): string {
  const open = r.chance(0.5) ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  return open.repeat(depth) + '1' + close.repeat(depth);
}

export interface Generator {
  routes: FuzzRoute[];
  fixtures: Fixtures;
  token: string;
}

function fillPath(route: FuzzRoute, fixtures: Fixtures, override: (name: string) => string | null): string {
  return route.url.replace(/:(\w+)|\*$/g, (whole, name: string | undefined) => {
    const key = name ?? '*';
    const o = override(key);
    if (o !== null) return o;
    return key === '*' ? (fixtures['*'] ?? 'main') : encodeURIComponent(fixtures[key] ?? '1');
  });
}

function encodeOdd(value: string): string {
  // Percent-encoding every UTF-16 unit: a lone surrogate becomes the bytes of U+FFFD, so
  // lone surrogates go through as the raw CESU bytes instead.
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) out += `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** Request number n of the run (the same n and seed give the same request). */
export function generate(g: Generator, seed: number, n: number): FuzzRequest {
  const r = new Random((seed * 1_000_003 + n * 7919) >>> 0);
  r.next();
  const route = g.routes[n % g.routes.length]!;
  const kind = KINDS[Math.floor(n / g.routes.length + r.int(KINDS.length)) % KINDS.length]!;
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const headers: Record<string, string> = {
    'user-agent': 'wharf-reliability-fuzz/1.0', authorization: `token ${g.token}`, accept: 'application/vnd.github+json',
  };
  // A quarter of the requests go to the private repository.
  const fixtures = r.chance(0.25) && g.fixtures.private_repo ? { ...g.fixtures, repo: g.fixtures.private_repo } : g.fixtures;
  let path = fillPath(route, fixtures, () => null);
  let body: Buffer | undefined;
  let damageInPath = false;
  const json = (value: unknown) => { body = Buffer.from(JSON.stringify(value)); headers['content-type'] = 'application/json'; };
  const base = (): Record<string, unknown> => (route.body ? objectOf(route.body, r, 0) : {});
  const fields = Object.keys((route.body?.properties ?? {}) as Record<string, unknown>);
  const queryFields = Object.keys((route.querystring?.properties ?? {}) as Record<string, unknown>);
  const someField = () => (fields.length && r.chance(0.85) ? r.pick(fields) : r.pick(['not_a_field', 'name', 'title', 'body', 'id']));
  const someQuery = () => (queryFields.length && r.chance(0.85) ? r.pick(queryFields) : r.pick(['per_page', 'page', 'q', 'sort', 'since', 'ref']));
  const someParam = () => (route.params.length ? r.pick(route.params) : null);
  const withParam = (value: (name: string) => string) => {
    const p = someParam();
    if (p !== null) path = fillPath(route, fixtures, (name) => (name === p ? value(name) : null));
    if (p !== null) damageInPath = true;
    return p !== null;
  };
  const addQuery = (q: string) => { path += (path.includes('?') ? '&' : '?') + q; };
  const withField = (value: unknown) => { const b = base(); b[someField()] = value; json(b); };

  switch (kind) {
    case 'bad-json': {
      body = Buffer.from(r.pick(BAD_JSON));
      headers['content-type'] = 'application/json';
      if (r.chance(0.3)) body = Buffer.from(JSON.stringify(base()).slice(0, -1));
      break;
    }
    case 'wrong-types': {
      const choice = r.int(4);
      if (choice === 0) json(r.pick([[1, 2], 'text', 42, null, true, [{}]]));
      else if (choice === 1 || !fields.length) withField(wrongType(undefined, r));
      else {
        const f = r.pick(fields);
        const b = base();
        b[f] = wrongType((route.body!.properties as Record<string, JsonSchema>)[f], r);
        json(b);
      }
      if (!hasBody) addQuery(`${someQuery()}[]=1&${someQuery()}[a]=b`);
      break;
    }
    case 'huge-body': {
      const choice = r.int(3);
      if (choice === 0) withField('x'.repeat(r.pick([300_000, 900_000])));
      else if (choice === 1) withField(Array.from({ length: 50_000 }, (_, i) => i));
      else { body = Buffer.alloc(r.pick([1_100_000, 1_500_000]), 0x20); body.write('{"a":"', 0); headers['content-type'] = 'application/json'; }
      break;
    }
    case 'deep-body': {
      const depth = r.pick([65, 200, 5_000, 100_000]);
      if (r.chance(0.5)) { body = Buffer.from(`{"${someField()}":${deep(depth, r)}}`); headers['content-type'] = 'application/json'; }
      else { body = Buffer.from(deep(depth, r)); headers['content-type'] = 'application/json'; }
      break;
    }
    case 'unicode': {
      const odd = r.pick(ODD_UNICODE);
      const choice = r.int(4);
      if (choice === 0 && withParam(() => encodeOdd(`fuzz${odd}`))) break;
      if (choice === 1) { addQuery(`${someQuery()}=${encodeOdd(odd)}`); break; }
      if (choice === 2 && hasBody) {
        // A field holding raw bytes that are not UTF-8.
        const prefix = Buffer.from(`{"${someField()}":"`);
        body = Buffer.concat([prefix, r.pick(BAD_UTF8), Buffer.from('"}')]);
        headers['content-type'] = 'application/json';
        break;
      }
      // JSON escapes carry lone surrogates as they are.
      const b = base();
      b[someField()] = `fuzz${odd}`;
      body = Buffer.from(JSON.stringify(b).replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`));
      headers['content-type'] = 'application/json';
      break;
    }
    case 'path-traversal': {
      const t = r.pick(TRAVERSAL);
      if (!withParam((name) => (name === '*' ? t : encodeURIComponent(t).replace(/%25/g, '%')))) path = `/${t}${path}`;
      damageInPath = true;
      break;
    }
    case 'sql': {
      const s = r.pick(SQL);
      const choice = r.int(3);
      if (choice === 0 && withParam(() => encodeURIComponent(s))) break;
      if (choice === 1 || !hasBody) { addQuery(`${someQuery()}=${encodeURIComponent(s)}`); break; }
      withField(s);
      break;
    }
    case 'numbers': {
      const choice = r.int(3);
      if (choice === 0 && withParam(() => encodeURIComponent(r.pick(NUMBER_TEXT)))) break;
      if (choice === 1 || !hasBody) { addQuery(`${someQuery()}=${encodeURIComponent(r.pick(NUMBER_TEXT))}`); break; }
      const v = r.pick(NUMBERS);
      const b = base();
      b[someField()] = v;
      // 1e999 and friends only exist as JSON text.
      body = Buffer.from(r.chance(0.2) ? JSON.stringify(b).replace(/}$/, ',"huge":1e999,"neg":-1e999}').replace(/^\{,/, '{') : JSON.stringify(b));
      headers['content-type'] = 'application/json';
      break;
    }
    case 'media-type': {
      if (r.chance(0.5)) headers.accept = r.pick(ACCEPTS);
      body = r.chance(0.5) ? Buffer.from(JSON.stringify(base())) : Buffer.from(r.pick(['<a>1</a>', 'a=1&b=2', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', '\u0000\u0001']));
      headers['content-type'] = r.pick(CONTENT_TYPES);
      if (headers['content-type'] === '') delete headers['content-type'];
      break;
    }
    case 'headers': {
      const choice = r.int(6);
      if (choice === 0) headers['x-github-api-version'] = r.pick(['1999-01-01', 'latest', '', '2022-11-28; DROP', '\u00e9']);
      else if (choice === 1) headers.authorization = r.pick(['token', 'Bearer ', 'Basic !!!', 'Basic ' + Buffer.from(':').toString('base64'), 'token \u00ff', `token ${g.token}x`, 'Digest a=b', `token ${'a'.repeat(5000)}`]);
      else if (choice === 2) { headers['if-none-match'] = r.pick(['"', 'W/', '*, "x"', 'x'.repeat(4000)]); headers['if-modified-since'] = r.pick(['yesterday', '0', 'Mon, 99 Foo 9999 99:99:99 GMT']); }
      else if (choice === 3) headers['x-http-method-override'] = r.pick(['DELETE', 'TRACE', '\u00ff']);
      else if (choice === 4) headers.range = r.pick(['bytes=9-1', 'bytes=-', 'lines=1-2', 'bytes=0-99999999999999999999']);
      else headers['x-fuzz'] = 'h'.repeat(r.pick([8_000, 20_000]));
      // The damage is in the headers; the body is a malformed one, so that a route that
      // ignores them still has something to refuse.
      if (hasBody) { body = Buffer.from(r.pick(BAD_JSON)); headers['content-type'] = 'application/json'; }
      break;
    }
    case 'query': {
      addQuery(r.pick([
        `${someQuery()}=%ZZ`, `${someQuery()}=%`, `${someQuery()}[]=a&${someQuery()}[b]=c`, `${someQuery()}=${'q'.repeat(10_000)}`,
        `${someQuery()}&${someQuery()}&${someQuery()}`, `=${someQuery()}`, `${someQuery()}=1&${someQuery()}=2&${someQuery()}=3`,
        `per_page=${r.pick(NUMBER_TEXT)}&page=${r.pick(NUMBER_TEXT)}`, `${someQuery()}=%00`, `${someQuery()}=${encodeOdd(r.pick(ODD_UNICODE))}`,
      ]));
      if (hasBody) { body = Buffer.from(r.pick(BAD_JSON)); headers['content-type'] = 'application/json'; }
      break;
    }
  }
  // A write route that declares no body ignores a well-formed one: what damage there
  // was in it (or in the query) would leave a valid request, and a DELETE would then
  // remove the fixtures the rest of the run resolves its paths to. Its body is made
  // unparsable instead, unless the damage is in the path (which the route must refuse).
  if (hasBody && !route.body && !damageInPath && (body === undefined || parses(body))) {
    body = Buffer.from(r.pick(BAD_JSON));
    headers['content-type'] = 'application/json';
  }
  return { n, kind, route: `${route.method} ${route.url}`, method: route.method, path, headers, body };
}

function parses(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
