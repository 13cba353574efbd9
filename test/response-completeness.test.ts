// Every property the published description (npm @octokit/openapi, api.github.com)
// requires in an operation's answer is declared in the response schema of Wharf's
// route for it, nested records included wherever Wharf's schema spells them out. Outside
// production every answer is also serialized by that schema and must equal what the view
// built (src/http/serializer.ts), so a declared property is a property every answer has.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './helpers/server.ts';

type Schema = {
  $ref?: string; type?: string | string[]; items?: Schema; properties?: Record<string, Schema>; required?: string[];
  additionalProperties?: boolean | Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
  content?: Record<string, { schema?: Schema }>;
};

const require = createRequire(import.meta.url);
const doc = require('@octokit/openapi/generated/api.github.com.json') as { paths: Record<string, Record<string, { responses?: Record<string, Schema> }>> };

/**
 * Where the published description cannot be met by any answer, with why.
 * GET /app/installations: its inline installation record gives `account` as allOf
 * simple-user and enterprise, which no account is at once (the installation schema
 * everywhere else says anyOf).
 */
const UNSATISFIABLE = new Set(['GET /app/installations 200 [].account']);

function deref(s: Schema | undefined): Schema | undefined {
  let node = s;
  for (let i = 0; node?.$ref && i < 20; i++) {
    node = node.$ref.replace('#/', '').split('/').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], doc) as Schema;
  }
  return node;
}

/** The object branches of one of Wharf's schemas (TypeBox writes a nullable record as anyOf). */
function objectsOf(s: Schema | undefined): Schema[] {
  if (!s) return [];
  if (s.properties) return [s];
  return [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].flatMap(objectsOf);
}

function itemsOf(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  if (s.items) return s.items;
  for (const b of s.anyOf ?? []) {
    const items = itemsOf(b);
    if (items) return items;
  }
  return undefined;
}

/**
 * Properties of `published` that `ours` does not declare, as paths (".owner.login", "[].id"):
 * its required ones, or with `all` every property it lists.
 */
function missingProperties(published: Schema | undefined, ours: Schema | undefined, at = '', depth = 0, all = false): string[] {
  const theirs = deref(published);
  if (!theirs || !ours || depth > 6) return [];
  if (theirs.items) {
    const items = itemsOf(ours);
    return items ? missingProperties(theirs.items, items, `${at}[]`, depth + 1, all) : [];
  }
  // One of several records: the answer need be only one of them (the nearest).
  const branches = theirs.oneOf ?? theirs.anyOf;
  if (branches) return branches.map((b) => missingProperties(b, ours, at, depth, all)).sort((a, b) => a.length - b.length)[0] ?? [];
  if (theirs.allOf) return theirs.allOf.flatMap((b) => missingProperties(b, ours, at, depth, all));
  const objects = objectsOf(ours);
  if (!theirs.properties || objects.length === 0) return [];
  // A record Wharf's schema leaves open (no properties listed) is not declared here to check.
  if (objects.some((o) => Object.keys(o.properties ?? {}).length === 0)) return [];
  return (all ? Object.keys(theirs.properties) : theirs.required ?? []).flatMap((name) => {
    const declaring = objects.find((o) => o.properties?.[name]);
    return declaring ? missingProperties(theirs.properties![name], declaring.properties![name], `${at}.${name}`, depth + 1, all) : [`${at}.${name}`];
  });
}

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

test('the walk finds a missing property, nested and in lists, and accepts one branch of a union', () => {
  const user: Schema = { type: 'object', required: ['login', 'id'], properties: { login: { type: 'string' }, id: { type: 'integer' } } };
  const published: Schema = { type: 'array', items: { type: 'object', required: ['owner', 'name'], properties: { owner: user, name: { type: 'string' } } } };
  const ours: Schema = { type: 'array', items: { type: 'object', properties: { owner: { anyOf: [{ type: 'object', properties: { login: { type: 'string' } } }, { type: 'null' }] } } } };
  assert.deepEqual(missingProperties(published, ours), ['[].owner.id', '[].name']);
  const union: Schema = { anyOf: [user, { type: 'object', required: ['slug'], properties: { slug: { type: 'string' } } }] };
  assert.deepEqual(missingProperties(union, { type: 'object', properties: { slug: { type: 'string' } } }), []);
});

/** Each compared answer: its route key and Wharf's and the published schema. */
function comparedAnswers(): { key: string; published: Schema; ours: Schema }[] {
  const answers: { key: string; published: Schema; ours: Schema }[] = [];
  for (const route of t.server.app.routeTable) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const operation = doc.paths[path]?.[route.method.split(',')[0]!.toLowerCase()];
    if (!operation) continue;
    for (const [status, ours] of Object.entries((route.schema?.response ?? {}) as Record<string, Schema>)) {
      const published = deref(operation.responses?.[status])?.content?.['application/json']?.schema;
      if (published) answers.push({ key: `${route.method} ${path} ${status}`, published, ours });
    }
  }
  return answers;
}

test('measurement: published properties, optional ones included, that answers do not declare', () => {
  const byProperty = new Map<string, number>();
  const byOperation: string[] = [];
  for (const { key, published, ours } of comparedAnswers()) {
    const gaps = missingProperties(published, ours, '', 0, true);
    if (gaps.length) byOperation.push(`${gaps.length}\t${key}`);
    for (const gap of gaps) {
      const name = gap.replace(/^.*\./, '');
      byProperty.set(name, (byProperty.get(name) ?? 0) + 1);
    }
  }
  const top = [...byProperty].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${c}\t${n}`);
  console.log(`${byOperation.length} answers lack properties\n${byOperation.sort((a, b) => parseInt(b) - parseInt(a)).join('\n')}\nby property:\n${top.join('\n')}`);
});

test('every answer declares every property its published schema requires', () => {
  const table = t.server.app.routeTable;
  const gaps: string[] = [];
  let compared = 0;
  for (const route of table) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const operation = doc.paths[path]?.[route.method.split(',')[0]!.toLowerCase()];
    const responses = (route.schema?.response ?? {}) as Record<string, Schema>;
    if (!operation) continue;
    for (const [status, ours] of Object.entries(responses)) {
      const published = deref(operation.responses?.[status])?.content?.['application/json']?.schema;
      if (!published) continue;
      compared += 1;
      for (const gap of missingProperties(published, ours)) {
        const key = `${route.method} ${path} ${status} ${gap}`;
        if (![...UNSATISFIABLE].some((u) => key.startsWith(u))) gaps.push(key);
      }
    }
  }
  assert.ok(compared > 300, `answers compared: ${compared}`);
  assert.deepEqual(gaps, [], `${gaps.length} required properties not declared:\n${gaps.join('\n')}`);
});
