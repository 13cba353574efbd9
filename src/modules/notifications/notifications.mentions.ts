// Who a body @mentions: users (@login) and teams (@org/team), outside code and links,
// as the Markdown renderer finds them.
import { mentionedLogins, mentionedTeams, parseMarkdown } from '../markdown/markdown.render.ts';

/** Upstream notifies at most this many people mentioned in one body. */
const MAX_MENTIONS = 50;

export interface Mentions {
  /** Lower-cased logins. */
  logins: string[];
  teams: { org: string; team: string }[];
}

export const NO_MENTIONS: Mentions = { logins: [], teams: [] };

export function mentionsIn(text: string | null | undefined): Mentions {
  if (!text || !text.includes('@')) return NO_MENTIONS;
  const parsed = parseMarkdown(text, 'gfm');
  return {
    logins: mentionedLogins(parsed).map((l) => l.toLowerCase()).slice(0, MAX_MENTIONS),
    teams: mentionedTeams(parsed).slice(0, MAX_MENTIONS),
  };
}

/** Mentions that `text` adds to `previous` (an edit notifies only those newly mentioned). */
export function addedMentions(text: string | null | undefined, previous: string | null | undefined): Mentions {
  const now = mentionsIn(text);
  const before = mentionsIn(previous);
  const oldLogins = new Set(before.logins);
  const oldTeams = new Set(before.teams.map((t) => `${t.org}/${t.team}`.toLowerCase()));
  return {
    logins: now.logins.filter((l) => !oldLogins.has(l)),
    teams: now.teams.filter((t) => !oldTeams.has(`${t.org}/${t.team}`.toLowerCase())),
  };
}
