/**
 * POSIX path arithmetic with `node:path`'s exact results (its `posix` functions, ported from
 * Node's lib/path.js), in plain TypeScript. Importing `node:path` starts Deno's Node compatibility
 * layer (its error and inspection modules), about 10 ms on every start that reaches it; review-gate
 * runs only where paths are POSIX (macOS, Linux), so the product imports these instead
 * (docs/design.md "Performance notes": load only what the path uses). `lib/base/path_test.ts`
 * holds every function to `node:path` on a corpus of awkward paths.
 *
 * Strings only: no file system access, except {@linkcode resolve}, which reads the working
 * directory (`Deno.cwd()`) when no argument is absolute.
 *
 * @module
 */

const SLASH = 47; // "/"
const DOT = 46; // "."

/** The path list separator (`PATH`). */
export const delimiter = ":";

/** The path segment separator. */
export const sep = "/";

/**
 * Resolve `.` and `..` segments and collapse repeated slashes of a path without its root (Node's
 * `normalizeString`).
 *
 * @param allowAboveRoot keep leading `..` segments (relative paths)
 */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // an empty or "." segment
      } else if (dots === 2) {
        if (
          res.length < 2 || lastSegmentLength !== 2 ||
          res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf("/");
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? "/.." : "..";
          lastSegmentLength = 2;
        }
      } else {
        const segment = path.slice(lastSlash + 1, i);
        res = res.length > 0 ? `${res}/${segment}` : segment;
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

/** True when `path` starts at the root (`/`). */
export function isAbsolute(path: string): boolean {
  return path.charCodeAt(0) === SLASH;
}

/**
 * `path` with `.` and `..` resolved and repeated slashes collapsed; a trailing slash is kept.
 *
 * @returns `"."` for an empty path
 */
export function normalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = isAbsolute(path);
  const trailing = path.charCodeAt(path.length - 1) === SLASH;
  let out = normalizeString(path, !absolute);
  if (out.length === 0) {
    if (absolute) return "/";
    return trailing ? "./" : ".";
  }
  if (trailing) out += "/";
  return absolute ? `/${out}` : out;
}

/**
 * The non-empty parts joined with `/`, normalized ({@linkcode normalize}).
 *
 * @returns `"."` when every part is empty
 */
export function join(...parts: string[]): string {
  let joined: string | undefined;
  for (const part of parts) {
    if (part.length > 0) joined = joined === undefined ? part : `${joined}/${part}`;
  }
  return joined === undefined ? "." : normalize(joined);
}

/**
 * The absolute path the parts name, read from right to left until one is absolute, then from the
 * working directory (`Deno.cwd()`); normalized, without a trailing slash.
 */
export function resolve(...parts: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = parts.length - 1; i >= -1 && !absolute; i--) {
    const part = i >= 0 ? parts[i] : Deno.cwd();
    if (part.length === 0) continue;
    resolved = `${part}/${resolved}`;
    absolute = isAbsolute(part);
  }
  resolved = normalizeString(resolved, !absolute);
  if (absolute) return `/${resolved}`;
  return resolved.length > 0 ? resolved : ".";
}

/**
 * The relative path from `from` to `to`, both resolved first ({@linkcode resolve}).
 *
 * @returns `""` when both name the same path
 */
export function relative(from: string, to: string): string {
  if (from === to) return "";
  from = resolve(from);
  to = resolve(to);
  if (from === to) return "";
  const fromStart = 1;
  const fromEnd = from.length;
  const fromLen = fromEnd - fromStart;
  const toStart = 1;
  const toLen = to.length - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === SLASH) lastCommonSep = i;
  }
  if (i === length) {
    if (toLen > length) {
      // `from` is `to`'s ancestor ("/foo/bar" to "/foo/bar/baz"), or the root
      if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
      if (i === 0) return to.slice(toStart + i);
    } else if (fromLen > length) {
      // `to` is `from`'s ancestor, or the root
      if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
      else if (i === 0) lastCommonSep = 0;
    }
  }
  let out = "";
  for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
    if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
  }
  return `${out}${to.slice(toStart + lastCommonSep)}`;
}

/**
 * The directory part of `path` (trailing slashes ignored).
 *
 * @returns `"."` for a path without a slash, `"/"` for a top-level one
 */
export function dirname(path: string): string {
  if (path.length === 0) return ".";
  const hasRoot = isAbsolute(path);
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}

/**
 * The last segment of `path` (trailing slashes ignored).
 *
 * @returns `""` for `""` or a path of slashes only
 */
export function basename(path: string): string {
  let start = 0;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 0; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        start = i + 1;
        break;
      }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  return end === -1 ? "" : path.slice(start, end);
}
