/**
 * What a default exclude's content must look like (pure). A name alone proves nothing — anyone can
 * call readable code `util.min.js` or `package-lock.json` — so a file matched by a default exclude
 * (lib/rules/filters.ts) is left out only when its content is what its name claims; otherwise it is
 * reviewed like any other file and the review says why the default did not apply. The checks are
 * conservative: when in doubt the file is reviewed.
 *
 * - Minified files (`*.min.js`, `*.min.css`…): GitHub Linguist's test (lib/linguist/blob_helper.rb
 *   `minified_files?`: average line length over 110 characters), and at least one line of 500
 *   bytes or more, so a short readable line (a one-line payload) never passes.
 * - Lockfiles parse as their format: JSON ones (`package-lock.json`, `composer.lock`,
 *   `deno.lock`, …) with the top-level keys their tools write; `bun.lock` as JSONC; TOML ones
 *   (`Cargo.lock`, `poetry.lock`, `uv.lock`, `pdm.lock`) with smol-toml; YAML ones
 *   (`pnpm-lock.yaml` with `lockfileVersion`, yarn berry's `__metadata`, `pubspec.lock`,
 *   `Podfile.lock`) with yaml; line formats (`go.sum`, yarn v1, `Gemfile.lock`, `mix.lock`,
 *   `gradle.lockfile`) line by line; `bun.lockb` by its binary header. A YAML or line-format
 *   lockfile that also parses as JavaScript is not excluded ({@linkcode parsesAsScript}): Node
 *   runs a `require()`d `.lock` or `.yaml` file as code. JSON, JSONC and TOML need no such test:
 *   their values are literals, so parsed as JavaScript they call nothing.
 * - Snapshots: a `.snap` file is only a header comment and `exports[`…`] = `…`;` statements whose
 *   template literals hold no `${` expression (the shape Jest and Vitest write); any other file
 *   under `__snapshots__/` is left out only when it is binary (an image snapshot).
 * - Build output (`dist/`, `build/` at the root): binary, minified, or a source map (JSON with
 *   `version` 3 and `mappings`); built code that is readable is reviewed.
 *
 * Every check reads at most {@linkcode MAX_CHECKED_BYTES} of a file: a larger file is reviewed. The
 * parsers (jsonc-parser, smol-toml, yaml) are npm packages, loaded only by the check that needs
 * them (README "Development": an npm import starts Node compatibility).
 *
 * @module
 */
import type { ParseError } from "jsonc-parser";

/** Largest file whose content is checked, bytes; a larger one is reviewed (16 MiB). */
export const MAX_CHECKED_BYTES = 16 * 1024 * 1024;

/** The content checks, by the name a default exclude group gives (lib/rules/filters.ts). */
export type ContentCheck =
  | "npm-lock"
  | "yarn-lock"
  | "pnpm-lock"
  | "bun-lock"
  | "cargo-lock"
  | "go-sum"
  | "poetry-lock"
  | "uv-lock"
  | "composer-lock"
  | "gemfile-lock"
  | "deno-lock"
  | "pipfile-lock"
  | "pdm-lock"
  | "flake-lock"
  | "pubspec-lock"
  | "podfile-lock"
  | "mix-lock"
  | "swift-resolved"
  | "gradle-lock"
  | "nuget-lock"
  | "built"
  | "minified"
  | "snapshot";

/** Bytes git's own test looks at for a NUL (xdiff `buffer_is_binary`: first 8000 bytes). */
const BINARY_PROBE = 8000;

/** True when the first 8000 bytes hold a NUL: git's test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE).includes(0);
}

/**
 * Why content is not minified, or null when it is: average line length over 110 (Linguist, which
 * counts characters; bytes here, read without decoding) and one line of at least 500 bytes.
 *
 * @param bytes the file's content
 */
export function notMinified(bytes: Uint8Array): string | null {
  let lines = 0;
  let longest = 0;
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, start)) {
    lines++;
    longest = Math.max(longest, at - start);
    start = at + 1;
  }
  if (start < bytes.length) {
    lines++;
    longest = Math.max(longest, bytes.length - start);
  }
  const average = Math.round(bytes.length / Math.max(1, lines));
  if (average > 110 && longest >= 500) return null;
  return `it does not look minified (average line ${average} bytes, longest ${longest}; minified files average over 110 with a line of 500 or more)`;
}

/**
 * True when a text also parses as a JavaScript function body — what Node's CommonJS loader runs
 * for a `require()`d file of an unknown extension such as `.lock` or `.yaml`. Parsing only:
 * `new Function` compiles the body and never calls it. A real YAML or line-format lockfile does
 * not parse (its `.:` keys, `^1.0.0` ranges, `10c0` cache keys or `#` comments are syntax errors);
 * one that does was crafted to run when a reviewed file imports it.
 */
export function parsesAsScript(text: string): boolean {
  try {
    new Function(text);
    return true;
  } catch {
    return false;
  }
}

/** Why a lockfile that also parses as JavaScript is not excluded. */
const SCRIPT = (what: string) =>
  `it also parses as JavaScript, which no real ${what} does (it could run when a reviewed file requires it)`;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON check: the parsed value is an object that passes `shape`. */
function jsonLock(what: string, shape: (v: Json) => boolean): (text: string) => string | null {
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return `it does not parse as JSON, the ${what} format`;
    }
    return isObject(value) && shape(value)
      ? null
      : `it is JSON but lacks the top-level keys of the ${what} format`;
  };
}

/** A TOML check with smol-toml: a table that passes `shape`. */
function tomlLock(what: string, shape: (v: Json) => boolean) {
  return async (text: string): Promise<string | null> => {
    const { parse } = await import("smol-toml");
    let value: unknown;
    try {
      value = parse(text);
    } catch {
      return `it does not parse as TOML, the ${what} format`;
    }
    return isObject(value) && shape(value)
      ? null
      : `it is TOML but lacks the top-level keys of the ${what} format`;
  };
}

/** A YAML check with yaml: a mapping that passes `shape`. */
function yamlLock(what: string, shape: (v: Json) => boolean) {
  return async (text: string): Promise<string | null> => {
    const { parse } = await import("yaml");
    let value: unknown;
    try {
      value = parse(text, { maxAliasCount: 100 });
    } catch {
      return `it does not parse as YAML, the ${what} format`;
    }
    if (!isObject(value) || !shape(value)) {
      return `it is YAML but lacks the top-level keys of the ${what} format`;
    }
    return parsesAsScript(text) ? SCRIPT(what) : null;
  };
}

/** A line-format check: every line that is not blank matches one of `shapes`. */
function lineLock(what: string, shapes: readonly RegExp[]): (text: string) => string | null {
  return (text) => {
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "" || shapes.some((s) => s.test(line))) continue;
      return `line ${i + 1} is not a line of the ${what} format`;
    }
    return parsesAsScript(text) ? SCRIPT(what) : null;
  };
}

const has = (...keys: string[]) => (v: Json) => keys.every((k) => k in v);
const hasObject = (key: string) => (v: Json) => isObject(v[key]);

/** yarn v1 (`# yarn lockfile v1`): entries `"a@^1", a@~1:` and their indented fields. */
const YARN_V1 = lineLock("yarn lockfile", [
  /^#/,
  /^"?[^\s"(){};=]+"?(, "?[^\s"(){};=]+"?)*:$/,
  /^ {2}[A-Za-z][\w-]*:$/,
  /^ {2,4}"?[\w@./-]+"? ("[^"]*"|[^\s"=(){};`][^\s(){};`]*)$/,
]);

/** yarn berry (YAML with `__metadata`), else yarn v1's line format. */
async function yarnLock(text: string): Promise<string | null> {
  if (/^__metadata:/m.test(text)) {
    return await yamlLock("yarn lockfile", hasObject("__metadata"))(text);
  }
  return YARN_V1(text);
}

/** `go.sum`: `<module> <version>[/go.mod] h1:<base64>`. */
const GO_SUM = lineLock("go.sum", [/^[^\s]+ v[^\s]+ h1:[A-Za-z0-9+/]+=*$/]);

/** Bundler's `Gemfile.lock`: section heads in capitals, indented specs and fields. */
const GEMFILE_LOCK = lineLock("Gemfile.lock", [
  /^[A-Z][A-Z ]*$/,
  /^ {2,3}[\w.-]+:( [^\s`;|&$(){}]+)?$/,
  /^ {2,6}[\w.-]+!?( \([\w.,<>=~! -]+\))?!?$/,
  /^ {3}[\w.-]+$/,
  /^ {3}ruby [\w.]+$/,
  /^ {2}[\w.-]+( \([\w.,<>=~! -]+\))? sha256=[0-9a-f]+$/,
]);

/** `mix.lock`: an Elixir map of `"name": {:hex|:git|:path, …}` entries. */
const MIX_LOCK = lineLock("mix.lock", [
  /^%\{$/,
  /^ {2}"[\w-]+": \{:(hex|git|path), [^\n`]*\},?$/,
  /^\}$/,
]);

/** Gradle's `gradle.lockfile`: `group:artifact:version=configurations`, `empty=`, comments. */
const GRADLE_LOCK = lineLock("gradle.lockfile", [
  /^#/,
  /^[\w.-]+:[\w.-]+:[\w.+-]+=[\w,]*$/,
  /^empty=[\w,]*$/,
]);

/** `bun.lock`: JSONC (trailing commas allowed) with `lockfileVersion`. */
async function bunLock(text: string): Promise<string | null> {
  const { parse } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return "it does not parse as JSONC, the bun lockfile format";
  return isObject(value) && "lockfileVersion" in value
    ? null
    : "it is JSONC but lacks the lockfileVersion of the bun lockfile format";
}

/**
 * A Jest/Vitest snapshot file: a header comment line, blank lines and
 * `exports[`name`] = `value`;` statements, template literals without `${`.
 */
export function notSnapshot(text: string): string | null {
  const why = "it is not a snapshot file (only exports[`…`] = `…`; statements)";
  let at = 0;
  const skip = () => {
    for (;;) {
      const m = /^(?:\s+|\/\/[^\n]*\n?)/.exec(text.slice(at, at + 4096));
      if (!m || m[0] === "") return;
      at += m[0].length;
    }
  };
  const literal = (): boolean => {
    const quote = text[at];
    if (quote !== "`" && quote !== '"') return false;
    for (let i = at + 1; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") {
        i++;
        continue;
      }
      if (quote === "`" && c === "$" && text[i + 1] === "{") return false;
      if (quote === '"' && c === "\n") return false;
      if (c === quote) {
        at = i + 1;
        return true;
      }
    }
    return false;
  };
  const token = (t: string): boolean => {
    skip();
    if (!text.startsWith(t, at)) return false;
    at += t.length;
    return true;
  };
  for (;;) {
    skip();
    if (at >= text.length) return null;
    if (!token("exports[")) return why;
    skip();
    if (!literal() || !token("]") || !token("=")) return why;
    skip();
    if (!literal() || !token(";")) return why;
  }
}

/** A source map: JSON with `version` 3 and a `mappings` string (Source Map Revision 3). */
const SOURCE_MAP = jsonLock(
  "source map",
  (v) => v.version === 3 && typeof v.mappings === "string",
);

/** A check: `text` decodes the content as UTF-8 (once, only when called). */
type Check = (text: () => string, at: { path: string; bytes: Uint8Array }) =>
  | string
  | null
  | Promise<string | null>;

/** A check of the decoded text. */
const onText = (check: (text: string) => string | null | Promise<string | null>): Check => (text) =>
  check(text());

const CHECKS: Record<ContentCheck, Check> = {
  "npm-lock": onText(jsonLock(
    "npm lockfile",
    (v) => "lockfileVersion" in v && (isObject(v.packages) || isObject(v.dependencies)),
  )),
  "yarn-lock": onText(yarnLock),
  "pnpm-lock": onText(yamlLock("pnpm lockfile", has("lockfileVersion"))),
  "bun-lock": (text, { path, bytes }) =>
    path.endsWith(".lockb")
      ? looksBinary(bytes) &&
          new TextDecoder().decode(bytes.subarray(0, 64)).includes("bun-lockfile-format-v")
        ? null
        : "it is not a binary bun lockfile (no bun-lockfile-format header)"
      : bunLock(text()),
  "cargo-lock": onText(tomlLock(
    "Cargo.lock",
    (v) => Object.keys(v).every((k) => ["version", "package", "metadata", "patch"].includes(k)),
  )),
  "go-sum": onText(GO_SUM),
  "poetry-lock": onText(tomlLock("poetry lockfile", hasObject("metadata"))),
  "uv-lock": onText(tomlLock("uv lockfile", (v) => typeof v.version === "number")),
  "composer-lock": onText(jsonLock("composer lockfile", (v) => Array.isArray(v.packages))),
  "gemfile-lock": onText(GEMFILE_LOCK),
  "deno-lock": onText(jsonLock("deno lockfile", has("version"))),
  "pipfile-lock": onText(jsonLock("Pipfile.lock", hasObject("_meta"))),
  "pdm-lock": onText(tomlLock("pdm lockfile", hasObject("metadata"))),
  "flake-lock": onText(jsonLock("flake.lock", (v) => isObject(v.nodes) && "version" in v)),
  "pubspec-lock": onText(yamlLock("pubspec.lock", (v) => isObject(v.packages) || isObject(v.sdks))),
  "podfile-lock": onText(yamlLock("Podfile.lock", (v) => "PODS" in v || "COCOAPODS" in v)),
  "mix-lock": onText(MIX_LOCK),
  "swift-resolved": onText(jsonLock(
    "Package.resolved",
    (v) => Array.isArray(v.pins) || (isObject(v.object) && Array.isArray(v.object.pins)),
  )),
  "gradle-lock": onText(GRADLE_LOCK),
  "nuget-lock": onText(
    jsonLock("packages.lock.json", (v) => "version" in v && isObject(v.dependencies)),
  ),
  "minified": (_, { bytes }) =>
    looksBinary(bytes) ? "it is binary, not minified text" : notMinified(bytes),
  "snapshot": (text, { path, bytes }) =>
    path.endsWith(".snap")
      ? notSnapshot(text())
      : looksBinary(bytes)
      ? null
      : "only .snap files and binary snapshots (images) are left out of __snapshots__/",
  "built": (text, { path, bytes }) => {
    if (looksBinary(bytes)) return null;
    if (path.endsWith(".map") && SOURCE_MAP(text()) === null) return null;
    return notMinified(bytes) === null
      ? null
      : "built output is left out only when it is binary, minified or a source map, and this file is readable";
  },
};

/**
 * Whether a file's content is what a default exclude's name claims.
 *
 * @param check the default's check
 * @param file its repo-relative path and content (at most {@linkcode MAX_CHECKED_BYTES})
 * @returns null when it is (the file is excluded), else why not, one phrase
 *   ("it does not parse as JSON, the npm lockfile format")
 */
export async function contentMismatch(
  check: ContentCheck,
  file: { path: string; bytes: Uint8Array },
): Promise<string | null> {
  let text: string | undefined;
  const decode = () => (text ??= new TextDecoder().decode(file.bytes));
  return await CHECKS[check](decode, file);
}
