// Event throughput: N issues created (POST /repos/{owner}/{repo}/issues) while 5 hooks
// point at a receiver in this process; how long until all N × 5 deliveries arrived, and
// what the hooks add to the create path (against the same number of creates in a
// repository without hooks, half measured before and half after, so that neither
// side has the warmer process). Where the issues endpoint is missing, branches
// created through the git data API stand in (each raises one push event).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuTimeMs } from './children.ts';

const HOOKS = 5;

export interface EventThroughput {
  write: string;
  items: number;
  hooks: number;
  deliveries: number;
  /** From the first create until the last delivery arrived. */
  allDeliveredMs: number;
  /** From the last create answered until the last delivery arrived. */
  drainMs: number;
  without: Latency;
  with: Latency;
  /** Mean create latency with hooks over without, minus one. */
  addedLatency: number;
  /** Wharf's CPU time per create, without hooks and with them (deliveries included), or null without /proc. */
  cpuMsPerItem: { without: number; with: number } | null;
}

interface Latency {
  p50: number;
  p99: number;
  mean: number;
  totalMs: number;
}

interface Write {
  name: string;
  /** Hooks subscribe to this event; each write raises exactly one. */
  event: string;
  run(repo: string, i: number): Promise<Response>;
}

function summarize(samples: number[], totalMs: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: at(50), p99: at(99), mean: samples.reduce((a, b) => a + b, 0) / samples.length, totalMs };
}

/** A receiver counting deliveries of `event`, resolving once `expected` arrived. */
function startReceiver(event: string) {
  let count = 0;
  let expected = Infinity;
  let lastAt = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => { done = resolve; });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['x-service-event'] === event) {
        count++;
        lastAt = performance.now();
        if (count >= expected) done();
      }
      res.writeHead(200, { 'content-length': '2' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  return {
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      return (server.address() as AddressInfo).port;
    },
    expect(n: number) { expected = n; if (count >= n) done(); },
    get count() { return count; },
    get lastAt() { return lastAt; },
    all,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export async function measureEventThroughput(
  base: string, token: string, login: string, items: number, concurrency: number, serverPid?: number,
): Promise<EventThroughput> {
  const headers = {
    'user-agent': 'wharf-bench/1.0', authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json',
  };
  const post = (pathname: string, body: unknown) => fetch(`${base}${pathname}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const ok = async (res: Promise<Response>, what: string) => {
    const r = await res;
    const text = await r.text();
    if (!r.ok) throw new Error(`${what}: ${r.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  const repos = { plain: 'bench-events-plain', hooked: 'bench-events-hooked', warm: 'bench-events-warm' };
  for (const name of Object.values(repos)) await ok(post('/user/repos', { name, auto_init: true }), `creating ${name}`);

  const issues: Write = {
    name: 'POST /repos/{owner}/{repo}/issues', event: 'issues',
    run: (repo, i) => post(`/repos/${login}/${repo}/issues`, { title: `Cargo manifest ${i}`, body: 'Three crates.' }),
  };
  const probe = await issues.run(repos.warm, 0);
  await probe.arrayBuffer();
  let write = issues;
  if (!probe.ok) {
    // One at a time: concurrent ref changes may each report the other's ref as pushed too.
    concurrency = 1;
    console.log(`note: POST /repos/{owner}/{repo}/issues answered ${probe.status}; the event scenario creates branches through the git data API instead (one push event each, one at a time)`);
    const shaOf = async (repo: string) => {
      const res = await fetch(`${base}/repos/${login}/${repo}/git/ref/heads/main`, { headers });
      return ((await res.json()) as { object: { sha: string } }).object.sha;
    };
    const shas = new Map<string, string>();
    for (const name of Object.values(repos)) shas.set(name, await shaOf(name));
    write = {
      name: 'POST /repos/{owner}/{repo}/git/refs', event: 'push',
      run: (repo, i) => post(`/repos/${login}/${repo}/git/refs`, { ref: `refs/heads/bench-${i}`, sha: shas.get(repo) }),
    };
  }

  /** `count` writes, `concurrency` at a time; latencies of each. */
  const writeAll = async (repo: string, offset: number, count = items) => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t0 = performance.now();
        const res = await write.run(repo, offset + i);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${write.name} answered ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }));
    return { latencies, started, ended: performance.now() };
  };

  // Warm-up, then the create path without hooks.
  await writeAll(repos.warm, 1);
  const half = Math.ceil(items / 2);
  const cpu0 = cpuTimeMs(serverPid);
  const plainBefore = await writeAll(repos.plain, 0, half);
  const cpu1 = cpuTimeMs(serverPid);

  const receiver = startReceiver(write.event);
  const port = await receiver.listen();
  try {
    for (let h = 0; h < HOOKS; h++) {
      await ok(post(`/repos/${login}/${repos.hooked}/hooks`, { events: [write.event], config: { url: `http://127.0.0.1:${port}/hook/${h}`, secret: `bench-secret-${h}` } }), 'creating a hook');
    }
    const expected = items * HOOKS;
    receiver.expect(expected);
    const cpu2 = cpuTimeMs(serverPid);
    const hooked = await writeAll(repos.hooked, 0);
    const deadline = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`only ${receiver.count} of ${expected} deliveries arrived within 5 minutes`)), 300_000).unref();
    });
    await Promise.race([receiver.all, deadline]);
    const cpu3 = cpuTimeMs(serverPid);
    const plainAfter = await writeAll(repos.plain, half, items - half);
    const cpu4 = cpuTimeMs(serverPid);
    const plain = {
      latencies: [...plainBefore.latencies, ...plainAfter.latencies],
      elapsed: (plainBefore.ended - plainBefore.started) + (plainAfter.ended - plainAfter.started),
    };
    const cpuWithout = cpu0 === null || cpu1 === null || cpu3 === null || cpu4 === null ? null : ((cpu1 - cpu0) + (cpu4 - cpu3)) / items;
    const cpuWith = cpu2 === null || cpu3 === null ? null : (cpu3 - cpu2) / items;
    const without = summarize(plain.latencies, plain.elapsed);
    const withHooks = summarize(hooked.latencies, hooked.ended - hooked.started);
    return {
      write: write.name,
      items,
      hooks: HOOKS,
      deliveries: receiver.count,
      allDeliveredMs: receiver.lastAt - hooked.started,
      drainMs: Math.max(0, receiver.lastAt - hooked.ended),
      without,
      with: withHooks,
      addedLatency: withHooks.mean / without.mean - 1,
      cpuMsPerItem: cpuWithout === null || cpuWith === null ? null : { without: cpuWithout, with: cpuWith },
    };
  } finally {
    await receiver.close();
  }
}

export function printEventThroughput(r: EventThroughput): void {
  const ms = (n: number) => n.toFixed(2);
  console.log(`event throughput: ${r.items} × ${r.write} with ${r.hooks} hooks subscribed`);
  console.log(`  ${r.deliveries} deliveries received ${r.allDeliveredMs.toFixed(0)} ms after the first create (${r.drainMs.toFixed(0)} ms after the last create answered)`);
  console.log(`  create path without hooks: p50 ${ms(r.without.p50)} ms, p99 ${ms(r.without.p99)} ms, mean ${ms(r.without.mean)} ms, ${r.without.totalMs.toFixed(0)} ms in all`);
  console.log(`  create path with hooks:    p50 ${ms(r.with.p50)} ms, p99 ${ms(r.with.p99)} ms, mean ${ms(r.with.mean)} ms, ${r.with.totalMs.toFixed(0)} ms in all`);
  console.log(`  added latency (mean): ${(r.addedLatency * 100).toFixed(1)} %`);
  if (r.cpuMsPerItem) {
    const { without, with: withHooks } = r.cpuMsPerItem;
    console.log(`  Wharf CPU per create: ${ms(without)} ms without hooks, ${ms(withHooks)} ms with (${ms((withHooks - without) / r.hooks)} ms per delivery)`);
  }
}
