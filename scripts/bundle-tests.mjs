// Bundles test files for scripts/test.mjs: each test file's process then loads a few
// JavaScript chunks instead of ~700 TypeScript modules through tsx's loader hooks
// (importing src/server.ts: ~2 s of CPU through tsx, ~0.3 s bundled; the suite starts
// over 200 such processes). Type checking stays with `tsc --noEmit`.
//
// - Packages stay external: node_modules resolves from .test-build as from the sources.
// - import.meta.url keeps naming the source file, so paths built from it (git hooks,
//   templates, package.json) resolve as they do unbundled.
// - keepNames: class and function names stay what the sources say.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const BUILD_DIR = '.test-build';

/** Bundles `files` (test/*.test.ts) into BUILD_DIR; returns the bundle of each, in order. */
export async function bundleTests(files) {
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: files,
    outdir: BUILD_DIR,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [{
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
    }],
  });
  return files.map((f) => path.join(BUILD_DIR, f.replace(/\.ts$/, '.mjs')));
}
