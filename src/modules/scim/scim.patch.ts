// RFC 7644 § 3.5.2 PATCH operations (add, remove, replace) on a provisioned user's
// data: attribute paths (userName, displayName, externalId, active, name.givenName …,
// emails, groups), a value-filtered email (emails[type eq "work"].value), or no path
// with an object of attributes. Pure: returns the new data, or throws 400s.
import { BadRequestError } from '../../domain/errors.ts';
import type { ScimEmail, ScimGroup, ScimUserData } from './scim.model.ts';

export interface PatchOperation { op: string; path?: string; value?: unknown }

const MAX_TEXT = 1024;

function bad(detail: string, scimType = 'invalidValue'): BadRequestError {
  return new BadRequestError(detail, scimType);
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > MAX_TEXT) throw bad(`${path} must be a string of at most ${MAX_TEXT} characters`);
  return value;
}

/** Clients send booleans, and some (Azure AD) the strings "True" and "False". */
function bool(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw bad(`${path} must be a boolean`);
}

function emails(value: unknown): ScimEmail[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 20) throw bad('emails holds at most 20 addresses');
  return list.map((e) => {
    if (typeof e !== 'object' || e === null) throw bad('emails must be objects with a value');
    const o = e as Record<string, unknown>;
    return {
      value: text(o.value, 'emails.value'),
      ...(o.primary !== undefined ? { primary: bool(o.primary, 'emails.primary') } : {}),
      ...(o.type !== undefined ? { type: text(o.type, 'emails.type') } : {}),
    };
  });
}

function groups(value: unknown): ScimGroup[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 100) throw bad('groups holds at most 100 entries');
  return list.map((g) => {
    if (typeof g !== 'object' || g === null) throw bad('groups must be objects');
    const o = g as Record<string, unknown>;
    return { ...(o.value !== undefined ? { value: text(o.value, 'groups.value') } : {}), ...(o.display !== undefined ? { display: text(o.display, 'groups.display') } : {}) };
  });
}

const EMAIL_BY_TYPE = /^emails\[\s*type\s+eq\s+"([^"]*)"\s*\]\.value$/i;

/** Sets (or, with value undefined, removes) the attribute at `path`; `add` appends to multi-valued ones. */
function apply(d: ScimUserData, op: 'add' | 'remove' | 'replace', path: string, value: unknown): void {
  const remove = op === 'remove';
  const byType = EMAIL_BY_TYPE.exec(path);
  if (byType) {
    const type = byType[1]!.toLowerCase();
    const rest = d.emails.filter((e) => (e.type ?? '').toLowerCase() !== type);
    const existing = d.emails.find((e) => (e.type ?? '').toLowerCase() === type);
    d.emails = remove ? rest : [...rest, { ...existing, value: text(value, path), type: byType[1]! }];
    return;
  }
  switch (path.toLowerCase()) {
    case 'username':
      if (remove) throw bad('userName is required', 'mutability');
      d.userName = text(value, path);
      return;
    case 'externalid': d.externalId = remove ? null : text(value, path); return;
    case 'displayname': d.displayName = remove ? null : text(value, path); return;
    case 'name.givenname': d.givenName = remove ? null : text(value, path); return;
    case 'name.familyname': d.familyName = remove ? null : text(value, path); return;
    case 'name.formatted': d.formatted = remove ? null : text(value, path); return;
    case 'name': {
      if (remove) { d.givenName = d.familyName = d.formatted = null; return; }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('name must be an object');
      for (const [k, v] of Object.entries(value)) apply(d, op, `name.${k}`, v);
      return;
    }
    case 'active':
      if (remove) throw bad('active cannot be removed', 'mutability');
      d.active = bool(value, path);
      return;
    case 'emails': d.emails = remove ? [] : op === 'add' ? [...d.emails, ...emails(value)] : emails(value); return;
    case 'groups': d.groups = remove ? [] : op === 'add' ? [...d.groups, ...groups(value)] : groups(value); return;
    case 'schemas': case 'id': case 'meta': throw bad(`${path} cannot be changed`, 'mutability');
    default: throw bad(`Unknown attribute path: ${path}`, 'invalidPath');
  }
}

export function applyOperations(current: ScimUserData, operations: readonly PatchOperation[]): ScimUserData {
  const d: ScimUserData = { ...current, emails: [...current.emails], groups: [...current.groups] };
  for (const operation of operations) {
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'remove' && op !== 'replace') throw bad(`Unknown operation: ${operation.op}`, 'invalidSyntax');
    const path = operation.path?.trim();
    if (path) {
      if (op !== 'remove' && operation.value === undefined) throw bad(`The ${op} operation needs a value`);
      apply(d, op, path, operation.value);
      continue;
    }
    // No path: the value is an object of attributes (remove needs a target).
    if (op === 'remove') throw bad('The remove operation needs a path', 'noTarget');
    if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value)) {
      throw bad('Without a path, the value must be an object of attributes');
    }
    for (const [k, v] of Object.entries(operation.value)) apply(d, op, k, v);
  }
  if (!d.userName.trim()) throw bad('userName is required');
  return d;
}
