// Closing keywords, as upstream reads them in pull request bodies and commit messages:
// "close(s|d)", "fix(es|ed)" or "resolve(s|d)", an optional colon, then one reference:
// #N (this repository), owner/repo#N, or the full web address. Each keyword
// closes one reference; a text may hold several.

export interface ClosingReference {
  /** Null for a bare #N: the repository the text belongs to. */
  owner: string | null;
  name: string | null;
  number: number;
}

const KEYWORD = String.raw`(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)`;
const SHORT = String.raw`(?:([a-zA-Z0-9][\w-]{0,38})\/([\w.-]{1,100}))?#(\d{1,10})`;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `htmlBase` is the service's web address: full issue URLs must point at this service. */
export function closingReferences(text: string | null | undefined, htmlBase: string): ClosingReference[] {
  if (!text) return [];
  const url = String.raw`${escape(htmlBase.replace(/\/+$/, ''))}\/([a-zA-Z0-9][\w-]{0,38})\/([\w.-]{1,100})\/issues\/(\d{1,10})`;
  const pattern = new RegExp(String.raw`(?:^|[^\w])${KEYWORD}:?[ \t]+(?:${SHORT}|${url})(?![\w/])`, 'gi');
  const out = new Map<string, ClosingReference>();
  for (const m of text.matchAll(pattern)) {
    const ref: ClosingReference = m[3] !== undefined
      ? { owner: m[1] ?? null, name: m[2] ?? null, number: Number(m[3]) }
      : { owner: m[4]!, name: m[5]!, number: Number(m[6]) };
    out.set(`${ref.owner?.toLowerCase() ?? ''}/${ref.name?.toLowerCase() ?? ''}#${ref.number}`, ref);
  }
  return [...out.values()];
}
