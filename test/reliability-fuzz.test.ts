// Issue #22 § 1, the fuzz suite's short profile: Wharf as a child process (as the other
// process tests start it: test/helpers/programs.ts), sent malformed requests generated
// from its own route table over every route (bad JSON, wrong types, huge and deeply
// nested bodies, odd unicode, path traversal, SQL metacharacters, out-of-range numbers,
// bad media types and headers, bad query strings), then abusive GraphQL calls (deep
// nesting, 1,000 aliases, huge first, fragment cycles …): no 5xx, no request left
// unanswered, no refused request that changed the stored state, and the GraphQL calls
// past a bound answered with errors. `npm run reliability` runs the full suite (100,000
// requests, both databases).
//
// SQLite only: what is fuzzed is the HTTP layer's handling of input (parsing,
// validation, bounds), which is the same code on both databases; the full suite runs
// PostgreSQL too.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { programArgs } from './helpers/programs.ts';
import { testDialect } from './helpers/server.ts';
import { runFuzz, type FuzzResult } from '../reliability/fuzz.ts';
import { printFigures, verdict } from '../reliability/figures.ts';

const skip = testDialect() === 'postgres' ? 'SQLite only: the input handling fuzzed does not depend on the database (npm run reliability covers PostgreSQL)' : false;

let result: FuzzResult;
let table = '';

before(async () => {
  if (skip) return;
  result = await runFuzz({
    serverArgs: programArgs('src/main.ts'),
    cwd: process.cwd(),
    dialect: 'sqlite',
    requests: 700,
    graphqlRequests: 40,
    seed: Number(process.env.RELIABILITY_FUZZ_SEED ?? 1),
    batchSize: 250,
  });
  const lines: string[] = [];
  printFigures(result.figures, (l) => lines.push(l));
  table = lines.join('\n');
}, { timeout: 120_000 });

test('fuzz: malformed REST requests over every route and abusive GraphQL calls get no 5xx, and refused requests write nothing', { skip }, () => {
  const misses = result.figures.filter((f) => f.pass === false);
  assert.deepEqual(misses.map((f) => `${f.name}: ${f.value} ${verdict(f)}\n${f.detail ?? ''}`), [], table);
  // Every route was sent something, and the state was compared at all.
  assert.ok(result.routes > 500 && result.requests >= result.routes, `${result.requests} requests over ${result.routes} routes:\n${table}`);
  const compared = result.figures.find((f) => f.name.startsWith('batches compared'))!;
  assert.ok(Number(compared.value.split(' / ')[1]) > 0, `no request was compared:\n${table}`);
  assert.ok((result.statuses['4xx'] ?? 0) > result.requests / 2, `most malformed requests should be refused with a 4xx:\n${table}`);
});
