/**
 * Words for coverage (pure): how much of a change the model got, in changed lines and bytes, and
 * what it did not get — whole files, or hunks by their line ranges — with the reason. Shared by
 * the terminal, `review.md`, the prompt and the gates, so every output says it the same way.
 *
 * @module
 */
import { formatCount } from "../base/text.ts";
import type { ChangeChunk, Coverage, HunkRange, OmitReason, OmittedPart } from "./types.ts";

/** Why a part was not shown, in a few words. */
export const OMIT_REASON_TEXT: Readonly<Record<OmitReason, string>> = {
  binary: "binary",
  undecodable: "not decodable as text",
  submodule: "submodule",
  budget: "over the size limit, max_calls × budgets.total_bytes",
  "long-line": "a line longer than one part, budgets.file_bytes",
  failed: "its part's review could not run",
  shard: "another shard's part (review-gate merge gathers it)",
  unmerged: "no usable shard result",
};

/**
 * A hunk's place for a reader: `lines 120-171` of the file after the change, `line 5`, or
 * `deleted lines 40-45` (of the file before it) when the hunk only deletes.
 */
export function formatHunk(hunk: HunkRange): string {
  if (hunk.newLines > 0) return span("line", hunk.newStart, hunk.newLines);
  return `deleted ${span("line", hunk.oldStart, hunk.oldLines)}`;
}

function span(word: string, start: number, count: number): string {
  return count <= 1 ? `${word} ${start}` : `${word}s ${start}-${start + count - 1}`;
}

/** Bytes for a reader: `812 B`, `45.1 KB`, `3.2 MB` (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * How much was reviewed: `reviewed 1,234 of 2,000 changed lines (45.1 KB of 80.2 KB of diff)`,
 * naming any whole file left out that has no lines to count (binary, undecodable, submodule).
 *
 * @param coverage a run's coverage (or a plan's)
 * @param verb the leading verb: `reviewed` for a run, `would review` for a plan nobody reviewed
 */
export function reviewedAmount(coverage: Coverage, verb = "reviewed"): string {
  const lines = coverage.reviewedLines + coverage.omittedLines;
  const bytes = coverage.reviewedBytes + coverage.omittedBytes;
  const parts = coverage.chunks
    ? ` in ${coverage.chunks.reviewed} of ${coverage.chunks.planned} parts`
    : "";
  return `${verb} ${formatCount(coverage.reviewedLines)} of ${formatCount(lines)} changed lines (${
    formatBytes(coverage.reviewedBytes)
  } of ${formatBytes(bytes)} of diff)${parts}${unlinedFiles(coverage.omitted)}`;
}

/** Most files {@linkcode unlinedFiles} names. */
const NAMED_UNLINED = 3;

/**
 * Reasons a whole part of the plan was not reviewed: its lines are counted once, on its last file
 * (lib/review/parts.ts), so its other files' `lines: 0` is no "not shown at all".
 */
const PART_REASONS: ReadonlySet<OmitReason> = new Set(["failed", "shard", "unmerged"]);

/**
 * The whole files left out that have no countable lines (binary, undecodable, submodules), which
 * a line count alone would hide: `; not shown at all: 1 binary file ("logo.png")`. Empty when none.
 * The files of a part not reviewed are not among them: their lines are counted.
 */
function unlinedFiles(omitted: readonly OmittedPart[]): string {
  const files = omitted.filter((o) =>
    !o.hunks?.length && o.lines === 0 && !PART_REASONS.has(o.reason)
  );
  if (files.length === 0) return "";
  const kinds = [...new Set(files.map((f) => OMIT_REASON_TEXT[f.reason]))].join(" or ");
  const named = files.slice(0, NAMED_UNLINED).map((f) => JSON.stringify(f.path)).join(", ");
  const rest = files.length > NAMED_UNLINED ? ` and ${files.length - NAMED_UNLINED} more` : "";
  const noun = files.length === 1 ? "file" : "files";
  return `; not shown at all: ${files.length} ${kinds} ${noun} (${named}${rest})`;
}

/**
 * One omitted part for a reader (the path is left to the caller, which quotes it its own way):
 * `lines 120-171, 300-340 and 12 more hunks (over the size limit, max_calls × budgets.total_bytes; 2,400 lines, 80.0 KB)` or
 * `whole file (binary, 24.0 KB)`.
 *
 * @param part the omitted part
 * @param maxHunks most hunk ranges listed (the rest are counted)
 */
export function describeOmitted(part: OmittedPart, maxHunks = 8): string {
  const size = [
    part.lines > 0 ? `${formatCount(part.lines)} line${part.lines === 1 ? "" : "s"}` : "",
    part.bytes > 0 ? formatBytes(part.bytes) : "",
  ].filter(Boolean).join(", ");
  const reason =
    (part.notBy && part.notBy.length > 0
      ? `not reviewed by ${part.notBy.join(", ")}: its call could not run`
      : OMIT_REASON_TEXT[part.reason]) + (part.shard ? `: ${part.shard}` : "");
  const why = `${reason}${size ? `; ${size}` : ""}`;
  if (!part.hunks || part.hunks.length === 0) return `whole file (${why})`;
  const shown = part.hunks.slice(0, maxHunks).map(formatHunk).join(", ");
  const more = part.hunks.length > maxHunks
    ? ` and ${part.hunks.length - maxHunks} more hunks`
    : "";
  return `${shown}${more} (${why})`;
}

/** A path as the prompt writes it: JSON-quoted when it holds a control character or a quote. */
export function quotePath(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x22 || c === 0x5c) return JSON.stringify(path);
  }
  return path;
}

/** Most omitted parts a terminal or `review.md` lists one by one (the rest are counted). */
export const MAX_LISTED_PARTS = 50;

/**
 * The lines naming what was not reviewed: one per omitted part (at most
 * {@linkcode MAX_LISTED_PARTS}, then a count), then the directories left out of the change.
 *
 * @param coverage a run's coverage
 * @returns lines like `big.ts: lines 120-171 (over the size limit, max_calls × budgets.total_bytes; 52 lines, 2.1 KB)`
 */
export function omittedLines(coverage: Coverage): string[] {
  const lines = coverage.omitted.slice(0, MAX_LISTED_PARTS)
    .map((o) => `${quotePath(o.path)}: ${describeOmitted(o)}`);
  const rest = coverage.omitted.length - MAX_LISTED_PARTS;
  if (rest > 0) lines.push(`… and ${rest} more (listed in run.json)`);
  return lines;
}

/**
 * One line saying a review was narrowed to paths (`review PATH…`), or `""` when it was not: a
 * narrowed review is honest about what it covered (README "Usage").
 *
 * @param coverage a run's coverage (or a plan's)
 * @returns e.g. `Narrowed to src/a.ts, lib: the rest of the change was not reviewed`
 */
export function narrowedLine(coverage: Pick<Coverage, "paths">): string {
  const paths = coverage.paths ?? [];
  if (paths.length === 0) return "";
  return `Narrowed to ${paths.map(quotePath).join(", ")}: the rest of the change was not reviewed`;
}

/**
 * One line naming the directories inside the checkout left out of the change, or `""`.
 *
 * @param coverage a run's coverage
 */
export function excludedLine(coverage: Coverage): string {
  const excluded = coverage.excluded ?? [];
  if (excluded.length === 0) return "";
  const words = {
    "linked-worktree": "linked worktree",
    "nested-repository": "nested repository",
    "own-output": "excluded: review-gate's own output",
  };
  const named = excluded.slice(0, 10).map((e) => `${quotePath(e.path)} (${words[e.reason]})`);
  const rest = excluded.length > 10 ? ` and ${excluded.length - 10} more` : "";
  return `Not part of this change (left out): ${named.join(", ")}${rest}`;
}

/**
 * One line for a gate message: how much was reviewed and the first omitted parts.
 *
 * @param coverage a partial coverage
 * @param max most parts named (the rest are counted)
 * @returns e.g. `reviewed 10 of 3,000 changed lines (…); not reviewed: big.ts: lines 1-40 (…)`
 */
export function partialSummary(coverage: Coverage, max = 3): string {
  const named = coverage.omitted.slice(0, max).map((o) =>
    `${quotePath(o.path)}: ${describeOmitted(o, 3)}`
  );
  const rest = coverage.omitted.length - named.length;
  return `${reviewedAmount(coverage)}; not reviewed: ${named.join("; ")}${
    rest > 0 ? `; and ${rest} more` : ""
  }`;
}

/** Bytes of diff per input token, for estimates (code and English run about 3–4). */
export const BYTES_PER_TOKEN = 3.5;

/** Estimated input tokens of `bytes` of diff text. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/**
 * The review plan of a change for a reader (`review --plan-only`): a headline saying plainly that
 * nothing was reviewed (a plan calls no model), one line per chunk (files, changed lines, bytes,
 * estimated tokens), then what a review would leave out.
 *
 * @param change the collected change
 * @returns lines ending in a newline
 */
export function planText(
  change: { label: string; chunks: readonly ChangeChunk[]; coverage: Coverage },
): string {
  const { chunks, coverage } = change;
  const out = [
    `Review plan for ${change.label} — NOT reviewed: this is a plan only; no model was called`,
    `${chunks.length} model call${
      chunks.length === 1 ? "" : "s"
    }; coverage would be ${coverage.status} (${reviewedAmount(coverage, "would review")})`,
  ];
  chunks.forEach((c, i) => {
    const first = quotePath(c.paths[0] ?? "");
    const more = c.paths.length > 1 ? ` and ${c.paths.length - 1} more` : "";
    out.push(
      `  part ${i + 1}: ${c.paths.length} file${
        c.paths.length === 1 ? "" : "s"
      } (${first}${more}), ${formatCount(c.lines)} changed lines, ${formatBytes(c.bytes)}, ~${
        formatCount(estimateTokens(c.bytes))
      } tokens`,
    );
  });
  if (coverage.omitted.length > 0) {
    out.push("Would not be reviewed:", ...omittedLines(coverage).map((l) => `  ${l}`));
  }
  const excluded = excludedLine(coverage);
  if (excluded) out.push(excluded);
  return out.join("\n") + "\n";
}
