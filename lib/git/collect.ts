/**
 * Collect a {@linkcode Change} from git: resolve the target, turn live states into trees through a
 * temporary index (never the user's), list files with `diff-tree -z --raw --numstat` and take the
 * patch with one `diff-tree -p`, split per file and cut to the budgets.
 *
 * Git calls for a worktree target: `add -A` + `write-tree` (temp index), then the listing and the
 * patch in parallel: 4 in all (plus `rev-parse` in {@linkcode resolveRepo}).
 *
 * The fingerprint is the sha256 hex of the target kind, a NUL, and the raw `-z` listing (modes,
 * blob ids and paths of both sides of every changed file). It changes exactly when a changed file's
 * content, mode or path changes, binary files included, and does not depend on the budgets.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Runner } from "../exec.ts";
import { planBudget } from "./budget.ts";
import { parseRawNumstat, splitPatch } from "./diff_parse.ts";
import { git, gitFailure, runGit } from "./git.ts";
import { snapshotIndexTree, snapshotWorktreeTree } from "./live_tree.ts";
import type { Repo } from "./repo.ts";
import { resolveTarget } from "./target.ts";
import { gitTreeView, worktreeView } from "./tree_view.ts";
import type { Budgets, Change, ChangedFile, Target } from "./types.ts";

/** Options of {@linkcode collectChange}. */
export interface CollectOptions {
  repo: Repo;
  target: Target;
  /** Byte limits on the diff text. */
  budgets: Budgets;
}

/** Patch bytes read at most (64 MiB); files past it are omitted as "total-budget". */
const PATCH_CAP = 64 * 1024 * 1024;

const PATCH_ARGS = [
  "-p",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--unified=3",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * Collect the change a target describes.
 *
 * @param runner the subprocess seam
 * @param options repository, target and budgets (bytes)
 * @returns the change: files in git's path order, the included patches as UTF-8 text (CRLF kept),
 *   coverage naming every omitted file, fingerprint, and a view of the reviewed tree (the worktree
 *   on disk for "worktree", else the git tree)
 * @throws {import("../errors.ts").UsageError} for an unknown ref or revision
 * @throws {import("../errors.ts").GitError} when git fails
 */
export async function collectChange(runner: Runner, options: CollectOptions): Promise<Change> {
  const { repo, target, budgets } = options;
  const resolved = await resolveTarget(runner, repo, target);
  const toTree = resolved.to === "worktree"
    ? await snapshotWorktreeTree(runner, repo)
    : resolved.to === "index"
    ? await snapshotIndexTree(runner, repo)
    : resolved.to;
  const range = [resolved.from, toTree];
  const patchArgs = ["diff-tree", "-r", "-M", ...PATCH_ARGS, ...range];
  const [raw, patch] = await Promise.all([
    git(runner, repo.root, ["diff-tree", "-r", "-z", "-M", "--raw", "--numstat", ...range]),
    runGit(runner, repo.root, patchArgs, { maxOutputBytes: PATCH_CAP }),
  ]);
  if (patch.code !== 0) throw gitFailure(patchArgs, patch);
  const entries = parseRawNumstat(raw);
  let chunks = splitPatch(patch.stdout);
  // Past PATCH_CAP the output was cut: the last section is incomplete and later ones are missing.
  if (patch.truncated) chunks = chunks.slice(0, -1);
  if (patch.truncated ? chunks.length > entries.length : chunks.length !== entries.length) {
    throw new Error(`Patch has ${chunks.length} file sections for ${entries.length} changed files`);
  }
  const plan = planBudget(
    entries.map((e, i) => ({ path: e.path, binary: e.binary, size: chunks[i]?.length ?? 0 })),
    budgets,
  );
  entries.forEach((e, i) => {
    if (i >= chunks.length && !plan.reasons[i]) {
      plan.reasons[i] = "total-budget";
      plan.coverage.omitted.push({ path: e.path, reason: "total-budget" });
      plan.coverage.status = "partial";
    }
  });
  const decoder = new TextDecoder();
  const files: ChangedFile[] = entries.map((e, i) => {
    const reason = plan.reasons[i];
    return reason ? { ...e, omitted: reason } : { ...e };
  });
  const diff = chunks.filter((_, i) => !plan.reasons[i]).map((c) => decoder.decode(c)).join("");
  const deleted = new Set(
    entries.flatMap((e) =>
      e.status === "deleted" ? [e.path] : e.status === "renamed" && e.oldPath ? [e.oldPath] : []
    ),
  );
  const tree = resolved.to === "worktree"
    ? worktreeView(repo.root, { deleted })
    : gitTreeView(runner, repo.root, { deleted, tree: toTree });
  return {
    target,
    label: resolved.label,
    root: repo.root,
    from: resolved.from,
    to: resolved.to,
    toTree,
    files,
    diff,
    coverage: plan.coverage,
    fingerprint: fingerprintOf(target.kind, raw),
    tree,
  };
}

/** sha256 hex of `kind`, a NUL byte, and the raw listing bytes. */
export function fingerprintOf(kind: string, raw: Uint8Array): string {
  return createHash("sha256").update(`${kind}\0`).update(raw).digest("hex");
}
