// Wharf's mascot for GET /mascot: a harbour seal perched on a mooring bollard, saying
// something in a speech bubble. Upstream draws its own character here; this one is ours.

/** Columns of text per bubble line before wrapping. */
export const BUBBLE_WIDTH = 40;

const SEAL = String.raw`
      \
       \
        \     .-"""-.
             /  o o  \
            | =-(_)-= |
             \  '-'  /
           .--${'`'}-...-'--.
          (__/       \__)
             \       /
              ${'`'}-----'
             _|=====|_
            (_________)
               |   |
       ~^~^~^~~|   |~~^~^~^~^~
         ~^~^~^|___|^~^~^~`.slice(1).split('\n');

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

function isWide(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff)
    || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf)
    || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f)
    || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
}

/** Terminal columns of one grapheme: CJK and emoji take two, format characters none. */
function graphemeWidth(g: string): number {
  if (/^\p{Cf}+$/u.test(g)) return 0;
  if (/\p{Emoji_Presentation}|\uFE0F/u.test(g)) return 2;
  return isWide(g.codePointAt(0)!) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/** Splits a word wider than a line into line-sized pieces, never inside a grapheme. */
function splitWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const g of graphemes(word)) {
    const w = graphemeWidth(g);
    if (used + w > width && piece) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += g;
    used += w;
  }
  pieces.push(piece);
  return pieces;
}

/**
 * Greedy word wrap of one line. Runs of spaces inside a line are kept (so aligned
 * text stays aligned), those at a break are dropped.
 */
function wrapLine(line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  let used = 0;
  let spaces = '';
  for (const token of line.split(/( +)/)) {
    if (token === '') continue;
    if (token.startsWith(' ')) {
      spaces += token;
      continue;
    }
    const w = displayWidth(token);
    if (used + spaces.length + w <= width) {
      current += spaces + token;
      used += spaces.length + w;
      spaces = '';
      continue;
    }
    if (used > 0) out.push(current);
    const pieces = splitWord(token, width);
    out.push(...pieces.slice(0, -1));
    current = pieces[pieces.length - 1]!;
    used = displayWidth(current);
    spaces = '';
  }
  out.push(current);
  return out;
}

/** The message as bubble lines: line breaks kept, long lines wrapped, control characters dropped. */
export function bubbleLines(message: string, width = BUBBLE_WIDTH): string[] {
  const text = message
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
  const lines = text.split('\n').flatMap((line) => wrapLine(line, width));
  while (lines.length > 1 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 1 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}

/** The mascot saying `message`, as plain text ending in a newline. */
export function drawMascot(message: string): string {
  const lines = bubbleLines(message);
  const inner = Math.max(...lines.map(displayWidth));
  const rule = '-'.repeat(inner + 2);
  const bubble = [
    ` .${rule}.`,
    ...lines.map((l) => ` | ${l}${' '.repeat(inner - displayWidth(l))} |`),
    ` '${rule}'`,
  ];
  return `${[...bubble, ...SEAL].join('\n')}\n`;
}
