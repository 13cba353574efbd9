// CODEOWNERS as upstream reads it: where the file may live, its lines (a gitignore-style
// pattern, then owners: `@login`, `@org/team-slug` or an e-mail address), and the owners
// of a path (the last matching line wins, and a line without owners leaves the path
// without any). Pure: the pulls module reads the file and the changed paths from git.

/** Where upstream looks, in order; the first that exists on the base branch is used. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

export interface CodeOwnersRule {
  pattern: RegExp;
  /** As written, `@` kept: `@alice`, `@acme/core`, `dev@example.com`. */
  owners: string[];
}

/** A pattern's regular expression: `*` within a segment, `**` across, `/` at the start anchors to the root. */
function patternRegex(raw: string): RegExp | null {
  let p = raw;
  // A slash anywhere but at the end anchors the pattern to the root; otherwise it matches at any depth.
  const anchored = p.slice(0, -1).includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  const directory = p.endsWith('/');
  if (directory) p = p.slice(0, -1);
  if (p === '') return null;
  let body = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      // `**/` matches no directory as well as several.
      if (p[i + 2] === '/') { body += '(?:.*/)?'; i += 2; } else { body += '.*'; i++; }
    } else if (c === '*') body += '[^/]*';
    else if (c === '?') body += '[^/]';
    else body += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A name matches the file or the directory of that name (and all below it), except
  // that a trailing `/*` means the files directly inside only, as upstream documents.
  const tail = directory ? '/.*' : p.endsWith('/*') ? '' : '(?:/.*)?';
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}${tail}$`);
}

export function parseCodeOwners(text: string): CodeOwnersRule[] {
  const rules: CodeOwnersRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    const content = line.replace(/(^|\s)#.*$/, '').trim();
    if (!content) continue;
    const [pattern, ...owners] = content.split(/\s+/);
    const regex = pattern ? patternRegex(pattern) : null;
    if (regex) rules.push({ pattern: regex, owners });
  }
  return rules;
}

/** The owners of a path: those of the last line matching it. */
export function ownersOf(rules: readonly CodeOwnersRule[], path: string): string[] {
  for (let i = rules.length - 1; i >= 0; i--) {
    if (rules[i]!.pattern.test(path)) return rules[i]!.owners;
  }
  return [];
}

/** An owner as upstream names it when waiting for its review: a user by login, a team as `@org/slug`. */
export function ownerLabel(owner: string): string {
  return owner.includes('/') ? owner : owner.replace(/^@/, '');
}
