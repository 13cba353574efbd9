// Summary of a V8 .cpuprofile (node --cpu-prof): where the time goes, by function
// (self and inclusive) and by package. Standalone: node --import tsx bench/profile.ts <file>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function shortUrl(url: string): string {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) return file.slice(nm + 'node_modules/'.length);
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
}

function frameKey(f: CallFrame): string {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return name;
  // tsx-compiled sources report every frame on line 0: the line would mislead.
  return f.lineNumber > 0 ? `${name}  ${shortUrl(f.url)}:${f.lineNumber + 1}` : `${name}  ${shortUrl(f.url)}`;
}

/** The package (node_modules), Wharf area (src/<dir>) or runtime part a frame belongs to. */
function areaOf(f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : '(native)';
  if (f.url.startsWith('node:')) return 'node: ' + f.url.slice(5).split('/')[0]!.replace(/^internal$/, `internal/${f.url.split('/')[1] ?? ''}`);
  const short = shortUrl(f.url);
  if (short.startsWith('/') || short.startsWith('file:')) return short;
  const parts = short.split('/');
  if (f.url.includes('node_modules/')) return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  if (parts[0] === 'src' && parts.length > 2) return parts[1] === 'modules' ? `src/modules/${parts[2]}` : `src/${parts[1]}`;
  return parts[0]!;
}

function table(rows: [string, number][], total: number, limit: number): string[] {
  return rows.sort((a, b) => b[1] - a[1]).slice(0, limit)
    .map(([k, us]) => `  ${(100 * us / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

/** spans: monotonic-clock [start, end] µs pairs; when given, only samples inside them count. */
export function summarizeProfile(file: string, limit = 20, spans: readonly [number, number][] = []): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (spans.length > 0 && !spans.some(([from, to]) => at >= from && at <= to)) return;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === '(idle)') { idle += dt; return; }
    busy += dt;
    const key = frameKey(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const area = areaOf(node.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      // Inclusive time is shown for Wharf's own code: that is where a change would be made.
      if (!f.url.includes('/src/') || f.url.includes('node_modules')) continue;
      const k = frameKey(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  return [
    `profile ${file}${spans.length > 0 ? ` (the ${spans.length} measured runs only)` : ''}`,
    `busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms (percentages are of busy time)`,
    '',
    'self time by package / area:',
    ...table([...areas], busy, limit),
    '',
    'self time by function:',
    ...table([...self], busy, limit),
    '',
    'inclusive time of Wharf functions (src/):',
    ...table([...inclusive], busy, limit),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of process.argv.slice(2)) console.log(summarizeProfile(f, 30));
}
