/**
 * Path globs of the team's rules (`exclude`, `include`, `path_instructions`), matched with picomatch
 * against repo-relative paths, gitignore-like: a glob without a slash matches the file name at any
 * depth (`*.min.js`, `package-lock.json`); a glob with a slash matches from the repository root
 * (`src/db/**`, `src/*.ts`); a glob ending in `/` matches everything under that directory — at any
 * depth when it has no other slash (`dist/`), from the root otherwise (`src/gen/`). A leading `/`
 * anchors at the root (`/build/`). Dot files match like any other (`.github/**`).
 *
 * @module
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/** A compiled glob: true when a repo-relative path matches it. */
export type PathMatcher = (path: string) => boolean;

/**
 * Turn one rule glob into the picomatch pattern and options that implement the module's rules.
 *
 * @param glob a glob as written in the config
 * @returns the pattern to compile and whether it matches file names (basename) only
 */
export function normaliseGlob(glob: string): { pattern: string; basename: boolean } {
  let pattern = glob.trim();
  const anchored = pattern.startsWith("/");
  if (anchored) pattern = pattern.replace(/^\/+/, "");
  if (pattern.endsWith("/")) {
    const dir = pattern.replace(/\/+$/, "");
    return {
      pattern: anchored || dir.includes("/") ? `${dir}/**` : `**/${dir}/**`,
      basename: false,
    };
  }
  return { pattern, basename: !anchored && !pattern.includes("/") };
}

/**
 * Compile globs into one matcher (true when any glob matches).
 *
 * @param globs globs as written in the config (see the module doc)
 * @returns the matcher; with no glob it matches nothing
 * @example
 * ```ts
 * import { compileGlobs } from "./globs.ts";
 * const generated = compileGlobs(["*.min.js", "dist/", "src/gen/**"]);
 * generated("web/app.min.js"); // true
 * generated("pkg/dist/index.js"); // true
 * generated("src/main.ts"); // false
 * ```
 */
export function compileGlobs(globs: readonly string[]): PathMatcher {
  const byName: string[] = [];
  const byPath: string[] = [];
  for (const glob of globs) {
    const { pattern, basename } = normaliseGlob(glob);
    if (pattern !== "") (basename ? byName : byPath).push(pattern);
  }
  const name = byName.length > 0 ? picomatch(byName, { dot: true, basename: true }) : null;
  const path = byPath.length > 0 ? picomatch(byPath, { dot: true }) : null;
  return (p) => (name?.(p) ?? false) || (path?.(p) ?? false);
}

/** One glob as written and its compiled matcher. */
export interface CompiledGlob {
  glob: string;
  match: PathMatcher;
}

/**
 * Compile each glob on its own, to tell which one matched.
 *
 * @param globs globs as written in the config
 * @returns one entry per glob, in order
 */
export function compileEach(globs: readonly string[]): CompiledGlob[] {
  return globs.map((glob) => ({ glob, match: compileGlobs([glob]) }));
}

/**
 * The first glob of a compiled list that matches a path.
 *
 * @returns the glob as written, or null
 */
export function firstMatch(globs: readonly CompiledGlob[], path: string): string | null {
  return globs.find((g) => g.match(path))?.glob ?? null;
}
