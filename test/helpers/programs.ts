// How tests start Wharf's programs as child processes: from the bundle scripts/test.mjs
// made of them (WHARF_TEST_BUILD_DIR), else from the sources through tsx (a file run
// on its own with `node --import tsx --test`).
import fs from 'node:fs';
import path from 'node:path';

/** node's arguments that run `program` (relative to the repository root, e.g. 'cli/main.ts'). */
export function programArgs(program: 'src/main.ts' | 'cli/main.ts'): string[] {
  const buildDir = process.env.WHARF_TEST_BUILD_DIR;
  const built = buildDir ? path.join(buildDir, program.replace(/\.ts$/, '.mjs')) : null;
  return built && fs.existsSync(built) ? ['--enable-source-maps', built] : ['--import', 'tsx', program];
}
