// What an app is registered with, read from a manifest (upstream's keys) or from the
// settings form (turned into a manifest, so one set of rules reads both).
import { ValidationError, type FieldError } from '../../domain/errors.ts';
import { APP_EVENTS, permissionProblems, type Permissions } from './app-permissions.ts';

const RESOURCE = 'Integration';
export const MAX_NAME = 34;
const MAX_URL = 2048;
const MAX_DESCRIPTION = 400;

/** Upstream's slug: the name lowercased, every run of other characters a single dash. */
export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

export function urlProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_URL) return 'must be an http or https URL';
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : 'must be an http or https URL';
  } catch {
    return 'must be an http or https URL';
  }
}

/** What an app is registered with, from the manifest or the settings form. */
export interface AppFields {
  name: string;
  description: string | null;
  externalUrl: string;
  callbackUrl: string | null;
  setupUrl: string | null;
  redirectUrl: string | null;
  webhookUrl: string | null;
  webhookActive: boolean;
  public: boolean;
  permissions: Permissions;
  events: string[];
  /** User-to-server tokens expire (8 hours, refreshable); upstream's default for new apps. */
  userTokensExpire: boolean;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Reads an app manifest (upstream's keys: name, url, description, hook_attributes,
 * redirect_url, callback_urls, setup_url, public, default_permissions, default_events),
 * every problem at once; 422 when the manifest is not one.
 */
export function parseManifest(raw: unknown): AppFields {
  let m: unknown;
  try {
    m = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw ValidationError.field(RESOURCE, 'manifest', 'invalid', 'Manifest is not valid JSON');
  }
  if (!isObject(m)) throw ValidationError.field(RESOURCE, 'manifest', 'invalid', 'Manifest must be a JSON object');
  const errors: FieldError[] = [];
  const bad = (field: string, message: string, code: FieldError['code'] = 'invalid') => errors.push({ resource: RESOURCE, field, code, message });
  const name = typeof m.name === 'string' ? m.name.trim() : '';
  if (!name) bad('name', "Name can't be blank", 'missing_field');
  else if (name.length > MAX_NAME) bad('name', `Name is too long (maximum is ${MAX_NAME} characters)`);
  else if (!slugOf(name)) bad('name', 'Name must contain a letter or digit');
  if (m.url === undefined) bad('url', "Url can't be blank", 'missing_field');
  else if (urlProblem(m.url)) bad('url', `Url ${urlProblem(m.url)}`);
  const optionalUrl = (field: string, v: unknown): string | null => {
    if (v === undefined || v === null || v === '') return null;
    const p = urlProblem(v);
    if (p) { bad(field, `${field} ${p}`); return null; }
    return v as string;
  };
  const hook = m.hook_attributes === undefined ? {} : m.hook_attributes;
  if (!isObject(hook)) bad('hook_attributes', 'hook_attributes must be an object');
  const hookObj = isObject(hook) ? hook : {};
  const webhookUrl = optionalUrl('hook_attributes.url', hookObj.url);
  if (hookObj.active !== undefined && typeof hookObj.active !== 'boolean') bad('hook_attributes.active', 'hook_attributes.active must be a boolean');
  const callbacks = m.callback_urls === undefined ? [] : m.callback_urls;
  if (!Array.isArray(callbacks)) bad('callback_urls', 'callback_urls must be an array');
  const callbackUrl = Array.isArray(callbacks) && callbacks.length > 0 ? optionalUrl('callback_urls', callbacks[0]) : null;
  const description = m.description === undefined || m.description === null ? null : m.description;
  if (description !== null && (typeof description !== 'string' || description.length > MAX_DESCRIPTION)) bad('description', 'description must be a string of at most 400 characters');
  if (m.public !== undefined && typeof m.public !== 'boolean') bad('public', 'public must be a boolean');
  const permissions = m.default_permissions === undefined ? {} : m.default_permissions;
  for (const p of permissionProblems(permissions)) bad('default_permissions', p);
  const events = m.default_events === undefined ? [] : m.default_events;
  if (!Array.isArray(events) || !events.every((e) => typeof e === 'string')) bad('default_events', 'default_events must be an array of event names');
  else for (const e of events) if (!APP_EVENTS.has(e)) bad('default_events', `${e} is not a known event`);
  const webhookActive = hookObj.active !== false && webhookUrl !== null;
  if (Array.isArray(events) && events.length > 0 && !webhookActive) bad('default_events', 'Events need an active webhook URL');
  const result: AppFields = {
    name, description: typeof description === 'string' ? description : null, externalUrl: m.url as string,
    callbackUrl, setupUrl: optionalUrl('setup_url', m.setup_url), redirectUrl: optionalUrl('redirect_url', m.redirect_url),
    webhookUrl, webhookActive, public: m.public === true,
    permissions: { metadata: 'read', ...(permissions as Permissions) }, events: [...new Set(events as string[])],
    userTokensExpire: true,
  };
  if (errors.length) throw new ValidationError(errors);
  return result;
}

/** The settings form as a manifest, so one set of rules reads both. */
export interface AppForm {
  name?: string; url?: string; description?: string; callback_url?: string; setup_url?: string;
  webhook_url?: string; webhook_active?: string; public?: string; permissions?: string; events?: string;
  /** '0' keeps user tokens from expiring; anything else (or nothing) expires them. */
  user_tokens_expire?: string;
}

/** `permissions` is one "name: level" per line (or comma); `events` names separated by commas or spaces. */
export function fieldsFromForm(form: AppForm): AppFields {
  const permissions: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const entry of (form.permissions ?? '').split(/[\n,]+/).map((l) => l.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)\s*[:=]\s*([a-z]+)$/.exec(entry);
    if (!m) errors.push({ resource: RESOURCE, field: 'permissions', code: 'invalid', message: `"${entry}" is not "permission: level"` });
    else permissions[m[1]!] = m[2]!;
  }
  if (errors.length) throw new ValidationError(errors);
  const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const webhook = blank(form.webhook_url);
  const fields = parseManifest({
    name: form.name ?? '', url: blank(form.url), description: blank(form.description) ?? null,
    callback_urls: blank(form.callback_url) ? [blank(form.callback_url)] : [], setup_url: blank(form.setup_url),
    hook_attributes: { url: webhook, active: webhook !== undefined && form.webhook_active !== undefined },
    public: form.public !== undefined, default_permissions: permissions,
    default_events: (form.events ?? '').split(/[\s,]+/).filter(Boolean),
  });
  return { ...fields, userTokensExpire: form.user_tokens_expire !== '0' };
}
