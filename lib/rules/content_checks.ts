/**
 * What a default exclude's content must look like (pure). A name alone proves nothing — anyone can
 * call readable code `util.min.js` or `package-lock.json` — so a file matched by a default exclude
 * (lib/rules/filters.ts) is left out only when its content is what its name claims; otherwise it is
 * reviewed like any other file and the review says why the default did not apply. The checks are
 * conservative: when in doubt the file is reviewed.
 *
 * - Minified files (`*.min.js`, `*.min.css`…): GitHub Linguist's test (lib/linguist/blob_helper.rb
 *   `minified_files?`: average line length over 110 characters), a line of at least 500
 *   characters of code (trailing blanks and comments do not count), and, after a leading banner
 *   of comments, at most three shorter lines ({@linkcode notMinified}): readable code beside one
 *   long string line is reviewed. Lines end at every JavaScript line terminator (LF, CR, U+2028,
 *   U+2029). What a long line holds is not judged: code really minified is left out.
 * - Lockfiles parse as their format: JSON ones (`package-lock.json`, `composer.lock`,
 *   `deno.lock`, …) with the top-level keys their tools write; `bun.lock` as JSONC; TOML ones
 *   (`Cargo.lock`, `poetry.lock`, `uv.lock`, `pdm.lock`) with smol-toml; YAML ones
 *   (`pnpm-lock.yaml` with `lockfileVersion`, yarn berry's `__metadata`, `pubspec.lock`,
 *   `Podfile.lock`) with yaml; line formats (`go.sum`, yarn v1, `Gemfile.lock`, `mix.lock`,
 *   `gradle.lockfile`) line by line; `bun.lockb` by its binary header. A YAML or line-format
 *   lockfile that may run as JavaScript is not excluded ({@linkcode parsesAsScript}: after a
 *   hashbang or byte order mark, or as an ES module): Node runs a `require()`d `.lock` or `.yaml`
 *   file as code. JSON, JSONC and TOML need no such test: their values are literals, so parsed as
 *   JavaScript they call nothing.
 * - Snapshots: a `.snap` file is only `//` comments and `exports[`…`] = `…`;` statements whose
 *   template literals hold no `${` expression (the shape Jest and Vitest write); a `//` comment ends
 *   at any JavaScript line terminator, and no other comment (`/* *\/`, `<!--`, `-->`, `#!`) is
 *   accepted. Any other file under `__snapshots__/` is left out only when it is binary (an image
 *   snapshot).
 * - Build output (`dist/`, `build/` at the root): binary, minified, or a source map (JSON with
 *   `version` 3 and `mappings`); built code that is readable is reviewed.
 * - Binary, for the snapshot and build output defaults and `bun.lockb`, is git's test (a NUL in the
 *   first 8000 bytes) for a file not named as JavaScript, CSS, HTML, SVG, JSON or XML and whose
 *   content does not parse as JavaScript ({@linkcode binaryContent}): a stray NUL in a comment does
 *   not make readable code binary.
 * - A symlink earns no default: git's blob of it is the path it points to (lib/rules/exclude.ts;
 *   the target is never read).
 *
 * Every check reads at most {@linkcode MAX_CHECKED_BYTES} of a file: a larger file is reviewed. The
 * parsers (jsonc-parser, smol-toml, yaml) are npm packages, loaded only by the check that needs
 * them (README "Development": an npm import starts Node compatibility).
 *
 * @module
 */
import { platformMetadata } from "../git/platform_files.ts";
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
  | "snapshot"
  | "platform-metadata";

/** Bytes git's own test looks at for a NUL (xdiff `buffer_is_binary`: first 8000 bytes). */
const BINARY_PROBE = 8000;

/** True when the first 8000 bytes hold a NUL: git's test for binary content. */
export function gitBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE).includes(0);
}

/**
 * Names of text that a browser or Node runs or renders whatever bytes it holds: a NUL in a comment
 * or a string of JavaScript, CSS, HTML or SVG does not stop it (browsers read NUL as U+FFFD).
 * Compared case-insensitively.
 */
const TEXT_NAME = /\.(?:[cm]?[jt]sx?|css|s[ac]ss|less|html?|xhtml|svg|json|map|xml)$/i;

/**
 * True when content is binary for a default exclude: git calls it binary (a NUL in the first 8000
 * bytes), its name is not one of text that runs with a NUL in it ({@linkcode TEXT_NAME}), and it
 * does not parse as JavaScript ({@linkcode parsesAsScript}: Node runs a `require()`d file of an
 * unknown extension as code, and a NUL inside a comment or a string is legal JavaScript). Readable
 * code with a stray NUL is therefore never binary here; a real image, font or `bun.lockb` is.
 *
 * @param bytes the file's content
 * @param path its repo-relative path
 * @param text its content decoded as UTF-8 (called only when the other tests leave it open)
 */
export function binaryContent(bytes: Uint8Array, path: string, text: () => string): boolean {
  return gitBinary(bytes) && !TEXT_NAME.test(path) && !parsesAsScript(text());
}

/** JavaScript's line terminators (ECMA-262 LineTerminator: LF, CR, LS, PS; CRLF is one). */
const LINE_END = /\r\n|[\n\r\u2028\u2029]/;

/** Lines a minified file may hold besides its long ones: `"use strict";`, a source map comment. */
const SHORT_LINES = 3;
/** Characters of code a line needs to count as long (Linguist's 500). */
const LONG_LINE = 500;

/**
 * The length of a line's code: without trailing whitespace and trailing comments (`/* … *\/`, and
 * `//` after a blank, `;`, `,`, a bracket or the line's start), so padding never makes a line long.
 * A `//` inside a string may cut a real line short: the file is then reviewed.
 */
function codeLength(line: string): number {
  let end = line.trimEnd();
  for (let before = -1; before !== end.length;) {
    before = end.length;
    if (end.endsWith("*/")) {
      const open = end.lastIndexOf("/*", end.length - 3);
      if (open >= 0) end = end.slice(0, open).trimEnd();
    }
    const slash = /(?:^|[\s;,(){}[\]])\/\//.exec(end);
    if (slash) end = end.slice(0, slash.index + slash[0].length - 2).trimEnd();
  }
  return end.length;
}

/**
 * Where a leading banner of comments and blanks ends (`/*! license *\/`, and `//` lines unless the
 * file is CSS, where `//` starts no comment): the start of the code. JavaScript's rules — a `//`
 * comment ends at any line terminator — so no code hides in the banner.
 */
function bannerEnd(text: string, css: boolean): number {
  const gap = css
    ? /(?:\s+|\/\*[\s\S]*?\*\/)*/y
    : /(?:\s+|\/\*[\s\S]*?\*\/|\/\/[^\n\r\u2028\u2029]*)*/y;
  gap.exec(text);
  return gap.lastIndex;
}

/**
 * Why content is not minified, or null when it is. Lines end at every JavaScript line terminator
 * (a CR or U+2028 ends a line for Node as LF does); lengths are in UTF-16 code units. Minified:
 * - lines average over 110 characters (GitHub Linguist, lib/linguist/blob_helper.rb
 *   `minified_files?`);
 * - one line holds at least {@linkcode LONG_LINE} characters of code ({@linkcode codeLength}:
 *   trailing blanks and comments do not count);
 * - after a leading banner of comments, at most {@linkcode SHORT_LINES} other lines are shorter
 *   but not blank (`"use strict";`, `//# sourceMappingURL=…`, the tail of a wrapped bundle), so
 *   readable code beside one long string line is not minified.
 *
 * @param text the file's content, decoded
 * @param path its repo-relative path (in `.css`, `//` starts no comment)
 * @returns null when minified, else why not (one phrase)
 */
export function notMinified(text: string, path = ""): string | null {
  const lines = text.split(LINE_END);
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const average = Math.round(text.length / Math.max(1, lines.length));
  let longest = 0;
  let short = 0;
  for (const line of text.slice(bannerEnd(text, /\.css$/i.test(path))).split(LINE_END)) {
    const length = codeLength(line);
    longest = Math.max(longest, length);
    if (length > 0 && length < LONG_LINE) short++;
  }
  if (average > 110 && longest >= LONG_LINE && short <= SHORT_LINES) return null;
  return `it does not look minified (average line ${average} characters, longest ${longest} of code, ${short} short lines of code; minified files average over 110, with a line of ${LONG_LINE} or more and at most ${SHORT_LINES} short lines besides a leading comment)`;
}

/**
 * What V8 says when a CommonJS body holds module syntax; Node then runs the file again as an ES
 * module (its syntax detection, `shouldRetryAsESM`), so such a file may run although
 * `new Function` refuses it.
 */
const MODULE_SYNTAX = [
  "Cannot use import statement outside a module",
  "Unexpected token 'export'",
  "Cannot use 'import.meta' outside a module",
  "await is only valid in async functions and the top level bodies of modules",
];

/**
 * True when a text may run as JavaScript — what Node's CommonJS loader does for a `require()`d
 * file of an unknown extension such as `.lock` or `.yaml`: it parses as a function body once a
 * leading byte order mark and hashbang (`#!…` to the first line terminator, which Node and ES2023
 * allow) are dropped, or its parse fails only on module syntax (`import`, `export`, `import.meta`,
 * top-level `await`), which Node retries as an ES module. Parsing only: `new Function` compiles
 * the body and never calls it. A real YAML or line-format lockfile does not parse (its `.:` keys,
 * `^1.0.0` ranges, `10c0` cache keys or `#` comments are syntax errors); one that does was crafted
 * to run when a reviewed file imports it.
 */
export function parsesAsScript(text: string): boolean {
  try {
    new Function(text.replace(/^\uFEFF?(?:#![^\n\r\u2028\u2029]*)?/, ""));
    return true;
  } catch (error) {
    return error instanceof SyntaxError && MODULE_SYNTAX.some((m) => error.message.includes(m));
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
  // blanks and `//` comments, which end at any JavaScript line terminator (LF, CR, U+2028, U+2029);
  // nothing else (no `/* */`, no `<!--` or `-->` HTML-like comment, no hashbang): the file is reviewed
  const gap = /(?:\s+|\/\/[^\n\r\u2028\u2029]*)*/y;
  const skip = () => {
    gap.lastIndex = at;
    gap.exec(text);
    at = gap.lastIndex;
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
      if (quote === '"' && (c === "\n" || c === "\r")) return false;
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
      ? binaryContent(bytes, path, text) &&
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
  "minified": (text, { path, bytes }) =>
    gitBinary(bytes) ? "it is binary, not minified text" : notMinified(text(), path),
  "snapshot": (text, { path, bytes }) =>
    path.endsWith(".snap")
      ? notSnapshot(text())
      : binaryContent(bytes, path, text)
      ? null
      : "only .snap files and binary snapshots (images) are left out of __snapshots__/",
  "platform-metadata": (_text, { path, bytes }) =>
    platformMetadata(path, bytes) === null
      ? "it does not start as the platform's metadata format does (Finder's Bud1, AppleDouble)"
      : null,
  "built": (text, { path, bytes }) => {
    if (binaryContent(bytes, path, text)) return null;
    if (path.endsWith(".map") && SOURCE_MAP(text()) === null) return null;
    return notMinified(text(), path) === null
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
