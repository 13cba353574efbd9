// Wharf's gitignore templates by name: what GET /gitignore/templates lists and what a
// repository created with gitignore_template starts with. Names follow upstream's
// ("C++", "Objective-C", "VisualStudio" …) so that clients written against it find them.
// The texts are Wharf's own. Kept as module data: no file is read at request time.
import { Elixir, Elm, Erlang, Haskell } from './functional.ts';
import { Dart, ObjectiveC, Swift, Unity } from './apple-and-games.ts';
import { Android, Gradle, Java, Kotlin, Maven, Scala } from './jvm.ts';
import { Julia, Lua, Node, Perl, Python, R, Ruby } from './scripting.ts';
import { C, CMake, CPlusPlus, Go, Rust, Zig } from './systems.ts';
import { Terraform, VisualStudio } from './tools.ts';
import { Jekyll, Laravel, Rails, Symfony } from './web-frameworks.ts';

// Grouped as the files are; the API lists them sorted.
export const GITIGNORE_TEMPLATES: Readonly<Record<string, string>> = Object.freeze({
  // systems
  C, 'C++': CPlusPlus, CMake, Go, Rust, Zig,
  // JVM
  Java, Kotlin, Scala, Gradle, Maven, Android,
  // scripting and scientific
  Node, Python, Ruby, Perl, Lua, R, Julia,
  // functional
  Haskell, Elixir, Erlang, Elm,
  // Apple platforms, Flutter, games
  Swift, 'Objective-C': ObjectiveC, Dart, Unity,
  // web frameworks and site generators
  Rails, Laravel, Symfony, Jekyll,
  // tools
  Terraform, VisualStudio,
});
