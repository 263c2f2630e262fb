/**
 * Keeping a user's own files out of git's view through the repository's `info/exclude` (never the
 * committed `.gitignore`): `install --claude` writes the personal `.claude/settings.local.json` (and
 * its backup beside it), which Claude Code itself keeps ignored when it creates that file. Left
 * untracked and unignored, both would be part of every working-tree review — sent to the model with
 * the user's local paths — and listed as changes forever.
 *
 * @module
 */
import { dirname, relative } from "node:path";
import type { Runner } from "../../exec/exec.ts";
import { git, gitText } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import { type FileAction, lstatOrNull, readTextOrNull } from "../file_actions.ts";

const HEADER = "# review-gate: personal Claude Code settings (install --claude)";

/**
 * Plan the lines that make git ignore `paths` (absolute, inside the worktree) that it does not
 * ignore yet.
 *
 * @param runner the subprocess seam (git)
 * @param repo the repository
 * @param paths absolute paths of the files to keep out
 * @returns a write of `info/exclude` (after a mkdir of `info/` when missing), or none when git
 *   ignores them all already (or they are outside the worktree)
 * @throws {import("../../base/errors.ts").GitError} when git cannot locate `info/exclude`
 */
export async function ignoreLocalFiles(
  runner: Runner,
  repo: Repo,
  paths: readonly string[],
): Promise<FileAction[]> {
  const rels = paths.map((p) => relative(repo.root, p).split("\\").join("/"))
    .filter((rel) => rel !== "" && !rel.startsWith(".."));
  if (rels.length === 0) return [];
  const ignored = new Set(
    new TextDecoder().decode(
      await git(runner, repo.root, ["check-ignore", "--no-index", "--stdin", "-z"], {
        stdin: rels.join("\0") + "\0",
        okCodes: [1],
      }),
    ).split("\0").filter(Boolean),
  );
  const missing = rels.filter((rel) => !ignored.has(rel));
  if (missing.length === 0) return [];
  const path = await gitText(runner, repo.root, [
    "rev-parse",
    "--path-format=absolute",
    "--git-path",
    "info/exclude",
  ]);
  const before = await readTextOrNull(path);
  const current = typeof before === "string" ? before : "";
  const lines = [HEADER, ...missing.map((rel) => `/${rel}`)].join("\n");
  const sep = current === "" || current.endsWith("\n") ? "" : "\n";
  const write: FileAction = {
    op: "write",
    path,
    text: `${current}${sep}${lines}\n`,
    mode: 0o644,
    before: typeof before === "string" ? before : null,
    why: "keep your own settings file out of git and out of every review",
  };
  return (await lstatOrNull(dirname(path)))
    ? [write]
    : [{ op: "mkdir", path: dirname(path) }, write];
}
