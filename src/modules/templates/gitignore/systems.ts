// Ignore templates for compiled, systems-level languages and their build tools.
// Written for Wharf; the entries are the usual build outputs of each toolchain.

export const C = `# Compiler output
*.o
*.obj
*.ko
*.elf
*.gch
*.pch

# Static and shared libraries
*.a
*.lib
*.so
*.so.*
*.dylib
*.dll

# Programs
*.exe
*.out
*.app
a.out

# Debugger and linker leftovers
*.dSYM/
*.su
*.idb
*.pdb
*.map
*.ilk

# Dependency files written by -MD / -MMD
*.d

# Out-of-tree build directories
build/
`;

export const CPlusPlus = `# Compiler output
*.o
*.obj
*.gch
*.pch
*.ii

# Module interface caches (C++20 modules)
*.pcm
*.ifc
*.bmi

# Static and shared libraries
*.a
*.lib
*.so
*.so.*
*.dylib
*.dll

# Programs
*.exe
*.out
*.app

# Debug symbols and link maps
*.dSYM/
*.pdb
*.ilk
*.map

# Dependency files written by -MD / -MMD
*.d

# Build trees and package-manager output
build/
cmake-build-*/
conan-build/
vcpkg_installed/
`;

export const CMake = `# Files CMake writes into the directory it configures
CMakeCache.txt
CMakeFiles/
CMakeScripts/
cmake_install.cmake
install_manifest.txt
compile_commands.json
CTestTestfile.cmake
Testing/
_deps/

# Per-user presets stay local; the shared CMakePresets.json is committed
CMakeUserPresets.json

# Generated build systems
Makefile
build.ninja
.ninja_deps
.ninja_log

# Typical build directories
build/
out/
`;

export const Go = `# Binaries built with go build
*.exe
*.exe~
*.dll
*.so
*.dylib
/bin/

# Test binaries (go test -c) and coverage profiles
*.test
*.out
coverage.*
*.coverprofile

# Vendored modules, when the project does not commit them
# vendor/

# Workspace file: usually personal to a checkout
go.work
go.work.sum

# Local environment
.env
`;

export const Rust = `# Cargo's build directory
/target/
debug/

# Libraries should not pin their dependency versions; applications should
# commit Cargo.lock, so remove this line for binaries.
# Cargo.lock

# Files left behind by rustfmt
**/*.rs.bk

# Debug information on Windows
*.pdb

# Mutation-testing output
mutants.out*/
`;

export const Zig = `# Build cache and install prefix of zig build
.zig-cache/
zig-cache/
zig-out/

# Fetched package sources
.zig-global-cache/

# Artifacts built by hand with zig build-exe / build-obj
*.o
*.obj
*.pdb
*.exe
`;
