// The text of git objects, written and read without git: commit and tag objects
// (so that a signature covers exactly the bytes stored), identities with their
// timezone offsets, ref-name rules, and the base64 form upstream returns blobs in.

export const SHA_PATTERN = /^[0-9a-f]{40}$/;

export function isSha(value: string): boolean {
  return SHA_PATTERN.test(value);
}

/** A person and a moment as git stores them: seconds since the epoch and a "+hhmm" offset. */
export interface Ident {
  name: string;
  email: string;
  epoch: number;
  tz: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO 8601 timestamp as git stores it: "2013-01-05T13:13:22+05:00" keeps its
 * offset (+0500); "Z" or no offset is UTC. Null when it is not a timestamp.
 */
export function parseIsoDate(text: string): { epoch: number; tz: string } | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, zone] = m;
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0)] as const;
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 23 || fields[4] > 59 || fields[5] > 60) return null;
  let offsetMinutes = 0;
  let tz = '+0000';
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const hh = Number(digits.slice(0, 2));
    const mm = Number(digits.slice(2, 4) || '0');
    if (hh > 23 || mm > 59) return null;
    offsetMinutes = sign * (hh * 60 + mm);
    tz = `${sign < 0 ? '-' : '+'}${String(hh).padStart(2, '0')}${String(mm).padStart(2, '0')}`;
  }
  const utc = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]);
  if (Number.isNaN(utc)) return null;
  const check = new Date(Date.UTC(fields[0], fields[1] - 1, fields[2]));
  if (check.getUTCDate() !== fields[2]) return null; // 2023-02-30
  return { epoch: Math.floor(utc / 1000) - offsetMinutes * 60, tz };
}

/** The spec's timestamp form (UTC, "Z") of a git time. */
export function isoOfEpoch(epoch: number): string {
  const date = new Date(epoch * 1000);
  if (Number.isNaN(date.getTime())) return '1970-01-01T00:00:00Z';
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Characters git cannot keep in a name or an e-mail address of an identity line. */
export function identProblem(value: string): string | null {
  if (/[<>\n\0]/.test(value)) return 'may not contain <, > or line breaks';
  return null;
}

export function formatIdent(i: Ident): string {
  return `${i.name} <${i.email}> ${i.epoch} ${i.tz}`;
}

const IDENT = /^(.*?) ?<([^>]*)> (-?\d+)(?: ([+-]\d{4}))?$/;

/** Reads an identity line; a malformed one (old or foreign objects) keeps what it can. */
export function parseIdent(text: string): Ident {
  const m = IDENT.exec(text);
  if (!m) return { name: text, email: '', epoch: 0, tz: '+0000' };
  return { name: m[1]!, email: m[2]!, epoch: Number(m[3]), tz: m[4] ?? '+0000' };
}

/** A multi-line header value as git writes it: each continuation line indented by one space. */
export function formatHeader(name: string, value: string): string {
  const text = value.endsWith('\n') ? value : `${value}\n`;
  return `${name} ${text.slice(0, -1).split('\n').join('\n ')}\n`;
}

export interface CommitFields {
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  /** ASCII-armored signature, stored in the gpgsig header. */
  signature?: string | null;
  message: string;
}

/**
 * The commit object exactly as git would store it. The signature goes after the
 * other headers, where `git commit -S` puts it, so that the signed payload is the
 * object without that header.
 */
export function buildCommit(c: CommitFields): string {
  let text = `tree ${c.tree}\n`;
  for (const p of c.parents) text += `parent ${p}\n`;
  text += `author ${formatIdent(c.author)}\n`;
  text += `committer ${formatIdent(c.committer)}\n`;
  if (c.signature) text += formatHeader('gpgsig', c.signature);
  return `${text}\n${c.message}`;
}

export interface ParsedCommit {
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  message: string;
}

/** Header lines (continuations folded in) and the body after the blank line. */
function splitObject(raw: string): { headers: [string, string][]; body: string } {
  const end = raw.indexOf('\n\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
    else if (line) {
      const sp = line.indexOf(' ');
      headers.push(sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)]);
    }
  }
  return { headers, body };
}

export function parseCommit(raw: Buffer): ParsedCommit {
  const { headers, body } = splitObject(raw.toString('utf8'));
  const get = (name: string) => headers.find(([k]) => k === name)?.[1] ?? '';
  return {
    tree: get('tree'),
    parents: headers.filter(([k]) => k === 'parent').map(([, v]) => v),
    author: parseIdent(get('author')),
    committer: parseIdent(get('committer')),
    message: body,
  };
}

export interface TagFields {
  object: string;
  type: string;
  tag: string;
  tagger: Ident;
  message: string;
}

export function buildTag(t: TagFields): string {
  return `object ${t.object}\ntype ${t.type}\ntag ${t.tag}\ntagger ${formatIdent(t.tagger)}\n\n${t.message}`;
}

export interface ParsedTag {
  object: string;
  type: string;
  tag: string;
  tagger: Ident | null;
  /** The message without an inline signature. */
  message: string;
  /** An inline signature (signed tags keep it at the end of the message), or null. */
  signature: string | null;
  /** The bytes the inline signature covers. */
  payload: string;
}

const SIGNATURE_START = /^-----BEGIN (PGP|SSH) SIGNATURE-----$/m;

export function parseTag(raw: Buffer): ParsedTag {
  const text = raw.toString('utf8');
  const { headers, body } = splitObject(text);
  const get = (name: string) => headers.find(([k]) => k === name)?.[1];
  const sig = SIGNATURE_START.exec(body);
  const tagger = get('tagger');
  const cut = sig ? text.length - body.length + sig.index : text.length;
  return {
    object: get('object') ?? '',
    type: get('type') ?? '',
    tag: get('tag') ?? '',
    tagger: tagger === undefined ? null : parseIdent(tagger),
    message: sig ? body.slice(0, sig.index) : body,
    signature: sig ? body.slice(sig.index) : null,
    payload: text.slice(0, cut),
  };
}

/** Base64 in lines of 60 characters, each ending in a newline, as upstream returns blob content. */
export function base64Lines(data: Buffer): string {
  const b64 = data.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 60) out += `${b64.slice(i, i + 60)}\n`;
  return out;
}

/** Decodes base64 (line breaks allowed, padding optional); null when it is not base64. */
export function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/[\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) return null;
  if (compact.includes('=') && compact.length % 4 !== 0) return null;
  return Buffer.from(compact, 'base64');
}
