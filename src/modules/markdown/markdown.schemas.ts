// Request and response schemas of /markdown and /markdown/raw.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/schema-types.ts';

export const MARKDOWN_MODES = ['markdown', 'gfm'] as const;

export const RenderMarkdownBody = Type.Object({
  text: Type.String(),
  mode: Type.Optional(StringEnum(MARKDOWN_MODES, { default: 'markdown' })),
  context: Type.Optional(Type.String()),
});
export type RenderMarkdownBody = Static<typeof RenderMarkdownBody>;

/** Both answer the HTML itself, not JSON. */
export const RenderedHtml = { content: { 'text/html': { schema: Type.String() } } };
