// Gitignore templates and licenses → API representations. Pure; every URL from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { LICENSES, type LicenseInfo } from './templates.licenses.ts';
import type { GitignoreTemplate, License, LicenseSimple } from './templates.schemas.ts';

export function gitignoreTemplateView(t: { name: string; source: string }): GitignoreTemplate {
  return { name: t.name, source: t.source };
}

export function licenseSimpleOf(l: LicenseInfo, urls: Urls): LicenseSimple {
  return {
    key: l.key,
    name: l.name,
    spdx_id: l.spdxId,
    url: urls.api('licenses', l.key),
    node_id: encodeNodeId('License', l.nodeNumber),
  };
}

/** A repository's `license` field for a license key (as detectLicense returns it); null for an unknown key. */
/** A license file Wharf does not recognise, shown as upstream shows it. */
const OTHER: LicenseSimple = { key: 'other', name: 'Other', spdx_id: 'NOASSERTION', url: null, node_id: 'MDc6TGljZW5zZTA=' };

export function licenseSimple(key: string, urls: Urls): LicenseSimple | null {
  if (key === 'other') return OTHER;
  const l = LICENSES.get(key.toLowerCase());
  return l ? licenseSimpleOf(l, urls) : null;
}

export function licenseView(l: LicenseInfo, urls: Urls): License {
  return {
    ...licenseSimpleOf(l, urls),
    html_url: l.htmlUrl,
    description: l.description,
    implementation: l.implementation,
    permissions: [...l.permissions],
    conditions: [...l.conditions],
    limitations: [...l.limitations],
    body: l.body,
    featured: l.featured,
  };
}
