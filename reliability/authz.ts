// The authorization matrix (issue #22 § 1): every route of the app's own route table ×
// every actor (owner, collaborator of each role, organization member, outsider,
// anonymous, a token without repository scopes, an installation without the
// permission) × private and public repositories (user- and organization-owned), and
// GraphQL node(id:) for each private object: the expected answer of each cell, no leaks.
//
// Routes come from the running app (its onRoute table), not a list kept here; each is
// judged by the first rule of authz-rules.ts it matches, and one that matches none is a
// MISS (a route added without an authorization rule fails the suite).
//
// Reads are sent for every actor. Writes are sent only where the actor must be refused
// (so the fixture stays as it was: an allowed write is not sent), with a body made
// from the route's schema so that validation does not answer first; afterwards the
// fixture must be unchanged. Leaks: a refused actor answered 2xx (or redirected to the
// thing); a hidden private resource answered anything but 404 (its existence shows).
import type { FastifySchema } from 'fastify';
import type { RouteEntry } from '../src/http/types.ts';
import { buildFixture, type Actor, type Dialect, type Fixture, type FixtureRepo } from './authz-fixture.ts';
import { expectedOutcome, judge, roleOn, type Outcome } from './authz-expect.ts';
import { ruleFor, type Rule } from './authz-rules.ts';
import type { Figure } from './figures.ts';

export interface AuthzOptions {
  dialect: Dialect;
  /** PostgreSQL: the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  /** Keep the PostgreSQL schema afterwards. */
  keep?: boolean;
  /** Which repositories to ask about (authz-fixture.ts REPOSITORY_KINDS) [all four: user/org × private/public]. */
  repositories?: readonly string[];
  /**
   * Reads of public repositories are not sent (CI's short profile: everyone may read
   * them, so they are the cells least likely to leak; their writes are still sent).
   */
  skipPublicReads?: boolean;
  /** Requests in flight at once [16]. */
  concurrency?: number;
  progress?: (line: string) => void;
}

export interface AuthzResult {
  figures: Figure[];
  cells: number;
  seconds: number;
  /** Every mismatch and leak in full (the figures show the first few). */
  details: { mismatches: string[]; leaks: string[]; revealed: string[]; graphql: string[]; slowest: string[]; unresolved: string[] };
}

interface Cell {
  route: RouteEntry;
  method: string;
  rule: Rule;
  actor: Actor;
  repo: FixtureRepo | null;
  path: string;
  outcome: Outcome;
  body: unknown;
}

interface Answer { cell: Cell; status: number; text: string; ghostStatus: number | null; ms: number }

/** A repository name that names nothing: what a hidden repository's answer must look like. */
const GHOST = 'authz-no-such-repo';
/** The previews some routes require (team discussions, migrations), asked for on every request. */
const ACCEPT = 'application/vnd.service.v3+json, application/vnd.service.squirrel-girl-preview+json, application/vnd.service.wyandotte-preview+json';

// ---------------------------------------------------------------- requests from routes

/** Values of a wildcard, by what the route is about. */
function wildcardFor(url: string, r: FixtureRepo | null): string {
  const p = r?.params ?? {};
  if (/\/git\/(refs|ref|matching-refs)\/\*$/.test(url)) return 'heads/main';
  if (/\/compare\/\*$/.test(url)) return 'main...feature';
  if (/\/commits\/\*$/.test(url)) return p.sha ?? 'main';
  if (/\/git\/trees\/\*$/.test(url)) return p.tree_sha ?? 'main';
  if (/\/releases\/tags\/\*$/.test(url) || /\/releases\/download\/\*$/.test(url)) return 'v1.0';
  if (/\/(branches|zipball|tarball|tree)\/\*$/.test(url)) return 'main';
  if (/^\/:owner\/:repo\/(raw|blob|blame)\/\*$/.test(url)) return 'main/README.md';
  if (/^\/:owner\/:repo\/releases\/tag\/\*$/.test(url)) return 'v1.0';
  return 'README.md';
}

/** Parameters whose value depends on the route rather than on the resource. */
const BY_ROUTE: readonly [RegExp, Record<string, string>][] = [
  [/^\/gitignore\/templates\/:name$/, { name: 'C' }],
  [/^\/licenses\/:license$/, { license: 'mit' }],
  [/^\/emojis\/:name$/, { name: '+1' }],
];

function fillPath(url: string, f: Fixture, r: FixtureRepo | null): string {
  const values: Record<string, string> = {
    ...f.globals, ...(r?.params ?? {}),
    ...(r ? { template_owner: r.owner, template_repo: r.repo, user: f.globals.user! } : {}),
    ...Object.assign({}, ...BY_ROUTE.filter(([re]) => re.test(url)).map(([, v]) => v)),
    // The pages name a pull request by `number` too.
    ...(r && /\/pull\/:number/.test(url) ? { number: r.params.pull_number! } : {}),
  };
  return url
    .replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'))
    .replace(/\*$/, wildcardFor(url, r));
}

interface JsonSchema {
  type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[];
  enum?: unknown[]; const?: unknown; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; items?: JsonSchema;
  minLength?: number; minimum?: number; format?: string; pattern?: string; minItems?: number;
}

/**
 * A body that passes the route's schema: each required field with a plain value of its
 * type (strings the fixture knows where the name says what they are). The point is that
 * the answer is about authorization, not about a missing field.
 */
export function sampleOf(s: JsonSchema | undefined, name = '', depth = 0): unknown {
  if (!s || depth > 6) return {};
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (branch) return sampleOf(branch, name, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sampleOf(s.properties?.[key], key, depth + 1);
      return out;
    }
    case 'array': return s.minItems ? [sampleOf(s.items, name, depth + 1)] : [];
    case 'integer': case 'number': return Math.max(1, s.minimum ?? 1);
    case 'boolean': return false;
    case 'string': return stringFor(name, s);
    default: return {};
  }
}

function stringFor(name: string, s: JsonSchema): string {
  if (s.format === 'uri' || /url$/.test(name)) return 'http://127.0.0.1:9/authz';
  if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
  // A pattern of words to choose from (`^(?:top|bottom|after:\d+)$`): the first word.
  const word = s.pattern ? /^\^\(\?:([A-Za-z_]+)\|/.exec(s.pattern) : null;
  if (word) return word[1]!;
  const known: Record<string, string> = {
    sha: '0000000000000000000000000000000000000000', ref: 'refs/heads/authz-branch', tag_name: 'v9.9', tag: 'v9.9',
    head: 'feature', base: 'main', title: 'authz', name: 'authz-name', body: 'authz', message: 'authz', content: 'YXV0aHo=',
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAuthz', color: '00ff00', context: 'authz', state: 'success', permission: 'pull',
    tree: '0000000000000000000000000000000000000000', event: 'COMMENT', encoding: 'utf-8', path: 'README.md',
  };
  return known[name] ?? 'authz'.padEnd(s.minLength ?? 0, 'z');
}

function bodyOf(route: RouteEntry, method: string): unknown {
  if (method === 'GET') return undefined;
  const schema = (route.schema as FastifySchema | null)?.body as JsonSchema | undefined;
  return schema ? sampleOf(schema) : {};
}

// ---------------------------------------------------------------- the matrix

function isRepoRoute(url: string): boolean {
  return /:owner\/:repo|:template_owner\/:template_repo/.test(url);
}

function cellsOf(f: Fixture, table: readonly RouteEntry[]): { cells: Cell[]; unmatched: string[]; exempt: string[] } {
  const cells: Cell[] = [];
  const unmatched: string[] = [];
  const exempt: string[] = [];
  for (const route of table) {
    const method = route.method.split(',')[0]!;
    const rule = ruleFor(method, route.url);
    if (!rule) { unmatched.push(`${method} ${route.url}`); continue; }
    if (rule.need.on === 'exempt') { exempt.push(`${method} ${route.url}: ${rule.need.why}`); continue; }
    const repos = isRepoRoute(route.url) ? f.repos.filter((r) => r.orgOwned || !rule.orgReposOnly) : [null];
    for (const repo of repos) {
      for (const actor of f.actors) {
        const outcome = expectedOutcome(rule, method, route.appPermission, actor, repo);
        cells.push({ route, method, rule, actor, repo, path: fillPath(route.url, f, repo), outcome, body: bodyOf(route, method) });
      }
    }
  }
  return { cells, unmatched, exempt };
}

/** Writes are sent only to those who must be refused (an allowed write would change the fixture). */
function sent(c: Cell): boolean {
  if (c.method === 'GET') return true;
  return c.outcome === 'hide' || c.outcome === 'deny' || c.outcome === 'unauth' || c.outcome === 'integration';
}

async function request(f: Fixture, c: Cell, path: string): Promise<{ status: number; text: string }> {
  const res = await f.t.request(path, {
    method: c.method, redirect: 'manual', headers: { accept: ACCEPT }, ...(c.actor.token ? { token: c.actor.token } : {}),
    ...(c.body !== undefined ? { json: c.body } : {}),
  });
  return { status: res.status, text: (await res.text()).slice(0, 200) };
}

async function send(f: Fixture, c: Cell): Promise<Answer> {
  const started = performance.now();
  const { status, text } = await request(f, c, c.path);
  // A hidden repository must answer as one that does not exist: the same request there.
  const ghost = c.outcome === 'hide' && c.repo ? c.path.replace(`/${c.repo.owner}/${c.repo.repo}`, `/${c.repo.owner}/${GHOST}`) : null;
  const ghostStatus = ghost && ghost !== c.path ? (await request(f, c, ghost)).status : null;
  return { cell: c, status, text, ghostStatus, ms: performance.now() - started };
}

async function pool<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

// ---------------------------------------------------------------- the fixture, before and after

/** What refused writes must not have changed, as the owner reads it. */
async function snapshot(f: Fixture): Promise<string> {
  const parts: string[] = [];
  const read = async (p: string, pick: (v: unknown) => unknown) => {
    const res = await f.t.request(p, { token: f.owner.token });
    parts.push(`${p} ${res.status} ${JSON.stringify(pick(res.ok ? await res.json() : await res.text()))}`);
  };
  const names = (v: unknown) => (Array.isArray(v) ? v.map((x: Record<string, unknown>) => x.name ?? x.title ?? x.login ?? x.ref ?? x.id).sort() : v);
  for (const r of f.repos) {
    const b = `/repos/${r.owner}/${r.repo}`;
    await read(b, (v) => { const o = v as Record<string, unknown>; return [o.name, o.private, o.description, o.default_branch, o.archived, o.has_issues, o.topics]; });
    for (const sub of ['labels', 'milestones?state=all', 'issues?state=all', 'pulls?state=all', 'releases', 'hooks', 'keys', 'collaborators', 'git/refs', 'deployments', 'invitations', 'issues/comments', 'branches/main/protection', 'interaction-limits']) {
      await read(`${b}/${sub}`, names);
    }
    await read(`${b}/issues/${r.params.issue_number}`, (v) => { const o = v as Record<string, unknown>; return [o.title, o.state, o.locked, o.body, o.assignees, o.labels, o.milestone && (o.milestone as { number: number }).number]; });
    await read(`${b}/contents/README.md`, (v) => (v as Record<string, unknown>).sha);
  }
  await read(`/orgs/${f.org}`, (v) => { const o = v as Record<string, unknown>; return [o.login, o.description, o.default_repository_permission]; });
  for (const sub of ['members', 'teams', 'hooks', 'repos']) await read(`/orgs/${f.org}/${sub}`, names);
  return parts.join('\n');
}

function diffLines(a: string, b: string): string[] {
  const before = a.split('\n');
  const after = b.split('\n');
  return after.flatMap((line, i) => (line === before[i] ? [] : [`was: ${before[i]}`, `now: ${line}`]));
}

// ---------------------------------------------------------------- GraphQL node(id:)

interface NodeCell { actor: Actor; repo: FixtureRepo; kind: string; id: string; visible: boolean | null }

async function nodeMatrix(f: Fixture, width: number): Promise<{ cells: number; matched: number; leaks: string[]; mismatches: string[] }> {
  const cells: NodeCell[] = [];
  for (const repo of f.repos) {
    for (const [kind, id] of Object.entries(repo.nodes)) {
      for (const actor of f.actors) {
        const role = roleOn(actor, repo);
        // An installation holding metadata only sees the repository, not its issues or releases: not judged when visible.
        const visible = actor.kind === 'anonymous' ? false : role === null ? false : actor.kind === 'installation' && kind !== 'repository' ? null : true;
        cells.push({ actor, repo, kind, id, visible });
      }
    }
  }
  const leaks: string[] = [];
  const mismatches: string[] = [];
  let matched = 0;
  await pool(cells, width, async (c) => {
    const res = await f.t.request('/graphql', {
      method: 'POST', ...(c.actor.token ? { token: c.actor.token } : {}),
      json: { query: 'query($id: ID!) { node(id: $id) { id __typename } }', variables: { id: c.id } },
    });
    const text = await res.text();
    let got: string | null = null;
    try { got = (JSON.parse(text) as { data?: { node?: { id?: string } | null } }).data?.node?.id ?? null; } catch { got = null; }
    const where = `${c.actor.name} node(${c.kind} of ${c.repo.key}): ${res.status} ${text.slice(0, 160)}`;
    // GraphQL takes no anonymous callers (spec, Authentication 15): 401 for them.
    if (c.visible === false && got !== null) leaks.push(where);
    else if (c.actor.kind === 'anonymous' && res.status !== 401) mismatches.push(where);
    else if (c.visible === true && got !== c.id) mismatches.push(where);
    else matched++;
  });
  return { cells: cells.length, matched, leaks, mismatches };
}

// ---------------------------------------------------------------- the run

function describe(a: Answer): string {
  return `${a.cell.method} ${a.cell.path} as ${a.cell.actor.name}${a.cell.repo ? ` (${a.cell.repo.key})` : ''}: expected ${a.cell.outcome}, got ${a.status}${a.ghostStatus !== null ? ` (no such repository: ${a.ghostStatus})` : ''} ${a.text.replace(/\s+/g, ' ').slice(0, 120)}`;
}

const first = (items: string[], n = 8) => items.slice(0, n).join('\n') + (items.length > n ? `\n… and ${items.length - n} more` : '');

export async function runAuthz(o: AuthzOptions): Promise<AuthzResult> {
  const started = Date.now();
  const suite = `authz (${o.dialect})`;
  const progress = o.progress ?? (() => {});
  const width = o.concurrency ?? 16;
  const f = await buildFixture(o);
  try {
    progress(`${suite}: fixture built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const table = f.t.server.app.routeTable;
    const { cells, unmatched, exempt } = cellsOf(f, table);
    const toSend = cells.filter((c) => sent(c) && !(o.skipPublicReads && c.method === 'GET' && c.repo && !c.repo.private));
    const before = await snapshot(f);
    // Reads first (the owner's answer is the reference for 404s of parameters the fixture
    // does not resolve), then writes, deletions last.
    const order = (c: Cell) => (c.method === 'GET' ? (c.actor.kind === 'owner' ? 0 : 1) : c.method === 'DELETE' ? 3 : 2);
    const answers: Answer[] = [];
    const sending = Date.now();
    for (const stage of [0, 1, 2, 3]) answers.push(...await pool(toSend.filter((c) => order(c) === stage), width, (c) => send(f, c)));
    progress(`${suite}: ${answers.length} requests in ${((Date.now() - sending) / 1000).toFixed(1)} s`);
    const after = await snapshot(f);
    const ownerStatus = new Map<string, number>();
    for (const a of answers) if (a.cell.actor.kind === 'owner' && a.cell.method === 'GET') ownerStatus.set(`${a.cell.method} ${a.cell.path}`, a.status);
    const leaks: string[] = [];
    const revealed: string[] = [];
    const mismatches: string[] = [];
    let matched = 0;
    const unresolved = new Set<string>();
    for (const a of answers) {
      const j = judge(a.cell.outcome, a.cell.rule, {
        status: a.status, anonymous: a.cell.actor.kind === 'anonymous', ghostStatus: a.ghostStatus,
        ownerStatus: ownerStatus.get(`${a.cell.method} ${a.cell.path}`) ?? null,
      });
      if (j.leak) leaks.push(describe(a));
      if (j.revealed) revealed.push(describe(a));
      if (j.verdict === 'match') matched++;
      else if (j.verdict === 'unresolved') unresolved.add(`${a.cell.method} ${a.cell.route.url}`);
      else mismatches.push(describe(a));
    }
    const changed = diffLines(before, after);
    const nodes = await nodeMatrix(f, width);
    const routes = table.length;
    const figures: Figure[] = [
      { suite, name: 'routes in the app / with an authorization rule', value: `${routes} / ${routes - unmatched.length}`, pass: unmatched.length === 0, detail: unmatched.length ? `routes no rule matches (add one to reliability/authz-rules.ts):\n${first(unmatched, 20)}` : undefined },
      { suite, name: 'routes outside the matrix (exempt, with a reason)', value: String(exempt.length), pass: null, detail: first(exempt, 100) },
      { suite, name: 'cells (route × actor × repository) / sent', value: `${cells.length} / ${answers.length}`, pass: null, detail: 'allowed writes are not sent (they would change the fixture)' },
      { suite, name: 'cells answered as expected', value: `${matched} of ${answers.length}`, pass: mismatches.length === 0, detail: mismatches.length ? `${mismatches.length} mismatches:\n${first(mismatches, 12)}` : undefined },
      { suite, name: 'leaks: refused actor answered 2xx/3xx', value: String(leaks.length), pass: leaks.length === 0, detail: leaks.length ? first(leaks) : undefined },
      { suite, name: 'leaks: hidden private repository answered otherwise than a missing one', value: String(revealed.length), pass: revealed.length === 0, detail: revealed.length ? first(revealed) : undefined },
        { suite, name: 'routes whose allowed reads the owner gets 404 too (parameter not in the fixture)', value: String(unresolved.size), pass: null, detail: first([...unresolved], 100) },
      { suite, name: 'fixture unchanged after the refused writes', value: changed.length === 0 ? 'yes' : `no (${changed.length / 2} reads differ)`, pass: changed.length === 0, detail: changed.length ? first(changed, 10) : undefined },
      { suite, name: 'GraphQL node(id:) cells answered as expected', value: `${nodes.matched} of ${nodes.cells}`, pass: nodes.mismatches.length === 0, detail: nodes.mismatches.length ? first(nodes.mismatches) : undefined },
      { suite, name: 'GraphQL node(id:) leaks: private object to one who may not see it', value: String(nodes.leaks.length), pass: nodes.leaks.length === 0, detail: nodes.leaks.length ? first(nodes.leaks) : undefined },
    ];
    return {
      figures, cells: answers.length + nodes.cells, seconds: (Date.now() - started) / 1000,
      details: {
        mismatches, leaks, revealed, graphql: [...nodes.leaks, ...nodes.mismatches], unresolved: [...unresolved],
        slowest: [...answers].sort((a, b) => b.ms - a.ms).slice(0, 20).map((a) => `${a.ms.toFixed(0)} ms ${describe(a)}`),
      },
    };
  } finally {
    await f.close();
  }
}
