/**
 * Path filters of the team's rules (pure): which changed files are left out of a review *by rule*
 * (never sent to the model, never counted against the budget, listed by name), and which rule did
 * it. Globs follow lib/rules/globs.ts. In order, for each path:
 * 1. a config `exclude` glob matches → excluded (`exclude "<glob>"`);
 * 2. `include` is set and no include glob matches → excluded (`not matched by include`);
 * 3. an `include` glob matches → reviewed (an explicit include beats the defaults);
 * 4. with the defaults on: a {@linkcode DEFAULT_EXCLUDES} glob matches → excluded
 *    (`default: npm lockfile`) once its content passes the group's check
 *    (lib/rules/content_checks.ts: a name alone proves nothing; lib/rules/exclude.ts reads the
 *    content), or `.gitattributes` marks the file `linguist-generated` or `-diff`
 *    → excluded (`.gitattributes linguist-generated`);
 * 5. otherwise reviewed.
 *
 * @module
 */
import type { ContentCheck } from "./content_checks.ts";
import { type CompiledGlob, compileEach, compileGlobs, firstMatch } from "./globs.ts";

/**
 * The name of the default exclude for the OS's own metadata files (lib/git/platform_files.ts): a
 * change of nothing else is nothing to review, not "NOT reviewed" — no code changed.
 */
export const PLATFORM_METADATA = "macOS metadata";

/** A group of default excludes every user expects, named for the report. */
export interface DefaultExclude {
  /** What the files are, e.g. "npm lockfile". */
  name: string;
  globs: readonly string[];
  /** What a matched file's content must look like to be left out (lib/rules/content_checks.ts). */
  check: ContentCheck;
}

/**
 * The defaults: lockfiles of the common package managers (npm, yarn, pnpm, bun, cargo, go, poetry,
 * uv, composer, bundler, and deno, pipenv, pdm, nix, dart, cocoapods, mix, swift, gradle, nuget),
 * build output (`dist/` and `build/` at the root only: a `tools/build/` of hand-written code is
 * reviewed), minified files, snapshots, and the metadata macOS writes beside files (`.DS_Store`,
 * `._*`: lib/git/platform_files.ts).
 */
export const DEFAULT_EXCLUDES: readonly DefaultExclude[] = [
  { name: "npm lockfile", globs: ["package-lock.json", "npm-shrinkwrap.json"], check: "npm-lock" },
  { name: "yarn lockfile", globs: ["yarn.lock"], check: "yarn-lock" },
  { name: "pnpm lockfile", globs: ["pnpm-lock.yaml"], check: "pnpm-lock" },
  { name: "bun lockfile", globs: ["bun.lock", "bun.lockb"], check: "bun-lock" },
  { name: "cargo lockfile", globs: ["Cargo.lock"], check: "cargo-lock" },
  { name: "go checksums", globs: ["go.sum", "go.work.sum"], check: "go-sum" },
  { name: "poetry lockfile", globs: ["poetry.lock"], check: "poetry-lock" },
  { name: "uv lockfile", globs: ["uv.lock"], check: "uv-lock" },
  { name: "composer lockfile", globs: ["composer.lock"], check: "composer-lock" },
  { name: "bundler lockfile", globs: ["Gemfile.lock"], check: "gemfile-lock" },
  { name: "deno lockfile", globs: ["deno.lock"], check: "deno-lock" },
  { name: "pipenv lockfile", globs: ["Pipfile.lock"], check: "pipfile-lock" },
  { name: "pdm lockfile", globs: ["pdm.lock"], check: "pdm-lock" },
  { name: "nix flake lockfile", globs: ["flake.lock"], check: "flake-lock" },
  { name: "dart lockfile", globs: ["pubspec.lock"], check: "pubspec-lock" },
  { name: "cocoapods lockfile", globs: ["Podfile.lock"], check: "podfile-lock" },
  { name: "mix lockfile", globs: ["mix.lock"], check: "mix-lock" },
  { name: "swift package lockfile", globs: ["Package.resolved"], check: "swift-resolved" },
  { name: "gradle lockfile", globs: ["gradle.lockfile"], check: "gradle-lock" },
  { name: "nuget lockfile", globs: ["packages.lock.json"], check: "nuget-lock" },
  { name: "build output", globs: ["/dist/", "/build/"], check: "built" },
  {
    name: "minified file",
    globs: ["*.min.js", "*.min.mjs", "*.min.cjs", "*.min.css"],
    check: "minified",
  },
  { name: "snapshot", globs: ["__snapshots__/", "*.snap"], check: "snapshot" },
  { name: PLATFORM_METADATA, globs: [".DS_Store", "._*"], check: "platform-metadata" },
];

/** The attributes of a path that the defaults read from `.gitattributes`. */
export interface PathAttributes {
  /** `linguist-generated` is set (or "true"). */
  generated: boolean;
  /** `diff` is unset (`-diff`, also through the `binary` macro). */
  noDiff: boolean;
}

/** The filter settings (config `exclude`, `include`, `default_excludes`). */
export interface FilterSettings {
  exclude: readonly string[];
  include: readonly string[];
  /** Whether {@linkcode DEFAULT_EXCLUDES} and the `.gitattributes` marks apply. */
  defaultExcludes: boolean;
}

/** A changed file left out by rule. */
export interface ExcludedFile {
  path: string;
  /** Which rule: `default: npm lockfile`, `exclude "src/gen/**"`, `.gitattributes -diff`… */
  rule: string;
}

/** A compiled filter. */
export interface PathFilter {
  /**
   * The rule that excludes a path before attributes are known, `null` when the path is reviewed
   * whatever its attributes, or `"attributes"` when only its `.gitattributes` marks can decide.
   */
  byPath(path: string): string | null | "attributes";
  /** The rule that excludes a path given its attributes (for paths `byPath` left open). */
  byAttributes(attributes: PathAttributes): string | null;
  /** The content check a rule `byPath` gave asks for: defaults have one, the config's globs none. */
  checkOf(rule: string): ContentCheck | undefined;
}

/**
 * Compile filter settings.
 *
 * @param settings the globs and the defaults switch
 * @returns the filter
 */
export async function compileFilter(settings: FilterSettings): Promise<PathFilter> {
  const exclude = await compileEach(settings.exclude);
  const include = await compileGlobs(settings.include);
  const hasInclude = settings.include.length > 0;
  const defaults: { name: string; globs: CompiledGlob[] }[] = settings.defaultExcludes
    ? await Promise.all(
      DEFAULT_EXCLUDES.map(async (d) => ({ name: d.name, globs: await compileEach(d.globs) })),
    )
    : [];
  const checks = new Map(DEFAULT_EXCLUDES.map((d) => [`default: ${d.name}`, d.check]));
  return {
    byPath(path) {
      const excluded = firstMatch(exclude, path);
      if (excluded !== null) return `exclude ${JSON.stringify(excluded)}`;
      if (hasInclude) {
        if (!include(path)) return "not matched by include";
        return null;
      }
      for (const group of defaults) {
        if (firstMatch(group.globs, path) !== null) return `default: ${group.name}`;
      }
      return settings.defaultExcludes ? "attributes" : null;
    },
    byAttributes(attributes) {
      if (attributes.generated) return ".gitattributes linguist-generated";
      if (attributes.noDiff) return ".gitattributes -diff";
      return null;
    },
    checkOf: (rule) => settings.defaultExcludes ? checks.get(rule) : undefined,
  };
}
