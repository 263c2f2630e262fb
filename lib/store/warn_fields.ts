/**
 * A gate's warn mode in its ledger line (README "Warn first"; `records.jsonl`, lib/store/records.ts
 * `RecordLine`): `mode: "warn"`, and when findings would have blocked, `would_block` with their
 * count. A gate in block mode adds nothing, so older lines and block-mode lines read the same.
 *
 * @module
 */
import type { RecordLine } from "./records.ts";
import type { RunRecord } from "./run_record.ts";

/**
 * The warn-mode fields of a ledger line.
 *
 * @param record the run's `gateMode` and `wouldBlock` (lib/store/run_record.ts)
 * @returns `{}` outside warn mode; else `mode`, and `would_block` + `would_block_findings` when
 *   `wouldBlock` is more than 0
 */
export function warnFields(
  record: Pick<RunRecord, "gateMode" | "wouldBlock">,
): Pick<RecordLine, "mode" | "would_block" | "would_block_findings"> {
  if (record.gateMode !== "warn") return {};
  return {
    mode: "warn",
    ...(record.wouldBlock ? { would_block: true, would_block_findings: record.wouldBlock } : {}),
  };
}
