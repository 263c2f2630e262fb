/**
 * The state dir: `<git-common-dir>/review-gate/` (docs/design.md "Store"), shared by all
 * worktrees of a repository and never committed. Holds `runs/`, `records.jsonl`, `cache/` and
 * `sessions/`.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { guardStore } from "./_guard.ts";

/** Sub-directories of the state dir. */
export const STATE_SUBDIRS = ["runs", "cache", "sessions"] as const;

/**
 * Path of the state dir for a git common dir (`git rev-parse --git-common-dir`, made absolute by
 * the caller).
 *
 * @param commonDir absolute git common dir
 * @returns `<commonDir>/review-gate`
 */
export function stateDir(commonDir: string): string {
  return join(commonDir, "review-gate");
}

/**
 * Create the state dir and its sub-directories (mode 0700) when missing.
 *
 * @param commonDir absolute git common dir
 * @returns the state dir path
 * @throws {import("../base/errors.ts").StoreError} when a directory cannot be created (e.g. a
 *   read-only `.git`)
 */
export async function ensureStateDir(commonDir: string): Promise<string> {
  const state = stateDir(commonDir);
  await guardStore(state, async () => {
    for (const sub of STATE_SUBDIRS) {
      await Deno.mkdir(join(state, sub), { recursive: true, mode: 0o700 });
    }
  }, "the state directory");
  return state;
}
