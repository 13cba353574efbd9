// Copying git data between bare repositories on this host: forks take the parent's
// refs with their history, repositories generated from a template take only trees.
import { writingRefs } from './ref-writes.ts';
import { runGit } from './run.ts';

/**
 * Fetches `refspecs` of the repository at `sourceDir` into the one at `targetDir`,
 * with every object they reach. A wildcard refspec that matches nothing copies nothing.
 */
export async function fetchRefs(targetDir: string, sourceDir: string, refspecs: string[]): Promise<void> {
  if (refspecs.length === 0) return;
  // Tags come only through an explicit refspec: a fork of the default branch alone takes none.
  await writingRefs(() => runGit(targetDir, ['fetch', '--quiet', '--no-tags', '--update-head-ok', '--no-write-fetch-head', sourceDir, ...refspecs]));
}

/**
 * Copies trees and everything below them (no commits, so no history) from `sourceDir`
 * into `targetDir`, as one pack.
 */
export async function copyTrees(targetDir: string, sourceDir: string, trees: string[]): Promise<void> {
  if (trees.length === 0) return;
  const objects = await runGit(sourceDir, ['rev-list', '--objects', '--no-walk', ...[...new Set(trees)]]);
  const pack = await runGit(sourceDir, ['pack-objects', '--stdout', '-q'], { input: objects.stdout });
  await runGit(targetDir, ['index-pack', '--stdin'], { input: pack.stdout });
}
