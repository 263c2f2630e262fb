/**
 * {@linkcode TreeView}s of the reviewed tree for the decoder's coherence checks: the worktree read
 * from disk, or a git tree read lazily with `git cat-file blob <tree>:<path>` (one call per path,
 * cached).
 *
 * @module
 */
import type { TreeView } from "../answer/types.ts";
import type { Runner } from "../exec.ts";
import { countLines } from "./diff_parse.ts";
import { runGit } from "./git.ts";

/** Options shared by both views. */
export interface TreeViewOptions {
  /** Repo-relative paths the change deletes (incl. the old side of renames). */
  deleted: ReadonlySet<string>;
}

/**
 * View of the worktree on disk under `root`. `lineCount` is `null` for a path that is absent, a
 * directory, absolute, escapes the root with "..", or resolves (through symlinks) outside the root.
 */
export function worktreeView(root: string, options: TreeViewOptions): TreeView {
  const cache = new Map<string, Promise<number | null>>();
  return {
    root,
    isDeleted: (path) => options.deleted.has(path),
    lineCount(path) {
      if (!isRepoRelative(path)) return Promise.resolve(null);
      let hit = cache.get(path);
      if (!hit) cache.set(path, hit = diskLineCount(root, path));
      return hit;
    },
  };
}

/**
 * View of a git tree: `tree` is any tree-ish id; lookups run `git cat-file blob` in `root`.
 * `lineCount` is `null` for a path that is not a blob in the tree.
 */
export function gitTreeView(
  runner: Runner,
  root: string,
  options: TreeViewOptions & { tree: string },
): TreeView {
  const cache = new Map<string, Promise<number | null>>();
  const lookup = async (path: string) => {
    const result = await runGit(runner, root, ["cat-file", "blob", `${options.tree}:${path}`]);
    return result.code === 0 ? countLines(result.stdout) : null;
  };
  return {
    root,
    isDeleted: (path) => options.deleted.has(path),
    lineCount(path) {
      if (!isRepoRelative(path)) return Promise.resolve(null);
      let hit = cache.get(path);
      if (!hit) cache.set(path, hit = lookup(path));
      return hit;
    },
  };
}

function isRepoRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") &&
    !path.split("/").some((s) => s === ".." || s === "");
}

async function diskLineCount(root: string, path: string): Promise<number | null> {
  const full = `${root}/${path}`;
  try {
    const real = await Deno.realPath(full);
    const realRoot = await Deno.realPath(root);
    if (!real.startsWith(`${realRoot}/`)) return null;
    const info = await Deno.stat(real);
    if (!info.isFile) return null;
    return countLines(await Deno.readFile(real));
  } catch {
    return null;
  }
}
