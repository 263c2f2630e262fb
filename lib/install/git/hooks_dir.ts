/**
 * Where git runs hooks from, and what that directory means for the installer (docs/design.md
 * "Installer"): `git rev-parse --path-format=absolute --git-path hooks` honours `core.hooksPath`
 * (linked worktrees share the main repository's hooks, submodules have their own); a husky layout
 * (`.husky/_` or `.husky`) is recognised; a hooks path that is not a directory
 * (`core.hooksPath=/dev/null`) is refused for install; a hooks directory inside the worktree earns a
 * note, since what is written there holds a machine-specific path.
 *
 * @module
 */
import { basename, dirname } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import { UsageError } from "../../base/errors.ts";
import { gitText } from "../../git/git.ts";
import { statOrNull } from "../file_actions.ts";

/**
 * Ask git where it runs hooks from.
 *
 * @returns absolute hooks directory (may not exist yet)
 * @throws {GitError} when `cwd` is not inside a git repository
 */
export function resolveHooksDir(runner: Runner, cwd: string): Promise<string> {
  return gitText(runner, cwd, ["rev-parse", "--path-format=absolute", "--git-path", "hooks"], {
    keepHooksPath: true,
  });
}

/**
 * Ask git where it runs hooks from and refuse a path that exists but is not a directory.
 *
 * @returns absolute hooks directory (may not exist yet)
 * @throws {GitError} when `cwd` is not inside a git repository
 * @throws {UsageError} when the hooks path is not a directory (`core.hooksPath=/dev/null`), with
 *   the `git config` commands that fix it
 */
export async function ensureInstallableHooksDir(runner: Runner, cwd: string): Promise<string> {
  const hooksDir = await resolveHooksDir(runner, cwd);
  if (await notADirectory(hooksDir)) {
    throw new UsageError(
      `Cannot install the pre-push hook: the git hooks path "${hooksDir}" is not a directory; unset core.hooksPath ("git config --unset core.hooksPath") or point it at a directory ("git config core.hooksPath .githooks"), then run install again`,
    );
  }
  return hooksDir;
}

/**
 * The husky directory when git's hooks dir is husky's: `<x>/.husky/_` (husky 9) → `<x>/.husky`;
 * `<x>/.husky` (husky 5–8) → itself; otherwise `null`.
 */
export function huskyDirOf(hooksDir: string): string | null {
  if (basename(hooksDir) === "_" && basename(dirname(hooksDir)) === ".husky") {
    return dirname(hooksDir);
  }
  if (basename(hooksDir) === ".husky") return hooksDir;
  return null;
}

/**
 * True when `path` exists (following symlinks) and is not a directory (`core.hooksPath=/dev/null`).
 *
 * @param path an absolute hooks directory
 * @returns false when it is a directory, is missing or cannot be inspected
 */
export async function notADirectory(path: string): Promise<boolean> {
  const info = await statOrNull(path).catch(() => null);
  return info !== null && !info.isDirectory;
}

/**
 * The note for a hooks directory inside the worktree of `cwd` but not inside its git dir: what
 * install writes there (a stub, or the line in `.husky/pre-push` when `husky`) holds a
 * machine-specific path, so it should not be committed.
 *
 * @param hooksDir absolute hooks directory
 * @param context the runner for git, the user's cwd, and whether the layout is husky's
 * @returns one sentence, or `null` when the directory is not in the worktree (or it is bare);
 *   never throws for a git failure
 */
export async function insideWorktreeNote(
  hooksDir: string,
  context: { runner: Runner; cwd: string; husky: boolean },
): Promise<string | null> {
  if (!(await insideWorktree(context.runner, context.cwd, hooksDir))) return null;
  return `The hooks directory "${hooksDir}" is inside the worktree: the ${
    context.husky ? "line in .husky/pre-push" : "stub"
  } holds a machine-specific path to review-gate, so do not commit it (or use the compiled binary, installed at the same path on every machine).`;
}

/** True when `dir` is inside the worktree of `cwd` but not inside its git dir (false when bare). */
async function insideWorktree(runner: Runner, cwd: string, dir: string): Promise<boolean> {
  const ask = (args: string[]) => gitText(runner, cwd, args).catch(() => "");
  const top = await ask(["rev-parse", "--show-toplevel"]);
  if (top === "" || !isWithin(dir, top)) return false;
  const gitDirs = await ask([
    "rev-parse",
    "--path-format=absolute",
    "--git-dir",
    "--git-common-dir",
  ]);
  return !gitDirs.split("\n").some((d) => d !== "" && isWithin(dir, d));
}

function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : dir + "/");
}
