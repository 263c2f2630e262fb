/**
 * {@linkcode TreeView}s of the reviewed tree for the decoder's coherence checks: the worktree read
 * from disk, or a git tree read lazily: on the first lookup one `git ls-tree -r -z <tree>` learns
 * every blob's path and id (so a path absent from the tree costs nothing, however many an answer
 * names), then `git cat-file blob <id>` counts the lines of each present path asked for (one call
 * per distinct present path, cached; the decoder caps an answer at 100 findings). `text` reads a
 * file's content the same way (uncached), for finding fingerprints.
 *
 * @module
 */
import type { TreeView } from "../answer/types.ts";
import type { Runner } from "../exec/exec.ts";
import { type PackedLineRanges, unpackLineRanges } from "./changed_lines.ts";
import { countTextLines } from "./text_encoding.ts";
import { git, runGit } from "./git.ts";

/** Options shared by both views. */
export interface TreeViewOptions {
  /** Repo-relative paths the change deletes (incl. the old side of renames). */
  deleted: ReadonlySet<string>;
  /**
   * The change's changed line ranges per path, packed (lib/git/changed_lines.ts
   * `PackedLineRanges`: sorted, merged start/end pairs; `null`: unknown); a path not in it has
   * `[]`. Without it (no change at hand, as for `review-gate decode`) every `changedLines()` is
   * `null`.
   */
  changed?: ReadonlyMap<string, PackedLineRanges | null>;
}

/**
 * View of the worktree on disk under `root`. `lineCount` is `null` for a path that is absent, a
 * directory, absolute, escapes the root with "..", or resolves (through symlinks) outside the root.
 */
export function worktreeView(root: string, options: TreeViewOptions): TreeView {
  return cachedView(root, {
    ...options,
    count: async (path) => {
      const bytes = await diskBytes(root, path);
      return bytes === null ? null : countTextLines(bytes);
    },
    read: (path) => diskBytes(root, path),
  });
}

/**
 * View of a git tree: `tree` is any tree-ish id. The first lookup lists the tree once
 * (`git ls-tree -r -z`); `lineCount` is `null` at once for a path that is not a blob in it, else
 * one `git cat-file blob <id>` per distinct path (cached).
 *
 * @throws {import("../base/errors.ts").GitError} from `lineCount` when the tree cannot be listed
 */
export function gitTreeView(
  runner: Runner,
  root: string,
  options: TreeViewOptions & { tree: string },
): TreeView {
  let blobs: Promise<Map<string, string>> | undefined;
  const read = async (path: string) => {
    blobs ??= listBlobs(runner, root, options.tree);
    const id = (await blobs).get(path);
    if (id === undefined) return null;
    const result = await runGit(runner, root, ["cat-file", "blob", id]);
    return result.code === 0 ? result.stdout : null;
  };
  const count = async (path: string) => {
    const bytes = await read(path);
    return bytes === null ? null : countTextLines(bytes);
  };
  return cachedView(root, { ...options, count, read });
}

/**
 * A view whose `lineCount` is `null` for a path that is not repo-relative, else `count(path)`,
 * cached per path (a failed count stays failed).
 */
function cachedView(
  root: string,
  options: TreeViewOptions & {
    count: (path: string) => Promise<number | null>;
    read: (path: string) => Promise<Uint8Array | null>;
  },
): TreeView {
  const cache = new Map<string, Promise<number | null>>();
  const { changed } = options;
  return {
    root,
    isDeleted: (path) => options.deleted.has(path),
    changedLines(path) {
      if (!changed) return null;
      const packed = changed.get(path);
      return packed === undefined ? [] : packed === null ? null : unpackLineRanges(packed);
    },
    lineCount(path) {
      if (!isRepoRelative(path)) return Promise.resolve(null);
      let hit = cache.get(path);
      if (!hit) cache.set(path, hit = options.count(path));
      return hit;
    },
    async text(path) {
      if (!isRepoRelative(path)) return null;
      const bytes = await options.read(path);
      return bytes === null ? null : new TextDecoder().decode(bytes);
    },
  };
}

/** Path → blob id of every blob in `tree` (submodule gitlinks and trees left out). */
async function listBlobs(runner: Runner, root: string, tree: string): Promise<Map<string, string>> {
  const out = new TextDecoder().decode(await git(runner, root, ["ls-tree", "-r", "-z", tree]));
  const blobs = new Map<string, string>();
  for (const entry of out.split("\0")) {
    // "<mode> SP <type> SP <object> TAB <path>" (git-ls-tree(1) "OUTPUT FORMAT")
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [, type, id] = entry.slice(0, tab).split(" ");
    if (type === "blob") blobs.set(entry.slice(tab + 1), id);
  }
  return blobs;
}

function isRepoRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") &&
    !path.split("/").some((s) => s === ".." || s === "");
}

/** The bytes of a regular file under `root` (through symlinks that stay inside it), else null. */
async function diskBytes(root: string, path: string): Promise<Uint8Array | null> {
  const full = `${root}/${path}`;
  try {
    const real = await Deno.realPath(full);
    const realRoot = await Deno.realPath(root);
    if (!real.startsWith(`${realRoot}/`)) return null;
    const info = await Deno.stat(real);
    if (!info.isFile) return null;
    return await Deno.readFile(real);
  } catch {
    return null;
  }
}
