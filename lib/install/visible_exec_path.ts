/**
 * The executable path an installed hook should name (docs/design.md "Installer"). Homebrew runs a
 * program from a versioned folder (`/opt/homebrew/Cellar/deno/2.1.4/bin/deno`, or
 * `/usr/local/Cellar/…`, `/home/linuxbrew/.linuxbrew/Cellar/…`) and links it from a folder on PATH
 * (`/opt/homebrew/bin/deno`). `Deno.execPath()` is the resolved file, the versioned one, which
 * `brew upgrade` deletes: a hook naming it then fails on every push and stop. The link on PATH
 * survives upgrades, so it is named instead when it resolves to the very same file.
 *
 * @module
 */
import { basename, isAbsolute, join } from "../base/path.ts";

/** A Homebrew keg: `…/Cellar/<formula>/<version>/…`. */
const CELLAR = /\/Cellar\/[^/]+\/[^/]+\//;

/** What {@linkcode visibleExecPath} reads of the machine (injected so tests use a fake tree). */
export interface VisibleExecPathOptions {
  /** The `PATH` the user runs programs with (`:`-separated). */
  path?: string;
  /** The resolved absolute path of `path` (symlinks followed), or `null` when it does not exist. */
  realPath?: (path: string) => string | null;
}

function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * The path to write into a hook for the running executable: `execPath` itself, unless it lies in a
 * Homebrew keg and a folder on `PATH` holds a link of the same name that resolves to the same file
 * (the first such folder wins, as the shell's lookup does); a link that is itself inside a keg does
 * not count.
 *
 * @param execPath `Deno.execPath()`, absolute
 * @param options the user's `PATH` and how to resolve a path (default `Deno.realPathSync`)
 * @returns an absolute path to the same file; never throws
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const links: Record<string, string> = {
 *   "/opt/homebrew/bin/deno": "/opt/homebrew/Cellar/deno/2.1.4/bin/deno",
 *   "/opt/homebrew/Cellar/deno/2.1.4/bin/deno": "/opt/homebrew/Cellar/deno/2.1.4/bin/deno",
 * };
 * const options = { path: "/usr/bin:/opt/homebrew/bin", realPath: (p: string) => links[p] ?? null };
 * assert.equal(visibleExecPath("/opt/homebrew/Cellar/deno/2.1.4/bin/deno", options), "/opt/homebrew/bin/deno");
 * assert.equal(visibleExecPath("/usr/bin/deno", options), "/usr/bin/deno");
 * ```
 */
export function visibleExecPath(execPath: string, options: VisibleExecPathOptions = {}): string {
  if (!isAbsolute(execPath) || !CELLAR.test(execPath)) return execPath;
  const realPath = options.realPath ?? realPathOrNull;
  const target = realPath(execPath);
  if (target === null) return execPath;
  const name = basename(execPath);
  for (const dir of (options.path ?? "").split(":")) {
    if (!isAbsolute(dir)) continue; // an empty or relative entry names no fixed place
    const candidate = join(dir, name);
    if (CELLAR.test(candidate) || candidate === execPath) continue;
    if (realPath(candidate) === target) return candidate;
  }
  return execPath;
}
