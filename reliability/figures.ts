// The figures a reliability suite prints: each with its value and PASS, MISS, or no
// verdict (a figure reported for information, e.g. duplicate webhook deliveries, which
// at-least-once delivery allows).

export interface Figure {
  suite: string;
  name: string;
  value: string;
  /** true PASS, false MISS, null reported only. */
  pass: boolean | null;
  /** What a MISS was made of (the first few items), or why the figure is what it is. */
  detail?: string;
}

export function verdict(f: Figure): string {
  return f.pass === null ? 'info' : f.pass ? 'PASS' : 'MISS';
}

export function printFigures(figures: Figure[], write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  const rows = figures.map((f) => [f.suite, f.name, f.value, verdict(f)]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), ['suite', 'figure', 'value'][i]!.length));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join('  ');
  write(line(['suite', 'figure', 'value', '']));
  write(line(widths.map((w) => '-'.repeat(w)).concat('----')));
  for (let i = 0; i < rows.length; i++) {
    write(line(rows[i]!));
    const detail = figures[i]!.detail;
    if (detail && figures[i]!.pass === false) for (const d of detail.split('\n')) write(`    ${d}`);
  }
}

export function missed(figures: Figure[]): Figure[] {
  return figures.filter((f) => f.pass === false);
}
