// Accept header → the representation asked for. vnd.service is the spec's name;
// vnd.github is accepted as an alias so that existing clients work unchanged.
/** Which body fields a representation carries (the Accept header's raw, text, html, full). */
export type BodyFormat = 'raw' | 'text' | 'html' | 'full';

/**
 * What the representation should hold, as views take it: routes pass `request.media`
 * (a MediaType is one) to services and views.
 */
export interface ViewOptions {
  bodyFormat: BodyFormat;
  /** Preview media types asked for (sailor-v shows active_lock_reason …). */
  previews: ReadonlySet<string>;
}

export interface MediaType extends ViewOptions {
  version: string;
  /** raw, text, html, full, diff, patch, base64, text-match, star … or null. */
  param: string | null;
  format: string;
}

export function bodyFormatOf(param: string | null | undefined): BodyFormat {
  return param === 'text' || param === 'html' || param === 'full' ? param : 'raw';
}

const DEFAULT: MediaType = { version: 'v3', param: null, format: 'json', previews: new Set(), bodyFormat: 'raw' };
const VND = /application\/vnd\.(?:service|github)((?:\.[a-z0-9-]+)*)(?:\+([a-z0-9-]+))?/gi;

export function parseAccept(accept: string | undefined): MediaType {
  if (!accept || !accept.includes('vnd.')) return DEFAULT;
  let version = 'v3';
  let param: string | null = null;
  let format = 'json';
  const previews = new Set<string>();
  for (const m of accept.matchAll(VND)) {
    const segments = (m[1] ?? '').split('.').filter(Boolean).map((s) => s.toLowerCase());
    for (const seg of segments) {
      if (/^v\d+$/.test(seg)) version = seg;
      else if (seg.endsWith('-preview')) previews.add(seg.slice(0, -'-preview'.length));
      else param ??= seg;
    }
    if (m[2]) format = m[2].toLowerCase();
    else if (param === 'diff' || param === 'patch' || param === 'raw' || param === 'html' || param === 'text' || param === 'idl') format = param;
  }
  return { version, param, format, previews, bodyFormat: bodyFormatOf(param) };
}

/** Value of X-Service-Media-Type, e.g. "service.v3; format=json" or "service.v3; param=full; format=json". */
export function mediaTypeHeader(m: MediaType): string {
  const params = [m.param, ...[...m.previews].map((p) => `${p}-preview`)].filter(Boolean);
  return `service.${m.version}; ${params.length ? `param=${params.join('.')}; ` : ''}format=${m.format}`;
}

/** What each preview that a route may require lets a client try, for the 415 message. */
const PREVIEW_FEATURES: Record<string, string> = {
  'squirrel-girl': 'the Reactions API',
};

/**
 * The 415 message of a route whose preview the client did not ask for, as upstream
 * words it, naming the media type to send; null when the preview was asked for.
 */
export function missingPreviewMessage(m: MediaType, preview: string): string | null {
  if (m.previews.has(preview)) return null;
  const feature = PREVIEW_FEATURES[preview] ?? `the ${preview} preview`;
  return `If you would like to help us test ${feature} during its preview period, you must specify a custom media type in the 'Accept' header: application/vnd.service.${preview}-preview+json. Please see the docs for full details.`;
}
