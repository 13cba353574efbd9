// Tags of a repository with the commit each names (annotated tags peeled), for the
// tag list and releases.
import { gitText } from './run.ts';

export interface TagEntry {
  /** The name under refs/tags/. */
  name: string;
  /** The commit the tag names (an annotated tag's target); null when it names no commit. */
  commit: string | null;
}

/** Every tag, in the order for-each-ref gives (by ref name). */
export async function listTags(dir: string): Promise<TagEntry[]> {
  const out = await gitText(dir, ['for-each-ref', '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)', 'refs/tags/']);
  return out.split('\n').filter(Boolean).map((line) => {
    const [sha, type, peeledSha, peeledType, ...ref] = line.split(' ');
    const name = ref.join(' ').slice('refs/tags/'.length);
    // One level of peeling covers what tags made by git and the API point at.
    const commit = type === 'commit' ? sha! : peeledType === 'commit' ? peeledSha! : null;
    return { name, commit };
  });
}
