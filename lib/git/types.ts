/**
 * Shapes of a change collected from git: the target (what to review), the files, the bounded diff
 * and its coverage.
 *
 * @module
 */
import type { TreeView } from "../answer/types.ts";

/** What to review (DESIGN.md "Change collection"). */
export type Target =
  | { kind: "worktree" } // HEAD (or the empty tree) → worktree incl. untracked
  | { kind: "staged" } // HEAD → index
  | { kind: "base"; ref: string } // merge-base(ref, HEAD) → HEAD
  | { kind: "range"; from: string; to: string; mergeBase?: boolean } // A..B; mergeBase: A...B (merge-base(A, B) → B)
  | { kind: "commit"; sha: string } // parent(s) → commit
  | { kind: "tree"; from: string; to: string; label: string }; // two tree-ish ids (push ranges, Stop-gate baseline → current)

/** How a file changed. */
export type FileStatus = "added" | "modified" | "deleted" | "renamed" | "copied" | "typechange";

/**
 * Why a file's diff is not in the prompt. "submodule": a changed gitlink (its diff is only a
 * `Subproject commit` line) or a submodule with uncommitted changes; the agent reads it itself.
 */
export type OmitReason = "binary" | "file-budget" | "total-budget" | "submodule";

/** One changed file. */
export interface ChangedFile {
  /** Repo-relative path after the change (for deletions, the deleted path). Raw bytes decoded as UTF-8. */
  path: string;
  /** Previous path for renames and copies. */
  oldPath?: string;
  status: FileStatus;
  binary: boolean;
  /** Added lines (0 for binary). */
  additions: number;
  /** Deleted lines (0 for binary). */
  deletions: number;
  /** Why this file's diff was left out of the prompt, when it was. */
  omitted?: OmitReason;
}

/** What the review saw (contract: stored with every run). */
export interface Coverage {
  status: "complete" | "partial";
  /** Files whose diff is not in the prompt, with the reason. */
  omitted: { path: string; reason: OmitReason }[];
  /** Bytes of diff text in the prompt. */
  includedBytes: number;
  /** Bytes of diff text the full change has. */
  totalBytes: number;
}

/** Per-file and total diff budgets, in bytes. */
export interface Budgets {
  perFileBytes: number;
  totalBytes: number;
}

/** A change ready to be reviewed. */
export interface Change {
  target: Target;
  /** Human label: "working tree", "staged changes", "main...HEAD", "a1b2c3d..e4f5a6b". */
  label: string;
  /** Absolute repository root (worktree top level). */
  root: string;
  /** Resolved endpoints as tree-ish object ids (base side may be the empty tree). */
  from: string;
  to: string | "worktree" | "index";
  /** Tree id of the reviewed side; for "worktree"/"index" the snapshot tree written through a temporary index. */
  toTree?: string;
  files: ChangedFile[];
  /** Unified diff text of the included files only, UTF-8. */
  diff: string;
  coverage: Coverage;
  /** sha256 hex of what was reviewed: the full diff bytes plus the target kind. Same change → same id. */
  fingerprint: string;
  /** The reviewed tree, for the decoder's coherence checks. */
  tree: TreeView;
}
