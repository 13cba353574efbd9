// Search result items: the record as its list endpoint presents it, plus `score`, and
// with the text-match media type `text_matches` for each text property that matched.
import type { ViewOptions } from '../../http/media-type.ts';
import type { Urls } from '../../urls.ts';
import type { Account, AccountCounts } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { TextMatch, UserItem } from './search.schemas.ts';

/** Longest fragment shown; a longer text is cut around its first match, as upstream does. */
const FRAGMENT = 300;

/** True when the Accept header asked for text-match (vnd.service or vnd.github). */
export function wantsTextMatches(media: ViewOptions & { param?: string | null }): boolean {
  return media.param === 'text-match';
}

/** The matches of `keywords` in one property's text, indices into the fragment; null when none matches. */
export function textMatch(objectUrl: string, objectType: string, property: string, text: string | null, keywords: readonly string[]): TextMatch | null {
  if (!text || !keywords.length) return null;
  const lower = text.toLowerCase();
  const found: { start: number; end: number }[] = [];
  for (const k of keywords) {
    const w = k.toLowerCase();
    if (!w) continue;
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + w.length)) found.push({ start: at, end: at + w.length });
  }
  if (!found.length) return null;
  found.sort((a, b) => a.start - b.start);
  const from = text.length <= FRAGMENT ? 0 : Math.max(0, found[0]!.start - 50);
  const to = Math.min(text.length, from + FRAGMENT);
  const fragment = text.slice(from, to);
  const matches = found.filter((m) => m.start >= from && m.end <= to)
    .map((m) => ({ text: text.slice(m.start, m.end), indices: [m.start - from, m.end - from] }));
  return { object_url: objectUrl, object_type: objectType, property, fragment, matches };
}

/** A result item: the record, its score (search-score.ts), and (asked for) the text matches of `properties`. */
export function resultItem<R extends { url: string }>(
  record: R, objectType: string, properties: Record<string, string | null | undefined>, keywords: readonly string[] | null, score: number,
): R & { score: number; text_matches?: TextMatch[] } {
  if (!keywords) return { ...record, score };
  const text_matches = Object.entries(properties).flatMap(([property, text]) => {
    const m = textMatch(record.url, objectType, property, text ?? null, keywords);
    return m ? [m] : [];
  });
  return { ...record, score, text_matches };
}

/**
 * A user search item without its score: the summary and the fields the public profile
 * shows (the address only when public), with the profile's counts. When an account was
 * suspended is for the site admins (who suspend accounts) to see: no profile shows it to
 * anyone else, so to others it is null here too.
 */
export function userItem(a: Account, counts: AccountCounts, urls: Urls, showSuspension: boolean): Omit<UserItem, 'score' | 'text_matches'> {
  return {
    ...simpleUser(a, urls),
    name: a.name,
    company: a.company,
    blog: a.blog,
    location: a.location,
    email: a.emailPrivate ? null : a.email,
    hireable: a.hireable,
    bio: a.bio,
    public_repos: counts.publicRepos,
    public_gists: counts.publicGists,
    followers: counts.followers,
    following: counts.following,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    suspended_at: showSuspension ? a.suspendedAt : null,
  };
}
