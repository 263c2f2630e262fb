/**
 * What the Codex review child's tools may read (docs/providers.md "Codex argv", README "Security
 * model"): the permission profile is **deny by default**. It names only
 * - `:minimal`, codex's own set of system paths a shell needs to run (on Linux `/bin`, `/sbin`,
 *   `/usr`, `/etc`, `/lib`, `/lib64`, `/nix/store`, `/run/current-system/sw`; on macOS the
 *   system folders Seatbelt's platform defaults name);
 * - the private read-only copy of the reviewed tree (the child's working directory);
 * - the folder of codex's own native program: on Linux codex runs every command through its
 *   bundled bubblewrap, which starts codex's own binary again inside the sandbox (seen with 0.171.0:
 *   without it every command fails with `bwrap: execvp …/bin/codex: No such file or directory`).
 *   For an npm install that is `vendor/<target triple>/` of the platform package (the binary, its
 *   `codex-path/rg` and `codex-resources/bwrap`), found from the `codex.js` launcher as the
 *   launcher finds it; for a native program, its own folder — unless that folder is or holds HOME,
 *   the repository, CODEX_HOME or TMPDIR ({@linkcode programRootsOutside}).
 * Codex adds the folder of its helper links (`$CODEX_HOME/tmp/arg0…`) itself. Nothing else — not
 * HOME, not TMPDIR, not the repository, not the private CODEX_HOME, not another provider's settings
 * — is readable, wherever those lie (TMPDIR under HOME included): only paths named here are mounted
 * into the sandbox.
 *
 * @module
 */
import { basename, dirname, join } from "../../base/path.ts";

/** A real path, or null when it does not resolve. */
async function real(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch {
    return null;
  }
}

/** Names in `dir` (none when it cannot be read). */
async function names(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  } catch {
    return [];
  }
}

/** `<pkg>/vendor/<triple>` folders holding `bin/codex` (real paths). */
async function vendorRoots(pkg: string): Promise<string[]> {
  const found: string[] = [];
  for (const triple of await names(join(pkg, "vendor"))) {
    const exe = await real(join(pkg, "vendor", triple, "bin", "codex"));
    if (exe) found.push(dirname(dirname(exe)));
  }
  return found;
}

/**
 * The folders that hold the native codex program `program` runs (real paths; pure of any write).
 * A `.js` program is npm's launcher (`@openai/codex/bin/codex.js`): its package's own `vendor/`,
 * then the platform packages (`codex-<platform>`) nested under it or beside it in its scope folder,
 * as Node's resolution from the launcher finds them. Any other program is native: its folder.
 *
 * @param program the real path of the codex program review-gate starts
 * @returns the folders to make readable; empty when none is found (every command then fails: a
 *   stricter review, never a looser one)
 */
export async function codexProgramRoots(program: string): Promise<string[]> {
  if (!program.endsWith(".js")) return [dirname(program)];
  const pkg = dirname(dirname(program));
  const scope = dirname(pkg);
  const candidates = [
    pkg,
    ...(await names(join(pkg, "node_modules", basename(scope)))).map((n) =>
      join(pkg, "node_modules", basename(scope), n)
    ),
    ...(await names(scope)).filter((n) => n.startsWith(`${basename(pkg)}-`)).map((n) =>
      join(scope, n)
    ),
  ];
  const roots: string[] = [];
  for (const dir of candidates) roots.push(...await vendorRoots(dir));
  return [...new Set(roots)];
}

/**
 * The program folders that hold none of what the reviewer must not read: a folder that is, or
 * holds, one of `kept` (HOME, the repository, the user's CODEX_HOME, TMPDIR, the call's private
 * folder) is dropped — a native codex put straight in HOME or the repository would otherwise make
 * all of it readable. Dropping a folder the sandbox needs makes every command fail: a stricter
 * review, never a looser one.
 *
 * @param roots from {@linkcode codexProgramRoots} (real, absolute paths)
 * @param kept absolute paths kept out of reach (unset ones skipped)
 * @returns `roots` without those that are or contain a kept path
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   programRootsOutside(["/home/u", "/opt/codex/bin"], ["/home/u/repo", undefined]),
 *   ["/opt/codex/bin"],
 * );
 * ```
 */
export function programRootsOutside(
  roots: readonly string[],
  kept: readonly (string | undefined)[],
): string[] {
  const inside = (path: string, root: string) =>
    path === root || root === "/" || path.startsWith(`${root}/`);
  return roots.filter((root) => !kept.some((path) => path !== undefined && inside(path, root)));
}

/**
 * The permission profile's filesystem table (a TOML inline table for `-c
 * permissions.review.filesystem=…`): `:minimal`, the copy and the program's folders readable,
 * nothing else named, so nothing else is mounted.
 *
 * @param readable the copy and the program folders (absolute paths)
 */
export function readOnlyFilesystem(readable: readonly string[]): string {
  const entries = [":minimal", ...new Set(readable)].map((p) => `${JSON.stringify(p)}="read"`);
  return `{${entries.join(",")}}`;
}
