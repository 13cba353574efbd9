// The aims of issue #12 (and issue #16's search aim, id 16; issue #23's home page, id 23): each a figure against a target, PASS or MISS, printed as one
// table at the end of `npm run bench` and carried in its JSON line. An aim whose
// scenario could not run is a MISS with the reason in its note (figure null).

export interface Aim {
  /** The aim it belongs to: issue #12's "1" … "6", "16" (issue #16's search latency) or "23" (issue #23's home page). */
  id: string;
  what: string;
  /** null when the scenario could not be measured (see note). */
  figure: number | null;
  unit: string;
  target: string;
  pass: boolean;
  note?: string;
}

type Comparison = '≥' | '≤' | '<';

/** An aim met when `figure <cmp> limit`; a null figure (not measured) misses. */
export function aim(id: string, what: string, figure: number | null, cmp: Comparison, limit: number, unit = '', note?: string): Aim {
  const measured = figure !== null && Number.isFinite(figure);
  const pass = measured && (cmp === '≥' ? figure >= limit : cmp === '≤' ? figure <= limit : figure < limit);
  return {
    id, what, figure: measured ? figure : null, unit, target: `${cmp} ${limit}${unit ? ` ${unit}` : ''}`, pass,
    ...(note ? { note } : {}),
  };
}

/** An aim that could not be measured: MISS, with why. */
export function unmeasured(id: string, what: string, cmp: Comparison, limit: number, unit: string, reason: string): Aim {
  return aim(id, what, null, cmp, limit, unit, reason);
}

function show(a: Aim): string {
  if (a.figure === null) return '-';
  const abs = Math.abs(a.figure);
  const digits = Number.isInteger(a.figure) || abs >= 1000 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${a.figure.toFixed(digits)}${a.unit ? ` ${a.unit}` : ''}`;
}

export function printAims(aims: Aim[]): void {
  const header = ['aim', 'what', 'figure', 'target', 'result'];
  const rows = aims.map((a) => [a.id, a.what, show(a), a.target, `${a.pass ? 'PASS' : 'MISS'}${a.note ? ` (${a.note})` : ''}`]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === 4 ? 0 : r[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : i === 4 ? c : c.padEnd(widths[i]!))).join('  ');
  console.log('aims (issue #12; id 16: issue #16; id 23: issue #23)');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  const passed = aims.filter((a) => a.pass).length;
  console.log(`${passed} of ${aims.length} aims met`);
}

/** The JSON form: what the issue asks for, plus unit and note. */
export function aimsJson(aims: Aim[]): { id: string; what: string; figure: number | null; unit: string; target: string; pass: boolean; note?: string }[] {
  return aims.map((a) => ({ ...a, figure: a.figure === null ? null : +a.figure.toFixed(3) }));
}
