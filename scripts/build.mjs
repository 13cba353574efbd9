// `npm start` and `npm run cli` run Wharf from bundles (scripts/bundle.mjs), made afresh
// before each: .build/src/main.mjs and .build/cli/main.mjs.
import { bundle } from './bundle.mjs';

await bundle({ entryPoints: ['src/main.ts', 'cli/main.ts'], outdir: '.build' });
