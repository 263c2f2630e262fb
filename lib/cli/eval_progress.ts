/**
 * `review-gate eval`'s progress on stderr, only when stderr is a terminal (silent and parseable
 * otherwise): `eval: run 12 of 88 · 34 s · $0.0123 so far · last ts/off-by-one · claude`, redrawn at
 * each finished run and every second between them.
 *
 * @module
 */
import type { EvalProgress } from "../eval/run_eval.ts";
import { usd } from "../eval/metrics.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import type { TextSink } from "./deps.ts";

/** A progress line: updated by the eval, stopped (always) when it ends. */
export interface EvalProgressLine {
  update: (progress: EvalProgress) => void;
  stop: () => void;
}

/**
 * The line for one state of the eval.
 *
 * @param progress where the eval is
 * @param elapsedMs time since the eval started, ms
 * @example
 * ```ts
 * import { progressText } from "./eval_progress.ts";
 * progressText({ phase: "review", done: 3, total: 8, elapsedMs: 0, costUsd: 0.5 }, 12_400);
 * // "eval: run 3 of 8 · 12 s · $0.5000 so far"
 * ```
 */
export function progressText(progress: EvalProgress, elapsedMs: number): string {
  const seconds = `${Math.round(elapsedMs / 1000)} s`;
  if (progress.phase === "prepare") {
    return `eval: building case ${progress.done} of ${progress.total} · ${seconds}`;
  }
  const last = progress.last ? ` · last ${sanitizeForTerminal(progress.last)}` : "";
  return `eval: run ${progress.done} of ${progress.total} · ${seconds} · ${
    usd(progress.costUsd)
  } so far${last}`;
}

/**
 * Start the progress line.
 *
 * @param sink stderr; nothing is written unless it is a terminal
 * @param now clock
 */
export function startEvalProgress(sink: TextSink, now: () => Date): EvalProgressLine {
  if (!sink.isTerminal) return { update: () => {}, stop: () => {} };
  const began = now().getTime();
  let last: EvalProgress = { phase: "prepare", done: 0, total: 0, elapsedMs: 0, costUsd: 0 };
  const draw = () => sink.write(`\r\x1b[2K${progressText(last, now().getTime() - began)}`);
  const timer = setInterval(draw, 1000);
  return {
    update(progress) {
      last = progress;
      draw();
    },
    stop() {
      clearInterval(timer);
      sink.write("\r\x1b[2K");
    },
  };
}
