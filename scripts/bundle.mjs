// Wharf's programs as esbuild bundles: `npm start`, `npm run cli` and the test files
// run from them. Loading ~700 TypeScript modules through tsx's loader hooks costs
// ~3 s of CPU and ~55 MB of resident memory per process; a bundle loads in ~1 s of CPU.
// Type checking stays with `tsc --noEmit`; `node --import tsx src/main.ts` still runs
// the sources.
//
// - Packages stay external: node_modules resolves from the output as from the sources.
// - import.meta.url keeps naming the source file, so paths built from it (git hooks,
//   templates, the askpass script, package.json) resolve as they do unbundled.
// - keepNames: class and function names stay what the sources say.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const sourceImportMetaUrl = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/**
 * Bundles `entryPoints` (paths relative to the repository) into `outdir`, keeping their
 * paths (src/main.ts → outdir/src/main.mjs). `splitting` puts what entries share into
 * chunks (many entries, one run: the tests); without it each output stands alone and
 * replaces the old one by a rename, so a process already running from it is unaffected.
 * Returns the output of each entry, in order.
 */
export async function bundle({ entryPoints, outdir, splitting = false }) {
  const options = {
    entryPoints, outdir, outbase: '.', outExtension: { '.js': '.mjs' },
    bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    keepNames: true, sourcemap: 'linked', logLevel: 'warning', plugins: [sourceImportMetaUrl],
  };
  if (splitting) {
    fs.rmSync(outdir, { recursive: true, force: true });
    await esbuild.build({ ...options, splitting: true, chunkNames: 'chunks/[name]-[hash]' });
  } else {
    const { outputFiles } = await esbuild.build({ ...options, write: false });
    for (const file of outputFiles) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      const temporary = `${file.path}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, file.contents);
      fs.renameSync(temporary, file.path);
    }
  }
  return entryPoints.map((f) => path.join(outdir, f.replace(/\.ts$/, '.mjs')));
}
