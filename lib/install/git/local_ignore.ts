/**
 * Keeping a user's own files out of git's view through the repository's `info/exclude` (never the
 * committed `.gitignore`): `install --claude` writes the personal `.claude/settings.local.json` (and
 * its backup beside it), which Claude Code itself keeps ignored when it creates that file. Left
 * untracked and unignored, both would be part of every working-tree review — sent to the model with
 * the user's local paths — and listed as changes forever. Uninstall takes out exactly the lines
 * install added — our header line and the ignore lines after it naming those files — when they are
 * still there unchanged, so the file reads as it did before install.
 *
 * @module
 */
import { dirname, relative } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import { git, gitText } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import { type FileAction, lstatOrNull, readTextOrNull } from "../file_actions.ts";

const HEADER = "# review-gate: personal Claude Code settings (install --claude)";

/** Repository-relative, `/`-separated paths of `paths` inside the worktree. */
function relativePaths(repo: Repo, paths: readonly string[]): string[] {
  return paths.map((p) => relative(repo.root, p).split("\\").join("/"))
    .filter((rel) => rel !== "" && !rel.startsWith(".."));
}

function excludePath(runner: Runner, repo: Repo): Promise<string> {
  return gitText(runner, repo.root, [
    "rev-parse",
    "--path-format=absolute",
    "--git-path",
    "info/exclude",
  ]);
}

/**
 * `info/exclude` text without the lines {@linkcode ignoreLocalFiles} added (pure): every block of
 * our header line followed by one or more lines `/<rel>` for `rels`, each taken out whole with its
 * newline. A header the user edited, or a block whose lines name other paths, is left alone.
 *
 * @param text the file's text
 * @param rels repository-relative paths install may have ignored
 * @returns the text without our blocks (the same string when there are none)
 */
export function withoutOurLines(text: string, rels: readonly string[]): string {
  const ours = new Set(rels.map((rel) => `/${rel}`));
  const lines = text.split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let end = i + 1;
    if (lines[i] === HEADER) { while (end < lines.length && ours.has(lines[end])) end++; }
    // a block ends with a newline: the last split element (after the final "\n") is never ours
    if (lines[i] === HEADER && end > i + 1 && end < lines.length) i = end - 1;
    else kept.push(lines[i]);
  }
  return kept.join("\n");
}

/**
 * Plan taking out the `info/exclude` lines {@linkcode ignoreLocalFiles} added for `paths`.
 *
 * @param runner the subprocess seam (git)
 * @param repo the repository
 * @param paths absolute paths install kept out
 * @returns a write of `info/exclude` restoring its earlier text, or none when it holds no lines of
 *   ours (missing, edited by the user, never installed)
 * @throws {import("../../base/errors.ts").GitError} when git cannot locate `info/exclude`
 */
export async function unignoreLocalFiles(
  runner: Runner,
  repo: Repo,
  paths: readonly string[],
): Promise<FileAction[]> {
  const rels = relativePaths(repo, paths);
  if (rels.length === 0) return [];
  const path = await excludePath(runner, repo);
  const before = await readTextOrNull(path);
  if (typeof before !== "string") return [];
  const text = withoutOurLines(before, rels);
  if (text === before) return [];
  return [{
    op: "write",
    path,
    text,
    mode: 0o644,
    before,
    why: "take out the lines install added to keep the personal settings file out of git",
  }];
}

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
  const rels = relativePaths(repo, paths);
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
  const path = await excludePath(runner, repo);
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
