// Rendering Markdown: the /markdown endpoints, and body_html / body_text of whatever
// area stores Markdown (issues, comments, releases …).
import type { AppContext } from '../../context.ts';
import { existingLogins } from '../users/users.service.ts';
import { htmlToText, linkReferences, mentionedLogins, parseMarkdown, renderParsed, type MarkdownMode } from './markdown.render.ts';

export type { MarkdownMode } from './markdown.render.ts';

export interface RenderOptions {
  /** 'markdown' (default) renders a document; 'gfm' a comment, with mentions and references linked. */
  mode?: MarkdownMode;
  /** "owner/repo": the repository a bare #N refers to (gfm mode). */
  context?: string | null;
}

/** Mentions looked up per text: an IN list stays well inside every dialect's bind-parameter limit. */
const MAX_MENTIONS = 1000;

const REPO_CONTEXT = /^([a-zA-Z0-9](?:[a-zA-Z0-9]|-(?=[a-zA-Z0-9])){0,38})\/([\w.-]{1,100})$/;

/** A context that is not "owner/repo" is ignored, as upstream ignores one it cannot resolve. */
function parseContext(context: string | null | undefined): { owner: string; repo: string } | null {
  const m = context ? REPO_CONTEXT.exec(context.trim()) : null;
  return m ? { owner: m[1]!, repo: m[2]! } : null;
}

/** Sanitized HTML. In gfm mode @login links only to an account that exists (one query for all). */
export async function renderHtml(ctx: AppContext, text: string, options: RenderOptions = {}): Promise<string> {
  const mode = options.mode ?? 'markdown';
  const parsed = parseMarkdown(text, mode);
  if (mode === 'gfm') {
    const logins = mentionedLogins(parsed).slice(0, MAX_MENTIONS);
    const accounts = logins.length ? await existingLogins(ctx, logins) : new Map<string, string>();
    linkReferences(parsed, { urls: ctx.urls, accounts, context: parseContext(options.context) });
  }
  return renderParsed(parsed);
}

/** The text a reader sees (body_text): the rendered Markdown without tags, whitespace normalized. */
export function renderText(text: string): string {
  return htmlToText(renderParsed(parseMarkdown(text, 'gfm')));
}
