// The explorer's JavaScript and CSS, bundled by esbuild from explorer/app.jsx (GraphiQL,
// React and their styles) the first time they are asked for, then kept in memory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ExplorerBundle {
  js: string;
  css: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');

let bundle: Promise<ExplorerBundle> | null = null;

async function bundleExplorer(): Promise<ExplorerBundle> {
  const result = await build({
    entryPoints: [path.join(HERE, 'app.jsx')],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: 'explorer',
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: file('.js'), css: file('.css') };
}

/** The bundle, built once per process; a failed build is tried again on the next request. */
export function explorerBundle(): Promise<ExplorerBundle> {
  bundle ??= bundleExplorer().catch((err: unknown) => {
    bundle = null;
    throw err;
  });
  return bundle;
}
