/**
 * The in-process pipeline bench, run as its own subprocess so GNU time sees its peak RSS:
 * `deno run --allow-read --allow-write --allow-env --allow-run bench/pipeline.ts <repo> <budgets>`.
 *
 * In the repository `<repo>` it collects the working-tree change ({@linkcode collectChange}, the
 * same git calls as `review-gate review`), builds the review prompt ({@linkcode buildReviewPrompt})
 * and decodes a `needs-attention` answer with one finding on each of the first five changed files
 * ({@linkcode decode}: parse, ajv, coherence with line counts read from disk). `<budgets>` is
 * `defaults` (DEFAULT_CONFIG.budgets) or `unbounded` (1 GiB per file and in total: every patch is
 * included). Prints one JSON line: per-phase ms, file and byte counts, coverage. Exits 1 when the
 * answer is refused.
 *
 * @module
 */
import { reviewKind } from "../lib/kinds/review/kind.ts";
import { decode } from "../lib/answer/decoder.ts";
import { canonicalSchema } from "../lib/kinds/registry.ts";
import { DEFAULT_CONFIG } from "../lib/config/config.ts";
import { runProcess } from "../lib/exec/exec.ts";
import { collectChange } from "../lib/git/collect.ts";
import { resolveRepo } from "../lib/git/repo.ts";
import type { Budgets } from "../lib/git/types.ts";
import { buildReviewPrompt } from "../lib/kinds/review/prompt.ts";

/** Budgets that include every patch of the bench's diffs. */
export const UNBOUNDED_BUDGETS: Budgets = { perFileBytes: 1 << 30, totalBytes: 1 << 30 };

/** The default budgets, in the collector's shape. */
export const DEFAULT_BUDGETS: Budgets = {
  perFileBytes: DEFAULT_CONFIG.budgets.file_bytes,
  totalBytes: DEFAULT_CONFIG.budgets.total_bytes,
};

async function main(args: string[]): Promise<number> {
  const [root, mode] = args;
  const budgets = mode === "unbounded" ? UNBOUNDED_BUDGETS : DEFAULT_BUDGETS;
  const t0 = performance.now();
  const repo = await resolveRepo(runProcess, root);
  const change = await collectChange(runProcess, { repo, target: { kind: "worktree" }, budgets });
  const t1 = performance.now();
  const schema = await canonicalSchema("review");
  const prompt = buildReviewPrompt(change, { kind: "review", schema });
  const t2 = performance.now();
  const findings = change.files.filter((f) => f.status !== "deleted").slice(0, 5).map((f) => ({
    severity: "medium",
    category: "maintainability",
    scope: "pre-existing-touched",
    title: `Check ${f.path}`,
    body: "A generated finding for the bench.",
    file: f.path,
    line_start: 1,
    line_end: 2,
    confidence: 0.7,
    recommendation: "None: this is a bench.",
  }));
  const answer = { verdict: "needs-attention", summary: "Bench answer.", findings, next_steps: [] };
  const decision = await decode(reviewKind, { text: JSON.stringify(answer) }, change.tree);
  const t3 = performance.now();
  const summary = {
    collectMs: t1 - t0,
    promptMs: t2 - t1,
    decodeMs: t3 - t2,
    files: change.files.length,
    omitted: change.coverage.omitted.length,
    coverage: change.coverage.status,
    reviewedBytes: change.coverage.reviewedBytes,
    omittedBytes: change.coverage.omittedBytes,
    promptBytes: new TextEncoder().encode(prompt).length,
    decoded: decision.ok,
  };
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(summary) + "\n"));
  if (!decision.ok) {
    Deno.stderr.writeSync(new TextEncoder().encode(JSON.stringify(decision.refusal) + "\n"));
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
