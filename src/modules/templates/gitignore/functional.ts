// Ignore templates for functional languages. Written for Wharf.

export const Haskell = `# Build trees of Cabal and Stack
dist/
dist-newstyle/
.stack-work/
cabal-dev/

# Compiler output
*.o
*.hi
*.dyn_o
*.dyn_hi
*.p_o
*.prof
*.aux
*.hp
*.eventlog
*.chi
*.chs.h

# Local project configuration
cabal.project.local
cabal.project.local~
.ghc.environment.*
.HTF/
.hpc/
*.tix
`;

export const Elixir = `# Mix build output and fetched dependencies
/_build/
/deps/
/cover/
/doc/

# Archives and escripts
*.ez
/*.tar

# Crash dumps of the VM
erl_crash.dump

# Editor and language-server caches
/.elixir_ls/
/.lexical/
/.fetch

# Phoenix: compiled and digested static assets
/priv/static/assets/
/priv/static/cache_manifest.json
/assets/node_modules/

# Environment secrets
.env
`;

export const Erlang = `# Compiled beam files and their by-products
*.beam
*.plt
ebin/*.beam
erl_crash.dump

# rebar3
_build/
_checkouts/
rebar3.crashdump
.rebar/
.rebar3/

# erlang.mk
.erlang.mk/
deps/
logs/
ct_run*/

# Releases and generated docs
rel/example_project
doc/
`;

export const Elm = `# Compiled packages and caches written by elm
elm-stuff/

# Tooling installed through npm
node_modules/

# Generated JavaScript
/elm.js
/main.js
`;
