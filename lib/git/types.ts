/**
 * Shapes of a change collected from git: the target (what to review), the files, the bounded diff
 * and its coverage.
 *
 * @module
 */
import type { TreeView } from "../answer/types.ts";

/** What to review (docs/design.md "Change collection"). */
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
 * Why part of a change is not in the prompt:
 * - "binary": git's diff is not text and no byte-order mark says how to decode it;
 * - "undecodable": a byte-order mark promised text (UTF-16, UTF-8) the bytes do not hold;
 * - "submodule": a changed gitlink (its patch is only a `Subproject commit` line) or a submodule
 *   with uncommitted changes; the agent can read it itself;
 * - "budget": did not fit the review plan (`max_calls` prompts of `budgets.total_bytes`);
 * - "long-line": a hunk holding a line longer than one part (`budgets.file_bytes`), which is never
 *   cut mid-line nor shown in pieces;
 * - "failed": its part of a multi-call review could not run (and `on_partial` let the rest stand);
 * - "shard": another shard's part of a review split across CI runners (`--shard i/n`): this
 *   shard's run did not review it, `review-gate merge` gathers it from that shard's result;
 * - "unmerged": at `review-gate merge`, no shard's result for its part could be used (missing,
 *   foreign, duplicated, tampered).
 */
export type OmitReason =
  | "binary"
  | "undecodable"
  | "submodule"
  | "budget"
  | "long-line"
  | "failed"
  | "shard"
  | "unmerged";

/** A hunk's place in its file, as in its `@@ -oldStart,oldLines +newStart,newLines @@` line. */
export interface HunkRange {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** One changed file. */
export interface ChangedFile {
  /** Repo-relative path after the change (for deletions, the deleted path). Raw bytes decoded as UTF-8. */
  path: string;
  /** Previous path for renames and copies. */
  oldPath?: string;
  status: FileStatus;
  /** True when git's diff of the file is binary (even if review-gate decoded it as text). */
  binary: boolean;
  /** Added lines (0 for binary). */
  additions: number;
  /** Deleted lines (0 for binary). */
  deletions: number;
  /** Why this file's diff was left out of the prompt, when all of it was. */
  omitted?: OmitReason;
  /** The encoding the file's text was decoded from when it is not plain UTF-8 ("UTF-16LE"…). */
  encoding?: string;
  /**
   * True when the file is a symlink after the change (mode 120000): git stores, and the diff
   * shows, the path it points to, never the content there.
   */
  symlink?: boolean;
}

/**
 * A part of the change the model did not get (contract: stored in `coverage.omitted`): a whole
 * file, or only some of its hunks when `hunks` is present.
 */
export interface OmittedPart {
  path: string;
  reason: OmitReason;
  /** The omitted hunks, when the rest of the file was shown. */
  hunks?: HunkRange[];
  /** Changed lines (added + deleted) left out; 0 when unknown (binary). */
  lines: number;
  /** Bytes of diff text left out. */
  bytes: number;
  /**
   * With reason "failed" in a council review: the providers whose call for the part did not
   * answer (the others did, so the part was not reviewed by the whole council).
   */
  notBy?: string[];
  /**
   * With reason "unmerged" or "failed" at `review-gate merge`: the shard that was to answer it
   * (`shard 2 of 4`); why its answer did not count is in the run's message.
   */
  shard?: string;
}

/**
 * Why a path inside the checkout is not part of the change at all: another checkout or repository,
 * or a file review-gate's own `--output` wrote there, byte for byte (lib/git/own_outputs.ts).
 */
export type ExcludeReason = "linked-worktree" | "nested-repository" | "own-output";

/** A changed file the team's rules leave out of the review (lib/rules/filters.ts). */
export interface ExcludedFile {
  path: string;
  /** The rule, for people: `default: npm lockfile`, `exclude "src/gen/**"`, `.gitattributes -diff`. */
  rule: string;
}

/**
 * A changed file named like a default exclude but reviewed: its content is not what the name claims
 * (lib/rules/content_checks.ts), e.g. readable code called `util.min.js`.
 */
export interface NotExcludedFile {
  path: string;
  /** The default it was named for: `default: minified file`. */
  rule: string;
  /** Why its content did not earn the default, one phrase: `it does not look minified (…)`. */
  why: string;
}

/** A listed file the path filter decides on. */
export interface FilteredFile {
  /** The new path of a rename. */
  path: string;
  /**
   * The blob a default exclude's content check reads: the new side's, the old side's for a
   * deletion; absent when that side is no blob (a submodule), which never earns a default.
   */
  blob?: string;
  /** True when that side is a symlink (mode 120000): its blob is a path, which earns no default. */
  symlink?: boolean;
}

/** What the path filter decided for a listing. */
export interface RuleDecisions {
  /** The files left out, with their rules; the rest are reviewed. */
  excluded: ExcludedFile[];
  /** Files a default exclude names that are reviewed because of their content. */
  notExcluded: NotExcludedFile[];
}

/**
 * The path filter collection applies to the listed files before budgeting (lib/rules/ builds it).
 *
 * @param files every changed file, in listing order
 * @returns the decisions
 */
export type ExcludeByRule = (files: readonly FilteredFile[]) => Promise<RuleDecisions>;

/**
 * What the review saw (contract: stored with every run, in `run.json` and the `--json` envelope).
 * Lines are changed lines (added + deleted) of the diff; bytes are bytes of the diff text as git
 * printed it (UTF-8 unless a file's text is in another encoding), each counted once however often
 * a part repeats it, so reviewed plus omitted bytes never exceed the diff's own size.
 */
export interface Coverage {
  /** "complete" when every part of the change reached the model, else "partial". */
  status: "complete" | "partial";
  /** Parts whose diff is not in the prompt, with the reason, in git's path order. */
  omitted: OmittedPart[];
  /** Changed lines the model got. */
  reviewedLines: number;
  /** Changed lines left out (omitted files and hunks). */
  omittedLines: number;
  /** Bytes of diff text the model got. */
  reviewedBytes: number;
  /** Bytes of diff text left out. */
  omittedBytes: number;
  /**
   * Directories inside the checkout that are not part of the change and were left out of it:
   * linked worktrees of this repository (other checkouts, e.g. `claude -w`'s) and independent
   * repositories nested in it. Absent when none.
   */
  excluded?: { path: string; reason: ExcludeReason }[];
  /**
   * A review in several model calls: the plan's chunks, how many were reviewed (by the model or
   * from the cache) and how many could not run. Absent for a one-call review.
   */
  chunks?: { planned: number; reviewed: number; failed: number };
  /**
   * The paths the review was narrowed to (`review PATH…`), as pathspecs relative to the
   * repository's root: the rest of the change was not part of it. Absent: the whole change.
   */
  paths?: string[];
}

/** Diff budgets: bytes per piece of a file and per prompt, and prompts (model calls) per review. */
export interface Budgets {
  perFileBytes: number;
  totalBytes: number;
  /** Most chunks of the review plan (model calls); default 1. */
  maxCalls?: number;
}

/** One chunk of a review plan: the diff text one model call reviews. */
export interface ChangeChunk {
  /** Unified diff text, in path order. */
  diff: string;
  /** UTF-8 bytes of `diff`. */
  bytes: number;
  /**
   * Bytes of the change's patch, as git printed it, that this chunk shows and no other chunk
   * counts (a repeated header or context line counts once): what coverage adds up, so the
   * chunks' `covered` never sum to more than the patch.
   */
  covered: number;
  /** Changed lines in `diff`. */
  lines: number;
  /** Paths of the files the chunk shows (all or part of), in order. */
  paths: string[];
  /** sha256 hex of `diff` (UTF-8), taken once at collection (keys the part's cached verdict). */
  digest?: string;
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
  /**
   * Changed files the team's rules leave out: not in `files`, never sent, never counted against
   * the budget; listed by name as excluded by rule (not as unreviewed).
   */
  excludedByRule: ExcludedFile[];
  /** Files named like a default exclude, reviewed because their content is not what it claims. */
  notExcludedByDefault?: NotExcludedFile[];
  /**
   * The review plan's chunks: the diff text each model call shows (whole files and hunks that fit
   * the budgets), in path order; empty when nothing can be shown.
   */
  chunks: ChangeChunk[];
  /** Every chunk's diff text, in chunk order (what the model is shown across all calls), UTF-8. */
  diff: string;
  coverage: Coverage;
  /** sha256 hex of what was reviewed: the full diff bytes plus the target kind. Same change → same id. */
  fingerprint: string;
  /**
   * sha256 hex of the review plan: the diff text shown and the parts omitted. Same change under
   * other budgets → another plan (and another cached verdict).
   */
  planId: string;
  /** The reviewed tree, for the decoder's coherence checks. */
  tree: TreeView;
}
