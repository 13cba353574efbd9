// The licenses Wharf knows: upstream's commonly used set. Names, keys, spdx_ids and the
// permission/condition/limitation tags are facts about each license, in the vocabulary
// upstream uses (choosealicense.com's rule tags); descriptions are Wharf's own words.
// Bodies are the SPDX texts of npm spdx-license-list, read once when this module loads.
import { createRequire } from 'node:module';

export type LicensePermission = 'commercial-use' | 'modifications' | 'distribution' | 'private-use' | 'patent-use';
export type LicenseCondition =
  | 'include-copyright' | 'include-copyright--source' | 'document-changes' | 'disclose-source'
  | 'network-use-disclose' | 'same-license' | 'same-license--file' | 'same-license--library';
export type LicenseLimitation = 'liability' | 'warranty' | 'trademark-use' | 'patent-use';

export interface LicenseInfo {
  /** Lowercase, as upstream: "mit", "apache-2.0". */
  key: string;
  name: string;
  /** Upstream's spdx_id, which keeps the short GNU ids ("GPL-3.0", not "GPL-3.0-only"). */
  spdxId: string;
  /** Stable number behind node_id; the ones api.github.com shows for the same license. */
  nodeNumber: number;
  featured: boolean;
  description: string;
  implementation: string;
  permissions: readonly LicensePermission[];
  conditions: readonly LicenseCondition[];
  limitations: readonly LicenseLimitation[];
  /** Where the license is published (SPDX list's reference address). */
  htmlUrl: string;
  /** The license text, placeholders such as "<year>" left in. */
  body: string;
}

interface SpdxEntry {
  name: string;
  url: string;
  osiApproved: boolean;
  licenseText: string;
}

type Definition = Omit<LicenseInfo, 'htmlUrl' | 'body'> & {
  /** The current SPDX id whose text is the body (the GNU texts are "-only"). */
  textId: string;
};

const BASIC: readonly LicensePermission[] = ['commercial-use', 'modifications', 'distribution', 'private-use'];
const WITH_PATENTS: readonly LicensePermission[] = ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use'];
const NO_WARRANTY: readonly LicenseLimitation[] = ['liability', 'warranty'];

const COPY_TEXT = 'Create a text file (typically named LICENSE or LICENSE.txt) at the root of the repository and copy the license text into it.';
const GNU_TEXT = 'Create a text file (typically named COPYING or LICENSE) at the root of the repository and copy the license text into it. '
  + 'The license\'s appendix shows a short notice to put at the top of each source file.';

const DEFINITIONS: readonly Definition[] = [
  {
    key: 'agpl-3.0', textId: 'AGPL-3.0-only', spdxId: 'AGPL-3.0', nodeNumber: 1, featured: false,
    name: 'GNU Affero General Public License v3.0',
    description: 'The strongest of the GNU copyleft licenses: besides sharing the source of distributed copies under the same terms, '
      + 'whoever runs a modified version as a network service must offer its users the complete source.',
    implementation: GNU_TEXT,
    permissions: WITH_PATENTS,
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'network-use-disclose', 'same-license'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'apache-2.0', textId: 'Apache-2.0', spdxId: 'Apache-2.0', nodeNumber: 2, featured: true,
    name: 'Apache License 2.0',
    description: 'A permissive license that also grants contributors\' patent rights. Copies must keep the license and notices '
      + 'and mark changed files; trademark rights are not granted. Larger works may use other terms.',
    implementation: `${COPY_TEXT} To apply it to a work, fill in [yyyy] and [name of copyright owner] in the notice of the appendix.`,
    permissions: WITH_PATENTS,
    conditions: ['include-copyright', 'document-changes'],
    limitations: ['trademark-use', 'liability', 'warranty'],
  },
  {
    key: 'bsd-2-clause', textId: 'BSD-2-Clause', spdxId: 'BSD-2-Clause', nodeNumber: 4, featured: false,
    name: 'BSD 2-Clause "Simplified" License',
    description: 'A short permissive license: use the work for anything, as long as the copyright notice and the disclaimer '
      + 'travel with source and binary copies.',
    implementation: `${COPY_TEXT} Replace <year> with the current year and <owner> with the name of the copyright holders.`,
    permissions: BASIC,
    conditions: ['include-copyright'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'bsd-3-clause', textId: 'BSD-3-Clause', spdxId: 'BSD-3-Clause', nodeNumber: 5, featured: false,
    name: 'BSD 3-Clause "New" or "Revised" License',
    description: 'The two-clause BSD license plus a third clause: the names of the copyright holder and contributors may not be '
      + 'used to promote derived products without permission.',
    implementation: `${COPY_TEXT} Replace <year> with the current year and <owner> with the name of the copyright holders.`,
    permissions: BASIC,
    conditions: ['include-copyright'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'bsl-1.0', textId: 'BSL-1.0', spdxId: 'BSL-1.0', nodeNumber: 28, featured: false,
    name: 'Boost Software License 1.0',
    description: 'A permissive license that asks for the notice only in source copies: binaries built from the work need not '
      + 'carry it.',
    implementation: COPY_TEXT,
    permissions: BASIC,
    conditions: ['include-copyright--source'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'cc0-1.0', textId: 'CC0-1.0', spdxId: 'CC0-1.0', nodeNumber: 6, featured: false,
    name: 'Creative Commons Zero v1.0 Universal',
    description: 'Gives the work to the public domain as far as the law allows, with a fallback license where it does not. '
      + 'No trademark or patent rights are granted.',
    implementation: `${COPY_TEXT} It can also be applied to data sets and other works that are not code.`,
    permissions: BASIC,
    conditions: [],
    limitations: ['liability', 'trademark-use', 'patent-use', 'warranty'],
  },
  {
    key: 'epl-2.0', textId: 'EPL-2.0', spdxId: 'EPL-2.0', nodeNumber: 32, featured: false,
    name: 'Eclipse Public License 2.0',
    description: 'A weak copyleft license: changes to the covered files are shared under the same license, while larger works '
      + 'combining them may use other terms. Contributors grant their patent rights.',
    implementation: `${COPY_TEXT} Exhibit A of the license shows how to name secondary licenses, if any.`,
    permissions: WITH_PATENTS,
    conditions: ['disclose-source', 'include-copyright', 'same-license'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'gpl-2.0', textId: 'GPL-2.0-only', spdxId: 'GPL-2.0', nodeNumber: 8, featured: false,
    name: 'GNU General Public License v2.0',
    description: 'A strong copyleft license: whoever distributes the work or a derivative must make the complete source '
      + 'available under the same license and keep the notices.',
    implementation: GNU_TEXT,
    permissions: BASIC,
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'gpl-3.0', textId: 'GPL-3.0-only', spdxId: 'GPL-3.0', nodeNumber: 9, featured: true,
    name: 'GNU General Public License v3.0',
    description: 'A strong copyleft license: whoever distributes the work or a derivative must make the complete source '
      + 'available under the same license. Contributors grant their patent rights.',
    implementation: GNU_TEXT,
    permissions: WITH_PATENTS,
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'lgpl-2.1', textId: 'LGPL-2.1-only', spdxId: 'LGPL-2.1', nodeNumber: 11, featured: false,
    name: 'GNU Lesser General Public License v2.1',
    description: 'A copyleft license for libraries: changes to the library are shared under the same terms, while programs '
      + 'that only link to it may be distributed under other terms.',
    implementation: GNU_TEXT,
    permissions: BASIC,
    conditions: ['include-copyright', 'disclose-source', 'document-changes', 'same-license--library'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'mit', textId: 'MIT', spdxId: 'MIT', nodeNumber: 13, featured: true,
    name: 'MIT License',
    description: 'A short permissive license: do anything with the work, provided the copyright and license notice stay with '
      + 'copies. It comes without warranty.',
    implementation: `${COPY_TEXT} Replace <year> with the current year and <copyright holders> with the name of the copyright holders.`,
    permissions: BASIC,
    conditions: ['include-copyright'],
    limitations: NO_WARRANTY,
  },
  {
    key: 'mpl-2.0', textId: 'MPL-2.0', spdxId: 'MPL-2.0', nodeNumber: 14, featured: false,
    name: 'Mozilla Public License 2.0',
    description: 'A file-level copyleft license: the source of covered files, changed or not, stays under this license, '
      + 'while a larger work may combine them with files under other terms. Contributors grant their patent rights.',
    implementation: `${COPY_TEXT} Exhibit A of the license holds the notice to put in each source file.`,
    permissions: WITH_PATENTS,
    conditions: ['disclose-source', 'include-copyright', 'same-license--file'],
    limitations: ['liability', 'trademark-use', 'warranty'],
  },
  {
    key: 'unlicense', textId: 'Unlicense', spdxId: 'Unlicense', nodeNumber: 15, featured: false,
    name: 'The Unlicense',
    description: 'Releases the work to the public domain with no conditions at all, and disclaims any warranty.',
    implementation: `${COPY_TEXT} Put it in a file named UNLICENSE or LICENSE.`,
    permissions: ['private-use', 'commercial-use', 'modifications', 'distribution'],
    conditions: [],
    limitations: NO_WARRANTY,
  },
];

const require = createRequire(import.meta.url);

function load({ textId, ...def }: Definition): LicenseInfo {
  const spdx = require(`spdx-license-list/licenses/${textId}.json`) as SpdxEntry;
  return Object.freeze({ ...def, htmlUrl: `https://spdx.org/licenses/${textId}.html`, body: spdx.licenseText });
}

/** By key, in key order (the order upstream lists them). */
export const LICENSES: ReadonlyMap<string, LicenseInfo> = new Map(
  [...DEFINITIONS].sort((a, b) => (a.key < b.key ? -1 : 1)).map((d) => [d.key, load(d)]),
);
