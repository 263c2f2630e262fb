/**
 * The gates' evidence for flipping from warn to block (README "Warn first"), pure: per gate that
 * has a mode (pre-push and the Stop gates) and per mode it ran in, the reviews that gave a verdict,
 * how many of them blocked, how many would have blocked in warn mode (`would_block` in
 * `records.jsonl`, lib/store/warn_fields.ts), and how many had a finding the team acknowledged
 * (`acknowledged`, lib/acks). A line without `mode` ran in block mode (every line before warn mode
 * existed did).
 *
 * @module
 */
import type { RecordLine } from "./records.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** The gates a `mode` applies to, as the ledger names them. */
export const MODE_GATES: readonly string[] = [
  "pre-push",
  "claude-stop",
  "codex-stop",
  "copilot-stop",
  "qwen-stop",
  "gemini-stop",
];

/** Statuses of a review that gave a verdict (the others were NOT reviewed). */
const VERDICTS = new Set(["approved", "needs-attention"]);

/** One gate in one mode. */
export interface ModeRow {
  /** The gate, as the ledger names it (`pre-push`). */
  gate: string;
  mode: "block" | "warn";
  /** Its reviews that gave a verdict (approved or needs-attention). */
  reviews: number;
  /** Of them, those that blocked. */
  blocked: number;
  /** Of them, those whose findings would have blocked (warn mode only; 0 in block mode). */
  wouldBlock: number;
  /** Of them, those with at least one acknowledged finding. */
  acknowledged: number;
  /** `wouldBlock / reviews` (warn mode), `blocked / reviews` (block mode): 0..1. */
  blockRate: number;
  /** `acknowledged / reviews`: 0..1. */
  acknowledgedRate: number;
}

/**
 * The rows of {@linkcode ModeRow}, sorted by gate then mode; a gate and mode with no review that
 * gave a verdict has no row.
 *
 * @param lines the ledger lines (lib/store/records.ts `readRecords`)
 */
export function modeRows(lines: readonly RecordLine[]): ModeRow[] {
  const rows = new Map<string, ModeRow>();
  for (const line of lines) {
    if (!line.gate || !MODE_GATES.includes(line.gate) || !VERDICTS.has(line.status)) continue;
    const mode = line.mode === "warn" ? "warn" : "block";
    const key = `${line.gate}\u0000${mode}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        ...{ gate: line.gate, mode, reviews: 0, blocked: 0, wouldBlock: 0, acknowledged: 0 },
        ...{ blockRate: 0, acknowledgedRate: 0 },
      };
      rows.set(key, row);
    }
    row.reviews++;
    if (line.blocking) row.blocked++;
    if (line.would_block) row.wouldBlock++;
    if ((line.acknowledged ?? 0) > 0) row.acknowledged++;
  }
  for (const row of rows.values()) {
    row.blockRate = (row.mode === "warn" ? row.wouldBlock : row.blocked) / row.reviews;
    row.acknowledgedRate = row.acknowledged / row.reviews;
  }
  return [...rows.values()].sort((a, b) =>
    compareCodeUnits(a.gate, b.gate) || compareCodeUnits(a.mode, b.mode)
  );
}
