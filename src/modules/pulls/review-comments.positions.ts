// Where a review comment sits in a file's patch. Upstream addresses a line two ways:
// `position`, the line's index below the file's first "@@" header (later headers count
// as lines), or `line` with `side` (RIGHT: the new file's line number, LEFT: the old
// one's). The comment's diff_hunk is its hunk from the header down to that line.
import type { Side } from './pulls.model.ts';

export interface PatchLine {
  position: number;
  /** The hunk header this line belongs to (index into `lines`). */
  hunkStart: number;
  kind: 'header' | 'context' | 'add' | 'delete';
  oldLine: number | null;
  newLine: number | null;
}

export function parsePatch(patch: string): { lines: string[]; entries: PatchLine[] } {
  const lines = patch.split('\n');
  const entries: PatchLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let hunkStart = 0;
  lines.forEach((text, i) => {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      hunkStart = i;
      entries.push({ position: i, hunkStart, kind: 'header', oldLine: null, newLine: null });
      return;
    }
    if (text.startsWith('+')) entries.push({ position: i, hunkStart, kind: 'add', oldLine: null, newLine: newLine++ });
    else if (text.startsWith('-')) entries.push({ position: i, hunkStart, kind: 'delete', oldLine: oldLine++, newLine: null });
    else if (text.startsWith('\\')) entries.push({ position: i, hunkStart, kind: 'header', oldLine: null, newLine: null });
    else entries.push({ position: i, hunkStart, kind: 'context', oldLine: oldLine++, newLine: newLine++ });
  });
  return { lines, entries };
}

export interface Placement {
  position: number;
  line: number;
  side: Side;
  diffHunk: string;
}

function placementOf(lines: string[], e: PatchLine, side: Side): Placement {
  return {
    position: e.position,
    line: (side === 'LEFT' ? e.oldLine : e.newLine)!,
    side,
    diffHunk: lines.slice(e.hunkStart, e.position + 1).join('\n'),
  };
}

/** The line at `position` (1 = the line below the first header), or null when it is not a line of the patch. */
export function byPosition(patch: string, position: number): Placement | null {
  const { lines, entries } = parsePatch(patch);
  const e = entries[position];
  if (!e || position < 1 || e.kind === 'header') return null;
  return placementOf(lines, e, e.kind === 'delete' ? 'LEFT' : 'RIGHT');
}

/** The line numbered `line` on `side`, or null when the patch does not show it. */
export function byLine(patch: string, line: number, side: Side): Placement | null {
  const { lines, entries } = parsePatch(patch);
  const e = entries.find((x) => (side === 'LEFT' ? x.oldLine === line && x.kind !== 'add' : x.newLine === line && x.kind !== 'delete'));
  return e ? placementOf(lines, e, side) : null;
}

/**
 * Where each line of a diff's old version is in its new version: shifted by the lines
 * hunks above it added or removed, or null when a hunk removed or replaced it (the
 * line's content changed). A line no hunk touches keeps its text. The patch is read once.
 */
export function lineCarrier(patch: string): (line: number) => number | null {
  const { lines, entries } = parsePatch(patch);
  const hunks = lines.flatMap((text, i) => {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (!h) return [];
    const [oldCount, newCount] = [Number(h[2] ?? 1), Number(h[4] ?? 1)];
    // An empty range names the line before it: "-3,0" inserts after line 3.
    const oldStart = oldCount === 0 ? Number(h[1]) + 1 : Number(h[1]);
    const newStart = newCount === 0 ? Number(h[3]) + 1 : Number(h[3]);
    const kept = new Map(entries.filter((e) => e.hunkStart === i && e.kind === 'context').map((e) => [e.oldLine!, e.newLine!]));
    return [{ oldStart, oldEnd: oldStart + oldCount, after: newStart + newCount - (oldStart + oldCount), kept }];
  });
  return (line) => {
    let shift = 0;
    for (const h of hunks) {
      if (line < h.oldStart) return line + shift;
      if (line < h.oldEnd) return h.kept.get(line) ?? null;
      shift = h.after;
    }
    return line + shift;
  };
}
