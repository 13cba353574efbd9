// Gitignore templates and licenses: the listings behind /gitignore and /licenses, and what
// repository creation (auto_init with gitignore_template / license_template) and license
// detection of a LICENSE file use. All data is static; nothing here touches storage.
import { NotFoundError } from '../../domain/errors.ts';
import { GITIGNORE_TEMPLATES } from './gitignore/index.ts';
import { LICENSES, type LicenseInfo } from './templates.licenses.ts';

// Gitignore templates

const TEMPLATE_NAMES: readonly string[] = Object.keys(GITIGNORE_TEMPLATES).sort();
const TEMPLATES_BY_LOWER = new Map(TEMPLATE_NAMES.map((n) => [n.toLowerCase(), n]));

/** Upstream's names are case-sensitive; an exact name wins, any other casing is accepted as a convenience. */
function templateName(name: string): string | null {
  if (Object.hasOwn(GITIGNORE_TEMPLATES, name)) return name;
  return TEMPLATES_BY_LOWER.get(name.toLowerCase()) ?? null;
}

/** Every template name, in code-unit order as upstream lists them ("C", "C++", "CMake", "CakePHP" …). */
export function listGitignoreTemplates(): readonly string[] {
  return TEMPLATE_NAMES;
}

export function getGitignoreTemplate(name: string): { name: string; source: string } {
  const found = templateName(name);
  if (!found) throw new NotFoundError();
  return { name: found, source: GITIGNORE_TEMPLATES[found]! };
}

/** The template's text, or null when there is none of that name. */
export function gitignoreTemplate(name: string): string | null {
  const found = templateName(name);
  return found ? GITIGNORE_TEMPLATES[found]! : null;
}

// Licenses

/** Keys are lowercase SPDX-style ids; "MIT" and "Apache-2.0" find theirs too, as upstream. */
export function findLicense(key: string): LicenseInfo | null {
  return LICENSES.get(key.toLowerCase()) ?? null;
}

export function getLicense(key: string): LicenseInfo {
  const license = findLicense(key);
  if (!license) throw new NotFoundError();
  return license;
}

/** The commonly used licenses in key order; `featured` keeps only those whose flag equals it. */
export function listLicenses(featured?: boolean): LicenseInfo[] {
  const all = [...LICENSES.values()];
  return featured === undefined ? all : all.filter((l) => l.featured === featured);
}

const YEAR_PLACEHOLDERS = ['<year>', '[yyyy]', '[year]'];
const HOLDER_PLACEHOLDERS = ['<copyright holders>', '<owner>', '[name of copyright owner]', '[fullname]'];

/**
 * The license text ready for a LICENSE file: the copyright line's placeholders filled.
 * Only a line naming a holder placeholder is filled, so the GNU appendices' sample
 * notices ("Copyright (C) <year> <name of author>") stay the instructions they are.
 */
export function licenseBody(key: string, copyright: { year: number | string; fullname: string }): string | null {
  const license = findLicense(key);
  if (!license) return null;
  const year = String(copyright.year);
  return license.body.split('\n').map((line) => {
    if (!HOLDER_PLACEHOLDERS.some((p) => line.includes(p))) return line;
    let filled = line;
    for (const p of YEAR_PLACEHOLDERS) filled = filled.replaceAll(p, year);
    for (const p of HOLDER_PLACEHOLDERS) filled = filled.replaceAll(p, copyright.fullname);
    return filled;
  }).join('\n');
}

// License detection

/** Share of words two texts must have in common, in order, to count as the same license. */
const MATCH_THRESHOLD = 0.95;

/**
 * A copyright notice line, the part a user fills in: "Copyright (c) 2024 Jane", "Copyright
 * [yyyy] …", "© 2024 Jane". Not prose that starts with the word ("copyright owner or …").
 */
const COPYRIGHT_LINE = /^[ \t]*(?:copyright[ \t]*(?:\(c\)|©)?[ \t]*(?:\(c\)|©|\d|<|\[)|(?:\(c\)|©)[ \t]*\d)[^\n]*$/gim;

/**
 * The words of a license text, ignoring case, punctuation, layout and copyright lines.
 * The placeholders a user fills in ("<year> <copyright holders>", "[yyyy] [name of
 * copyright owner]") all sit on copyright lines, so they go with them; the sample notices
 * of the GNU appendices are a handful of words in thousands, well inside the tolerance.
 */
function licenseWords(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(COPYRIGHT_LINE, ' ')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const vocabulary = new Map<string, number>();
/** Words as numbers; a word no known license uses gets a number of its own that matches nothing. */
function wordIds(words: string[]): Int32Array {
  return Int32Array.from(words, (w, i) => vocabulary.get(w) ?? -1 - i);
}

const KNOWN = [...LICENSES.values()].map((license) => {
  const words = licenseWords(license.body);
  for (const w of words) if (!vocabulary.has(w)) vocabulary.set(w, vocabulary.size);
  return { license, ids: wordIds(words) };
});

/**
 * Insertions plus deletions turning a into b (Myers' O((N+M)D) diff), or null when more
 * than `max` are needed: near-identical texts cost little, distant ones are cut short.
 */
function editDistance(a: Int32Array, b: Int32Array, max: number): number | null {
  const n = a.length;
  const m = b.length;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return null;
}

/** Similarity of two word sequences: 2 × (words in common, in order) / (total words). */
function similarity(a: Int32Array, b: Int32Array): number {
  const total = a.length + b.length;
  if (total === 0) return 0;
  const max = Math.floor(total * (1 - MATCH_THRESHOLD));
  if (Math.abs(a.length - b.length) > max) return 0;
  const d = editDistance(a, b, max);
  return d === null ? 0 : (total - d) / total;
}

/**
 * Which known license a LICENSE file holds, by key, or null. The comparison ignores case,
 * punctuation, line wrapping and copyright lines (with the placeholders on them), and
 * wants at least 95% of the words in the same order. The closest license wins: GPL-3.0
 * and AGPL-3.0 differ by a few paragraphs only, so a text can come near both.
 */
export function detectLicense(text: string): string | null {
  const ids = wordIds(licenseWords(text));
  let best: { key: string; score: number } | null = null;
  for (const { license, ids: known } of KNOWN) {
    const score = similarity(ids, known);
    if (score >= MATCH_THRESHOLD && (!best || score > best.score)) best = { key: license.key, score };
  }
  return best?.key ?? null;
}
