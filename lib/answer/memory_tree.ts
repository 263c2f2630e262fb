/**
 * An in-memory {@link TreeView} for tests: a repository root, a map of repo-relative paths to line
 * counts, the paths the change deletes and the lines it changed.
 *
 * @module
 */

import type { LineRange, TreeView } from "./types.ts";

/**
 * Build a TreeView from plain data.
 *
 * @param root absolute repository root, no trailing slash (e.g. "/repo")
 * @param files repo-relative path → line count (lines)
 * @param deleted repo-relative paths the change deletes (not in `files`)
 * @param changed repo-relative path → the lines the change added or edited; without it every
 *   `changedLines()` is `null` (unknown), with it a path not listed has `[]`
 * @returns a TreeView whose `lineCount()` answers from `files` and `null` otherwise; `text()` of a
 *   file is that many lines `line 1` … `line N`
 * @example
 * ```ts
 * import { memoryTree } from "./memory_tree.ts";
 * const tree = memoryTree("/repo", { "src/a.ts": 40 }, ["old.ts"]);
 * await tree.lineCount("src/a.ts"); // 40
 * tree.isDeleted("old.ts"); // true
 * ```
 */
export function memoryTree(
  root: string,
  files: Readonly<Record<string, number>>,
  deleted: readonly string[] = [],
  changed?: Readonly<Record<string, readonly LineRange[] | null>>,
): TreeView {
  const counts = new Map(Object.entries(files));
  const gone = new Set(deleted);
  const lines = changed ? new Map(Object.entries(changed)) : undefined;
  return {
    root,
    lineCount: (path: string) => Promise.resolve(counts.get(path) ?? null),
    isDeleted: (path: string) => gone.has(path),
    changedLines: (path: string) => !lines ? null : lines.has(path) ? lines.get(path)! : [],
    text: (path: string) => {
      const n = counts.get(path);
      return Promise.resolve(
        n === undefined ? null : Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join(""),
      );
    },
  };
}
