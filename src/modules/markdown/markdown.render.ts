// Markdown → HTML as upstream renders it: CommonMark with GitHub's extensions (tables,
// strikethrough, task lists, autolinks), then @mentions and #references linked in gfm
// mode, then an allow-list sanitizer close to GitHub's. Pure: whoever calls this has
// already looked up which mentioned accounts exist.
import MarkdownIt from 'markdown-it';
import Token from 'markdown-it/lib/token.mjs';
import { tasklist } from '@mdit/plugin-tasklist';
import sanitizeHtml from 'sanitize-html';
import type { Urls } from '../../urls.ts';

export type MarkdownMode = 'markdown' | 'gfm';

/** GitHub's own markup for a task list; its ids are dropped (the sanitizer allows none). */
const TASK_LIST = {
  label: false,
  containerClass: 'contains-task-list',
  itemClass: 'task-list-item',
  checkboxClass: 'task-list-item-checkbox',
};

/** Upstream's markup: <del> for strikethrough, align="…" on table cells. */
function upstreamMarkup(md: MarkdownIt): void {
  md.core.ruler.push('upstream_markup', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'th_open' || token.type === 'td_open') {
        const align = /text-align:(left|center|right)/.exec(token.attrGet('style') ?? '')?.[1];
        token.attrs = align ? [['align', align]] : null;
      }
      for (const child of token.children ?? []) {
        if (child.type === 's_open' || child.type === 's_close') child.tag = 'del';
      }
    }
  });
}

function makeParser(breaks: boolean): MarkdownIt {
  // Raw HTML is let through to the sanitizer, which keeps what upstream keeps.
  const md = new MarkdownIt({ html: true, linkify: true, breaks });
  md.use(tasklist, TASK_LIST);
  upstreamMarkup(md);
  return md;
}

// A document (README-like) and a comment, where a newline is a line break.
const PARSERS: Record<MarkdownMode, MarkdownIt> = { markdown: makeParser(false), gfm: makeParser(true) };

export interface ParsedMarkdown {
  mode: MarkdownMode;
  tokens: Token[];
  env: object;
}

export function parseMarkdown(text: string, mode: MarkdownMode): ParsedMarkdown {
  const env = {};
  return { mode, tokens: PARSERS[mode].parse(text, env), env };
}

// @mentions and #references

/**
 * `@login` (a login's characters, not followed by "/" as a team would be), `owner/repo#N`
 * and `#N`, each after the start of the text or a character that is not part of a word,
 * so that e-mail addresses and "foo#1" stay text.
 */
const REFERENCE = /(^|[^\w`@#/.-])(?:@([a-zA-Z0-9](?:[a-zA-Z0-9]|-(?=[a-zA-Z0-9])){0,38})(?![\w/-])|([a-zA-Z0-9](?:[a-zA-Z0-9]|-(?=[a-zA-Z0-9])){0,38})\/([\w.-]{1,100})#(\d{1,10})\b|#(\d{1,10})\b)/g;

type Reference =
  | { kind: 'mention'; login: string }
  | { kind: 'issue'; owner: string | null; repo: string | null; number: string };

interface Match { start: number; end: number; ref: Reference }

function referencesIn(text: string): Match[] {
  const out: Match[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    const start = m.index + m[1]!.length;
    const end = m.index + m[0].length;
    if (m[2] !== undefined) out.push({ start, end, ref: { kind: 'mention', login: m[2] } });
    else if (m[4] !== undefined) out.push({ start, end, ref: { kind: 'issue', owner: m[3]!, repo: m[4], number: m[5]! } });
    else out.push({ start, end, ref: { kind: 'issue', owner: null, repo: null, number: m[6]! } });
  }
  return out;
}

const HTML_OPEN = /^<(a|code|pre|kbd|samp)(?:\s[^>]*)?>$/i;
const HTML_CLOSE = /^<\/(a|code|pre|kbd|samp)\s*>$/i;

/**
 * Every text token outside links and code, in document order. Code spans and blocks are
 * tokens of their own; links are link_open…link_close (also those linkify made) or raw
 * <a>…</a>; raw <code>-like elements count as code.
 */
function* plainTextTokens(tokens: readonly Token[]): Generator<{ siblings: Token[]; index: number }> {
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let depth = 0;
    const children = block.children;
    for (let i = 0; i < children.length; i++) {
      const t = children[i]!;
      if (t.type === 'link_open') depth++;
      else if (t.type === 'link_close') depth = Math.max(0, depth - 1);
      else if (t.type === 'html_inline' && HTML_OPEN.test(t.content.trim())) depth++;
      else if (t.type === 'html_inline' && HTML_CLOSE.test(t.content.trim())) depth = Math.max(0, depth - 1);
      else if (t.type === 'text' && depth === 0) yield { siblings: children, index: i };
    }
  }
}

/** The distinct logins @mentioned where a mention would be linked (case kept as written). */
export function mentionedLogins(parsed: ParsedMarkdown): string[] {
  const seen = new Map<string, string>();
  for (const { siblings, index } of plainTextTokens(parsed.tokens)) {
    for (const { ref } of referencesIn(siblings[index]!.content)) {
      if (ref.kind === 'mention' && !seen.has(ref.login.toLowerCase())) seen.set(ref.login.toLowerCase(), ref.login);
    }
  }
  return [...seen.values()];
}

/** `@org/team-slug`, after the start of the text or a character that is not part of a word. */
const TEAM_MENTION = /(?:^|[^\w`@#/.-])@([a-zA-Z0-9](?:[a-zA-Z0-9]|-(?=[a-zA-Z0-9])){0,38})\/([a-zA-Z0-9][\w.-]{0,99})(?![\w/-])/g;

/** The distinct teams @mentioned outside code and links (notifications use them). */
export function mentionedTeams(parsed: ParsedMarkdown): { org: string; team: string }[] {
  const seen = new Map<string, { org: string; team: string }>();
  for (const { siblings, index } of plainTextTokens(parsed.tokens)) {
    for (const m of siblings[index]!.content.matchAll(TEAM_MENTION)) {
      // A sentence's full stop is not part of the slug.
      const team = m[2]!.replace(/\.+$/, '');
      const key = `${m[1]!}/${team}`.toLowerCase();
      if (!seen.has(key)) seen.set(key, { org: m[1]!, team });
    }
  }
  return [...seen.values()];
}

export interface LinkTargets {
  urls: Urls;
  /** Lower-cased login → the login as registered, for the accounts that exist. */
  accounts: ReadonlyMap<string, string>;
  /** The repository bare #N refers to, if any. */
  context: { owner: string; repo: string } | null;
}

function hrefOf(ref: Reference, targets: LinkTargets): { href: string; className: string } | null {
  if (ref.kind === 'mention') {
    const login = targets.accounts.get(ref.login.toLowerCase());
    return login ? { href: targets.urls.html(login), className: 'user-mention' } : null;
  }
  const owner = ref.owner ?? targets.context?.owner;
  const repo = ref.repo ?? targets.context?.repo;
  if (!owner || !repo) return null;
  return { href: targets.urls.html(owner, repo, 'issues', ref.number), className: 'issue-link' };
}

function textToken(content: string): Token {
  const t = new Token('text', '', 0);
  t.content = content;
  return t;
}

/** Replaces each linkable mention or reference by a link with upstream's class. */
export function linkReferences(parsed: ParsedMarkdown, targets: LinkTargets): void {
  // Collected first: splicing while iterating would move the positions.
  const edits = [...plainTextTokens(parsed.tokens)].reverse();
  for (const { siblings, index } of edits) {
    const token = siblings[index]!;
    const text = token.content;
    const replacement: Token[] = [];
    let last = 0;
    for (const { start, end, ref } of referencesIn(text)) {
      const link = hrefOf(ref, targets);
      if (!link) continue;
      if (start > last) replacement.push(textToken(text.slice(last, start)));
      const open = new Token('link_open', 'a', 1);
      open.attrs = [['class', link.className], ['href', link.href]];
      replacement.push(open, textToken(text.slice(start, end)), new Token('link_close', 'a', -1));
      last = end;
    }
    if (replacement.length === 0) continue;
    if (last < text.length) replacement.push(textToken(text.slice(last)));
    siblings.splice(index, 1, ...replacement);
  }
}

// Sanitizing

/** Close to GitHub's allow-list (html-pipeline's SanitizationFilter). */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'br', 'b', 'i', 'strong', 'em', 'a', 'pre', 'code', 'img', 'tt',
    'div', 'ins', 'del', 'sup', 'sub', 'p', 'picture', 'ol', 'ul', 'table', 'thead', 'tbody', 'tfoot', 'blockquote',
    'dl', 'dt', 'dd', 'kbd', 'q', 'samp', 'var', 'hr', 'ruby', 'rt', 'rp', 'li', 'tr', 'td', 'th', 's', 'strike',
    'summary', 'details', 'caption', 'figure', 'figcaption', 'abbr', 'bdo', 'cite', 'dfn', 'mark', 'small', 'span',
    'time', 'wbr', 'input', 'source',
  ],
  allowedAttributes: {
    '*': ['abbr', 'align', 'alt', 'axis', 'border', 'cellpadding', 'cellspacing', 'cite', 'colspan', 'datetime',
      'dir', 'height', 'hspace', 'lang', 'rowspan', 'span', 'start', 'summary', 'title', 'valign', 'vspace', 'width'],
    a: ['href'],
    img: ['src', 'longdesc'],
    ol: ['type'],
    details: ['open'],
    source: ['srcset', 'media', 'type'],
    input: ['type', 'checked', 'disabled'],
  },
  allowedClasses: {
    a: ['user-mention', 'issue-link'],
    code: ['language-*'],
    ul: ['contains-task-list'],
    ol: ['contains-task-list'],
    li: ['task-list-item'],
    input: ['task-list-item-checkbox'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'], source: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'longdesc', 'srcset'],
  allowProtocolRelative: true,
  // Only task-list checkboxes survive: whatever an input said, it is a disabled checkbox.
  transformTags: {
    input: (_tag, attribs) => ({
      tagName: 'input',
      attribs: {
        ...(attribs.class !== undefined ? { class: attribs.class } : {}),
        type: 'checkbox',
        disabled: '',
        ...(attribs.checked !== undefined ? { checked: '' } : {}),
      },
    }),
  },
};

export function renderParsed(parsed: ParsedMarkdown): string {
  const md = PARSERS[parsed.mode];
  return sanitizeHtml(md.renderer.render(parsed.tokens, md.options, parsed.env), SANITIZE);
}

// Plain text (body_text)

const BLOCK_END = /<\/(?:p|li|h[1-8]|pre|blockquote|tr|table|thead|tbody|tfoot|div|ul|ol|dl|dt|dd|details|summary|figure|figcaption|caption)>|<(?:br|hr)\s*\/?>/gi;
const CELL_END = /<\/(?:td|th)>/gi;
const ENTITY = /&(?:amp|lt|gt|quot|#39|#x27|#(\d+)|#x([0-9a-f]+));/gi;
const NAMED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (m, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return NAMED[m.toLowerCase()] ?? m;
  });
}

/**
 * The text a reader sees: the rendered (and sanitized) HTML without its tags, one line
 * per block, runs of spaces and of blank lines collapsed, as upstream's body_text.
 */
export function htmlToText(html: string): string {
  // Newlines between tags are the renderer's layout, not text (text holds no literal ">").
  const marked = html.replace(/>\s*\n\s*</g, '><').replace(BLOCK_END, (m) => `${m}\n`).replace(CELL_END, (m) => `${m} `);
  const stripped = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} });
  return decodeEntities(stripped)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
