/**
 * Path globs of the team's rules (`exclude`, `include`, `path_instructions`), matched with picomatch
 * against repo-relative paths, gitignore-like: a glob without a slash matches the file name at any
 * depth (`*.min.js`, `package-lock.json`); a glob with a slash matches from the repository root
 * (`src/db/**`, `src/*.ts`); a glob ending in `/` matches everything under that directory — at any
 * depth when it has no other slash (`dist/`), from the root otherwise (`src/gen/`). A leading `/`
 * anchors at the root (`/build/`). Dot files match like any other (`.github/**`).
 *
 * The simple shapes every default exclude has — a plain name, `*` and a plain suffix, a plain
 * directory — are matched by string tests that give picomatch's answers (globs_test.ts checks them
 * against picomatch); picomatch is loaded and compiles only the other globs, so a run whose rules
 * are all simple never loads it.
 *
 * @module
 */
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
 * const generated = await compileGlobs(["*.min.js", "dist/", "src/gen/**"]);
 * generated("web/app.min.js"); // true
 * generated("pkg/dist/index.js"); // true
 * generated("src/main.ts"); // false
 * ```
 */
export async function compileGlobs(globs: readonly string[]): Promise<PathMatcher> {
  const simple: PathMatcher[] = [];
  const byName: string[] = [];
  const byPath: string[] = [];
  for (const glob of globs) {
    const { pattern, basename } = normaliseGlob(glob);
    if (pattern === "") continue;
    const matcher = simpleMatcher(pattern, basename);
    if (matcher) simple.push(matcher);
    else (basename ? byName : byPath).push(pattern);
  }
  const picomatch = byName.length + byPath.length > 0
    ? (await import("picomatch")).default
    : undefined;
  const name = picomatch && byName.length > 0
    ? picomatch(byName, { dot: true, basename: true })
    : null;
  const path = picomatch && byPath.length > 0 ? picomatch(byPath, { dot: true }) : null;
  return (p) => simple.some((m) => m(p)) || (name?.(p) ?? false) || (path?.(p) ?? false);
}

/**
 * True when {@linkcode compileGlobs} matches `glob` with plain string tests, without picomatch
 * (an npm CommonJS package, whose first import starts Deno's Node compatibility layer: ~10 ms and
 * ~9 MB of a process).
 */
export function isPlainGlob(glob: string): boolean {
  const { pattern, basename } = normaliseGlob(glob);
  return pattern === "" || simpleMatcher(pattern, basename) !== undefined;
}

/** A plain name or path: no character picomatch reads as anything but itself. */
const PLAIN = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/**
 * The string test that gives picomatch's answer (`dot: true`) for a simple normalised pattern, or
 * `undefined` for any other: a plain file name (`package-lock.json`), `*` and a plain suffix
 * (`*.min.js`), a plain directory from the root (`/dist/`, `src/gen/`) or at any depth
 * (`__snapshots__/`). Paths are git's: repo-relative, no empty segment.
 */
function simpleMatcher(pattern: string, basename: boolean): PathMatcher | undefined {
  const nameOf = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  if (basename) {
    if (PLAIN.test(pattern) && !/^\.+$/.test(pattern)) return (p) => nameOf(p) === pattern;
    const suffix = pattern.slice(1);
    if (pattern.startsWith("*") && PLAIN.test(suffix) && !/^\.+$/.test(suffix)) {
      return (p) => nameOf(p).endsWith(suffix);
    }
    // a name's start ("._*": AppleDouble files): `*` may match nothing
    const prefix = pattern.slice(0, -1);
    if (pattern.endsWith("*") && PLAIN.test(prefix) && !/^\.+$/.test(prefix)) {
      return (p) => nameOf(p).startsWith(prefix);
    }
    return undefined;
  }
  if (!pattern.endsWith("/**")) return undefined;
  const anyDepth = pattern.startsWith("**/");
  const dir = pattern.slice(anyDepth ? 3 : 0, -3);
  if (!PLAIN.test(dir) || dir.split("/").some((s) => /^\.+$/.test(s))) return undefined;
  if (!anyDepth) return (p) => p === dir || p.startsWith(`${dir}/`);
  if (dir.includes("/")) return undefined;
  return (p) =>
    p === dir || p.startsWith(`${dir}/`) || p.endsWith(`/${dir}`) || p.includes(`/${dir}/`);
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
export async function compileEach(globs: readonly string[]): Promise<CompiledGlob[]> {
  return await Promise.all(
    globs.map(async (glob) => ({ glob, match: await compileGlobs([glob]) })),
  );
}

/**
 * The first glob of a compiled list that matches a path.
 *
 * @returns the glob as written, or null
 */
export function firstMatch(globs: readonly CompiledGlob[], path: string): string | null {
  return globs.find((g) => g.match(path))?.glob ?? null;
}
