// Which license a repository holds: the LICENSE (or COPYING) file at the root of its
// default branch, matched against the known license texts.
import { listTree, type TreeEntry } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { detectLicense } from '../templates/templates.service.ts';

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|markdown|txt|rst))?$/i;
const MAX_LICENSE_BYTES = 256 * 1024;

/** The license file at the root of `branch`, if there is one. */
export async function findLicenseFile(dir: string, branch: string): Promise<TreeEntry | null> {
  return licenseFileAt(dir, await git.resolve(dir, `refs/heads/${branch}`));
}

async function licenseFileAt(dir: string, commit: string | null): Promise<TreeEntry | null> {
  if (!commit) return null;
  const entries = await listTree(dir, commit);
  return entries.filter((e) => e.type === 'blob' && LICENSE_FILE.test(e.path)).sort((a, b) => a.path.localeCompare(b.path))[0] ?? null;
}

/** The key of the license in the file, 'other' for a license file Wharf does not recognise, null without one. */
export async function detectRepositoryLicense(dir: string, branch: string): Promise<string | null> {
  return licenseAt(dir, await git.resolve(dir, `refs/heads/${branch}`));
}

/** As detectRepositoryLicense, at a commit already known (a push's new tip). */
export async function licenseAt(dir: string, commit: string | null): Promise<string | null> {
  const file = await licenseFileAt(dir, commit);
  if (!file) return null;
  if ((file.size ?? 0) > MAX_LICENSE_BYTES) return 'other';
  const blob = await git.readObject(dir, file.sha);
  return blob ? detectLicense(blob.content.toString('utf8')) ?? 'other' : null;
}
