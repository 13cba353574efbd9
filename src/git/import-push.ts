// The pushing step of an import: the rewritten history pushed into the Wharf
// repository by git's own push (receive-pack, with the protected-branch hook's
// environment when rules apply), so the repository gets it as from any other push.
// Forced: after a re-mapping (authors, large files) the imported branches and tags are
// replaced by their rewritten history. Never pruned: branches someone pushed meanwhile stay.
import { runTool } from './import-process.ts';

export async function pushImported(finalGitDir: string, targetGitDir: string, o: {
  env: Record<string, string>; signal: AbortSignal; timeoutMs: number; percent(value: number): void;
}): Promise<void> {
  const r = await runTool('git', ['--git-dir', finalGitDir, 'push', '--force', '--progress', '--', targetGitDir,
    'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], {
    env: o.env, signal: o.signal, timeoutMs: o.timeoutMs, keepStdout: false,
    onLine: (line) => {
      const m = /Writing objects:\s+(\d+)%/.exec(line);
      if (m) o.percent(Number(m[1]));
    },
  });
  if (r.code !== 0) throw new Error(`push into the repository failed: ${r.stderr.trim().split('\n').at(-1) ?? ''}`);
}
