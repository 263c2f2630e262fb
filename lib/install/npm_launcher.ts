/**
 * The npm-installed command (`npm/review-gate`, package.json `bin`; docs/design.md
 * "Installer"): it runs main.ts with the deno npm installed beside it and flags a plain
 * `deno run` does not have (Deno's cache inside the package, `--cached-only`), and says where it is
 * in `REVIEW_GATE_LAUNCHER`. Hooks and background jobs then start that command, not
 * `deno run … main.ts`. The variable is believed only when it resolves to the launcher shipped
 * beside this very main.ts.
 *
 * @module
 */

/** The launcher's path inside the package, relative to the folder of main.ts. */
export const LAUNCHER_FILE = "npm/review-gate";

function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * The command path to name in hooks when this process was started by the npm launcher.
 *
 * @param env the environment (`REVIEW_GATE_LAUNCHER` is read)
 * @param mainPath absolute path of the running main.ts, or `undefined` (compiled binary)
 * @param realPath resolves symlinks, `null` for a missing file (default `Deno.realPathSync`)
 * @returns the launcher's resolved path (the file inside the package, which an upgrade in place
 *   keeps): never the link it was reached by — npm's link on PATH, or a local install's
 *   `node_modules/.bin/review-gate` inside the repository, could be repointed later by whoever can
 *   write there, and hooks must run what was checked now; `undefined` when it is unset, relative,
 *   or not the launcher beside `mainPath`; never throws
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const links: Record<string, string> = {
 *   "/p/bin/review-gate": "/p/lib/node_modules/review-gate/npm/review-gate",
 *   "/p/lib/node_modules/review-gate/npm/review-gate": "/p/lib/node_modules/review-gate/npm/review-gate",
 * };
 * const real = (p: string) => links[p] ?? null;
 * const main = "/p/lib/node_modules/review-gate/main.ts";
 * assert.equal(
 *   npmLauncher({ REVIEW_GATE_LAUNCHER: "/p/bin/review-gate" }, main, real),
 *   "/p/lib/node_modules/review-gate/npm/review-gate",
 * );
 * assert.equal(npmLauncher({ REVIEW_GATE_LAUNCHER: "/tmp/evil" }, main, real), undefined);
 * ```
 */
export function npmLauncher(
  env: Record<string, string | undefined>,
  mainPath: string | undefined,
  realPath: (path: string) => string | null = realPathOrNull,
): string | undefined {
  const launcher = env.REVIEW_GATE_LAUNCHER;
  if (!launcher || !launcher.startsWith("/") || !mainPath) return undefined;
  const shipped = `${mainPath.slice(0, mainPath.lastIndexOf("/"))}/${LAUNCHER_FILE}`;
  const target = realPath(shipped);
  return target !== null && realPath(launcher) === target ? target : undefined;
}
