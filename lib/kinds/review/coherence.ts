/**
 * Step 3 of the decoder for the review kind (docs/design.md "Decoder"): checks a
 * schema-valid review answer against the reviewed tree. File paths are normalised to repo-relative
 * (notes record each change); a file must be in the reviewed tree or deleted by the change;
 * `line_start ≤ line_end ≤` the file's line count (not checked for deleted files); a finding of
 * scope "introduced" overlaps the lines the change added or edited (when the tree knows them:
 * {@linkcode TreeView.changedLines}); `approve` carries no critical/high finding;
 * `needs-attention` carries at least one finding.
 *
 * @module
 */

import { normaliseRepoPath, stripDiffPrefix } from "../../answer/repo_path.ts";
import type { LineRange, Refusal, TreeView } from "../../answer/types.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

/** Outcome of the coherence checks: the answer with normalised paths, notes, refusals. */
export interface CoherenceResult {
  /** A copy of the input answer whose `file` fields are normalised. */
  answer: ReviewAnswer;
  /** What was normalised, e.g. `/findings/0/file: "./a.ts" → "a.ts" (stripped "./")`. */
  notes: string[];
  /** Every incoherence found; empty when the answer is coherent. */
  refusal: Refusal[];
}

async function inTree(tree: TreeView, path: string): Promise<boolean> {
  return tree.isDeleted(path) || (await tree.lineCount(path)) !== null;
}

/**
 * Resolve a path from an answer to a repo-relative path of the reviewed tree: normalised
 * (lib/answer/repo_path.ts), with a git diff prefix (`a/`, `b/`) stripped only when the path with
 * it is not in the tree and the rest is.
 *
 * @returns the path and what was changed, or why it is refused
 */
export async function resolveFile(
  file: string,
  tree: TreeView,
): Promise<{ ok: true; path: string; changes: string[] } | { ok: false; problem: string }> {
  const normal = normaliseRepoPath(file, tree.root);
  if (!normal.ok) return normal;
  const unprefixed = stripDiffPrefix(normal.path);
  // `a/`/`b/` is a diff prefix only when the path with it is not a real file and the rest is.
  if (
    unprefixed !== null && !(await inTree(tree, normal.path)) && (await inTree(tree, unprefixed))
  ) {
    return {
      ok: true,
      path: unprefixed,
      changes: [...normal.changes, `stripped the diff prefix "${normal.path.slice(0, 2)}"`],
    };
  }
  return normal;
}

async function checkFinding(
  finding: Finding,
  at: string,
  tree: TreeView,
  out: { notes: string[]; refusal: Refusal[] },
): Promise<void> {
  if (finding.line_end < finding.line_start) {
    out.refusal.push({
      path: `${at}/line_end`,
      problem: `line_end ${finding.line_end} is before line_start ${finding.line_start}`,
    });
  }
  const resolved = await resolveFile(finding.file, tree);
  if (!resolved.ok) {
    out.refusal.push({ path: `${at}/file`, problem: resolved.problem });
    return;
  }
  if (resolved.changes.length > 0) {
    out.notes.push(
      `${at}/file: "${finding.file}" → "${resolved.path}" (${resolved.changes.join(", ")})`,
    );
    finding.file = resolved.path;
  }
  if (tree.isDeleted(resolved.path)) return;
  const lines = await tree.lineCount(resolved.path);
  if (lines === null) {
    out.refusal.push({
      path: `${at}/file`,
      problem:
        `"${resolved.path}" is not in the reviewed tree: point at a file the change touches, relative to the repository root`,
    });
  } else if (finding.line_end > lines) {
    out.refusal.push({
      path: `${at}/line_end`,
      problem:
        `line_end ${finding.line_end} is past the end of "${resolved.path}" (${lines} lines)`,
    });
  } else if (finding.scope === "introduced") {
    const problem = scopeProblem(finding, resolved.path, tree.changedLines(resolved.path));
    if (problem) out.refusal.push({ path: `${at}/scope`, problem });
  }
}

/**
 * Why a finding of scope "introduced" does not point at changed lines, or null when it does (its
 * range overlaps a changed range) or the changed lines are not known.
 */
function scopeProblem(
  finding: Finding,
  path: string,
  changed: readonly LineRange[] | null,
): string | null {
  if (changed === null) return null;
  if (changed.some((r) => r.start <= finding.line_end && finding.line_start <= r.end)) return null;
  const where = finding.line_start === finding.line_end
    ? `line ${finding.line_start} of "${path}" is not a line`
    : `lines ${finding.line_start}-${finding.line_end} of "${path}" are not lines`;
  const lines = changed.length === 0
    ? `the change edits no line of "${path}"`
    : `${where} the change added or edited (it changed ${formatLineRanges(changed)})`;
  return `scope "introduced" but ${lines}: point at the changed lines that cause the problem, or use "pre-existing-touched" or "outside"`;
}

/** Ranges as text: `3-5, 8, 10-12`. */
function formatLineRanges(ranges: readonly LineRange[]): string {
  return ranges.map((r) => r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`).join(", ");
}

/**
 * Check a schema-valid review answer against the reviewed tree.
 *
 * @param answer an answer that passed `schemas/review.schema.json` (not modified)
 * @param tree the reviewed tree (worktree or commit tree); paths it answers are repo-relative
 * @returns the normalised copy, notes and refusals (refusal paths are JSON pointers)
 */
export async function checkReviewCoherence(
  answer: ReviewAnswer,
  tree: TreeView,
): Promise<CoherenceResult> {
  const copy = structuredClone(answer);
  const out = { notes: [] as string[], refusal: [] as Refusal[] };
  for (const [i, finding] of copy.findings.entries()) {
    await checkFinding(finding, `/findings/${i}`, tree, out);
  }
  if (copy.verdict === "approve") {
    for (const [i, finding] of copy.findings.entries()) {
      if (finding.severity === "critical" || finding.severity === "high") {
        out.refusal.push({
          path: "/verdict",
          problem:
            `"approve" carries a ${finding.severity} finding (/findings/${i}): answer "needs-attention" or lower that severity`,
        });
      }
    }
  } else if (copy.findings.length === 0) {
    out.refusal.push({
      path: "/findings",
      problem: `"needs-attention" needs at least one finding: add the findings or answer "approve"`,
    });
  }
  return { answer: copy, notes: out.notes, refusal: out.refusal };
}
