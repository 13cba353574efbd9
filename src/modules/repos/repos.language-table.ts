// Which language a path is written in, by file name and extension: a small table after
// GitHub's linguist (languages.yml, vendor.yml, documentation.yml), written for Wharf
// because no maintained language detector is among Wharf's dependencies. Only the
// languages linguist counts in a repository's breakdown are here (its `programming`
// and `markup` types: data such as JSON and YAML, and prose such as Markdown, are not
// counted upstream either); a path it cannot name is not counted.

/** Extension (lower case, without the dot) → language. */
const EXTENSIONS: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript',
  js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', pyw: 'Python', pyi: 'Python',
  go: 'Go', rs: 'Rust', rb: 'Ruby', rake: 'Ruby', gemspec: 'Ruby',
  java: 'Java', kt: 'Kotlin', kts: 'Kotlin', scala: 'Scala', sc: 'Scala', groovy: 'Groovy', gradle: 'Groovy', clj: 'Clojure', cljs: 'Clojure',
  c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', hxx: 'C++', cs: 'C#', fs: 'F#', fsx: 'F#',
  m: 'Objective-C', mm: 'Objective-C++', swift: 'Swift', dart: 'Dart',
  php: 'PHP', pl: 'Perl', pm: 'Perl', lua: 'Lua', r: 'R', jl: 'Julia',
  sh: 'Shell', bash: 'Shell', zsh: 'Shell', ksh: 'Shell', fish: 'fish', ps1: 'PowerShell', psm1: 'PowerShell', bat: 'Batchfile', cmd: 'Batchfile',
  hs: 'Haskell', lhs: 'Haskell', ml: 'OCaml', mli: 'OCaml', ex: 'Elixir', exs: 'Elixir', erl: 'Erlang', hrl: 'Erlang', elm: 'Elm',
  zig: 'Zig', nim: 'Nim', v: 'V', d: 'D', pas: 'Pascal', f90: 'Fortran', f: 'Fortran', asm: 'Assembly', s: 'Assembly',
  sql: 'PLpgSQL', vue: 'Vue', svelte: 'Svelte', astro: 'Astro',
  html: 'HTML', htm: 'HTML', xhtml: 'HTML', css: 'CSS', scss: 'SCSS', sass: 'Sass', less: 'Less', styl: 'Stylus',
  tex: 'TeX', sty: 'TeX', hcl: 'HCL', tf: 'HCL', nix: 'Nix', cmake: 'CMake', mk: 'Makefile', mak: 'Makefile',
  coffee: 'CoffeeScript', vim: 'Vim Script', el: 'Emacs Lisp', lisp: 'Common Lisp', scm: 'Scheme', rkt: 'Racket',
  sol: 'Solidity', proto: 'Protocol Buffer', graphql: 'GraphQL', gql: 'GraphQL',
};

/** Whole file names linguist names by themselves. */
const FILENAMES: Record<string, string> = {
  makefile: 'Makefile', gnumakefile: 'Makefile', dockerfile: 'Dockerfile', containerfile: 'Dockerfile',
  rakefile: 'Ruby', gemfile: 'Ruby', 'cmakelists.txt': 'CMake', 'build.bazel': 'Starlark', justfile: 'Just',
};

/** linguist's vendor.yml and documentation.yml, the obvious cases: not the repository's own code. */
const EXCLUDED = [
  /(^|\/)node_modules\//, /(^|\/)bower_components\//, /(^|\/)vendor(ed)?\//i, /(^|\/)third[-_]?party\//, /(^|\/)dist\//,
  /\.min\.(js|css)$/, /-min\.js$/, /(^|\/)docs?\//i, /(^|\/)documentation\//i,
];

/** Colours of the languages, as linguist defines them, for Language.color. */
export const LANGUAGE_COLORS: Record<string, string> = {
  JavaScript: '#f1e05a', TypeScript: '#3178c6', Python: '#3572A5', Java: '#b07219', Go: '#00ADD8', Rust: '#dea584',
  Ruby: '#701516', C: '#555555', 'C++': '#f34b7d', 'C#': '#178600', PHP: '#4F5D95', Shell: '#89e051', HTML: '#e34c26',
  CSS: '#563d7c', Kotlin: '#A97BFF', Swift: '#F05138', Scala: '#c22d40', Haskell: '#5e5086', Elixir: '#6e4a7e',
  Dart: '#00B4AB', Lua: '#000080', Perl: '#0298c3', R: '#198CE7', 'Objective-C': '#438eff', Vue: '#41b883',
  Makefile: '#427819', Dockerfile: '#384d54', SCSS: '#c6538c', Zig: '#ec915c', Julia: '#a270ba', Erlang: '#B83998',
};

/** The language of a path, or null when it is not counted (unknown, binary, vendored, documentation). */
export function languageOfPath(path: string): string | null {
  if (EXCLUDED.some((re) => re.test(path))) return null;
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = FILENAMES[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? EXTENSIONS[name.slice(dot + 1)] ?? null : null;
}
