/**
 * Decide which files' patches fit the prompt (pure). Binary files are never inlined. A text patch
 * larger than `perFileBytes` is omitted ("file-budget"). The remaining patches are admitted
 * smallest first (ties in git's path order) while the running total stays within `totalBytes`;
 * the rest are omitted ("total-budget"). Smallest-first keeps the most files reviewable and leaves
 * out the big ones, which the agent can still read itself with its read-only tools. The included
 * patches are emitted in git's path order, not in admission order.
 *
 * Submodules (changed gitlinks) are never inlined either: they are omitted as "submodule" and make
 * coverage "partial" (their content changes are not in the diff; the agent must read them).
 *
 * Coverage is "partial" when any file was cut by a budget or is a submodule. Binary files are listed in `omitted`
 * with reason "binary" but do not make coverage partial: their content is never reviewable as text.
 *
 * @module
 */
import type { Budgets, Coverage, OmitReason } from "./types.ts";

/** One file offered to the budget. */
export interface BudgetItem {
  path: string;
  binary: boolean;
  /** True for a submodule gitlink. */
  submodule?: boolean;
  /** Bytes of this file's patch. */
  size: number;
}

/** The budget's decision. */
export interface BudgetPlan {
  /** Per input index: the omit reason, or undefined when included. */
  reasons: (OmitReason | undefined)[];
  coverage: Coverage;
}

/**
 * Apply per-file and total budgets.
 *
 * @param items files in git's order with their patch sizes in bytes
 * @param budgets byte limits
 * @returns a reason per item and the resulting coverage (byte counts over patch text)
 */
export function planBudget(items: readonly BudgetItem[], budgets: Budgets): BudgetPlan {
  const reasons: (OmitReason | undefined)[] = items.map((item) =>
    item.submodule
      ? "submodule"
      : item.binary
      ? "binary"
      : item.size > budgets.perFileBytes
      ? "file-budget"
      : undefined
  );
  const order = items.map((_, i) => i).filter((i) => reasons[i] === undefined)
    .sort((a, b) => items[a].size - items[b].size || a - b);
  let included = 0;
  for (const i of order) {
    if (included + items[i].size <= budgets.totalBytes) included += items[i].size;
    else reasons[i] = "total-budget";
  }
  const omitted = items.flatMap((item, i) => {
    const reason = reasons[i];
    return reason ? [{ path: item.path, reason }] : [];
  });
  return {
    reasons,
    coverage: {
      status: omitted.some((o) => o.reason !== "binary") ? "partial" : "complete",
      omitted,
      includedBytes: included,
      totalBytes: items.reduce((sum, item) => sum + item.size, 0),
    },
  };
}
