// Imports point inward only (DESIGN.md § Layout, house rules): the shared layers
// (src/http, src/db, src/git, src/events, src/domain) never import a module, and a
// module reaches another module through its service and views, never its store.
// Read from the source text, so that a type-only import counts as well.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const MODULES = path.join(SRC, 'modules');
const LAYERS = ['http', 'db', 'git', 'events', 'domain'];

/** `import … from`, `export … from`, side-effect `import '…'`, and dynamic `import('…')`. */
const IMPORT = /\b(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The files `file` imports by relative path, resolved (package imports are left out). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith('.')) out.push(path.resolve(path.dirname(file), spec));
  }
  return out;
}

const rel = (p: string) => path.relative(SRC, p);
const isInside = (p: string, dir: string) => p.startsWith(dir + path.sep);
/** The module a path lies in (`repos` for src/modules/repos/…), or null. */
const moduleOf = (p: string) => (isInside(p, MODULES) ? path.relative(MODULES, p).split(path.sep)[0]! : null);

test('the layer scan finds the files it checks', () => {
  for (const layer of LAYERS) assert.ok(tsFiles(path.join(SRC, layer)).length > 0, `no .ts files under src/${layer}`);
  assert.ok(tsFiles(MODULES).length > 50);
});

test('src/http, src/db, src/git, src/events and src/domain import nothing from src/modules', () => {
  const wrong: string[] = [];
  for (const layer of LAYERS) {
    for (const file of tsFiles(path.join(SRC, layer))) {
      for (const target of importsOf(file)) if (isInside(target, MODULES)) wrong.push(`${rel(file)} → ${rel(target)}`);
    }
  }
  assert.deepEqual(wrong, [], `imports into src/modules from a shared layer:\n${wrong.join('\n')}`);
});

test("no module imports another module's store", () => {
  const wrong: string[] = [];
  for (const file of tsFiles(MODULES)) {
    const own = moduleOf(file);
    for (const target of importsOf(file)) {
      const other = moduleOf(target);
      if (other !== null && other !== own && target.endsWith('.store.ts')) wrong.push(`${rel(file)} → ${rel(target)}`);
    }
  }
  assert.deepEqual(wrong, [], `stores imported across modules:\n${wrong.join('\n')}`);
});

test('the import scan sees every form of import', () => {
  // A self-check of the pattern, so that a layer cannot slip past it by the form it uses.
  const sample = [
    "import { a } from './a.ts';",
    "import type {\n  B,\n} from '../b.ts';",
    "export { c } from './c.ts';",
    "export * from './d.ts';",
    "import './e.ts';",
    "const f = await import('./f.ts');",
  ].join('\n');
  const specs = [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
  assert.deepEqual(specs, ['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './f.ts']);
});
