// RFC 7644 § 3.4.2.2 filters, as far as upstream supports them: one `eq` comparison on
// id, userName, externalId (also written external_id) or emails (emails.value).
import { BadRequestError } from '../../domain/errors.ts';
import type { ScimFilter } from './scim.model.ts';

const ATTRIBUTES: Record<string, ScimFilter['attribute']> = {
  id: 'id', username: 'userName', externalid: 'externalId', external_id: 'externalId', emails: 'emails', 'emails.value': 'emails',
};

const EQ = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

export function parseFilter(raw: string | undefined): ScimFilter | null {
  if (raw === undefined || raw.trim() === '') return null;
  const m = EQ.exec(raw);
  const attribute = m ? ATTRIBUTES[m[1]!.toLowerCase()] : undefined;
  if (!m || !attribute) {
    throw new BadRequestError('Unsupported filter: only eq on id, userName, externalId and emails is supported, e.g. userName eq "octocat".', 'invalidFilter');
  }
  return { attribute, value: m[2]!.replace(/\\(.)/g, '$1') };
}
