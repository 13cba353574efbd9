// Archives of a commit's tree (zipball and tarball downloads), as git archive writes them.
import type { Readable } from 'node:stream';
import { streamGit } from './run.ts';

export type ArchiveFormat = 'zip' | 'tar.gz';

/**
 * The tree of `commit` (a full sha, known to be a commit) under `prefix`/, streamed as
 * git writes it: an archive of a large repository never has to fit in memory.
 */
export function archiveStream(dir: string, commit: string, format: ArchiveFormat, prefix: string): Readable {
  return streamGit(dir, ['archive', `--format=${format}`, `--prefix=${prefix}/`, commit]);
}
