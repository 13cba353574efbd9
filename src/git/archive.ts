// Archives of a commit's tree (zipball and tarball downloads), as git archive writes them.
import { runGit } from './run.ts';

export type ArchiveFormat = 'zip' | 'tar.gz';

/** The tree of `commit` (a full sha, known to be a commit) under `prefix`/, whole, in memory. */
export async function archiveCommit(dir: string, commit: string, format: ArchiveFormat, prefix: string): Promise<Buffer> {
  return (await runGit(dir, ['archive', `--format=${format}`, `--prefix=${prefix}/`, commit])).stdout;
}
