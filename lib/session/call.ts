/**
 * One structured call (docs/design.md "One structured call"): attempt 1 → envelope →
 * decoder; a refusal gets **one** corrective resume of the same session; provider errors,
 * timeouts and aborts are never resumed. The read-only proof is taken before and after; any
 * difference is a `provider-error` naming the changed paths (nothing is reverted). Every attempt
 * keeps its argv, stdin size, raw stdout/stderr, exit code and duration for the transcript.
 *
 * The provider runs in the review's workspace (the read-only copy of the reviewed tree,
 * lib/session/workspace.ts) with the child setup its adapter prepares once per call in the call's
 * private dir (`prepareChild`: allowlisted environment, private homes, carried auth), shared by
 * both attempts and cleaned up after.
 *
 * The adapter, decoder, runner and proof are injected, so this file is tested alone with fakes. One
 * attempt (spawn, envelope, decoder) is lib/session/attempt.ts; the shapes both use are
 * lib/session/types.ts.
 *
 * @module
 */
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { runAttempt } from "./attempt.ts";
import type {
  AttemptRecord,
  AttemptRun,
  CallOptions,
  CallOutcome,
  ReadOnlyProof,
} from "./types.ts";

export type {
  AttemptRecord,
  AttemptRun,
  CallOptions,
  CallOutcome,
  CallStatus,
  ReadOnlyProof,
} from "./types.ts";

/**
 * Run one structured provider call with at most one corrective resume.
 *
 * @param options adapter, binary, request, injected decoder/runner/proof, deadline (ms), signal
 * @returns the outcome; provider failures and decoder throws are statuses, not exceptions
 * @throws what the proof's first snapshot throws (e.g. a GitError; no provider was started), and
 *   {@linkcode import("../base/errors.ts").StoreError} when the private temp dir cannot be created (a
 *   bad `TMPDIR`). A failing snapshot after the call is the status `provider-error` instead, with
 *   the attempts kept
 */
export function callStructured<T, S = unknown>(
  options: CallOptions<T, S>,
): Promise<CallOutcome<T>> {
  const deadline = performance.now() + options.timeoutMs;
  return withPrivateTempDir(async (tmpDir) => {
    let before: S | undefined;
    try {
      before = options.proof ? await options.proof.take() : undefined;
    } catch (error) {
      // an interrupt that stopped the first snapshot ends the call as interrupted, not as a failure
      if (!options.signal?.aborted) throw error;
      return { status: "interrupted", attempts: [], message: INTERRUPTED_BEFORE_START };
    }
    const out: CallOutcome<T> = { status: "provider-error", attempts: [] };
    const workdir = options.workspace?.tree ?? options.request.root;
    const child = await options.adapter.prepareChild({
      env: options.env ?? Deno.env.toObject(),
      dir: tmpDir,
      root: options.request.root,
      workdir,
      bin: options.bin,
      maxTurns: options.request.maxTurns,
    });
    const setup = { tmpDir, workdir, child };
    let step;
    try {
      step = await runAttempt(options, out, { setup, n: 1, deadline });
      if (step.kind === "refused" && out.sessionId && options.adapter.capabilities.resume) {
        const prompt = options.correctivePrompt(step.refusal);
        step = await runAttempt(options, out, { setup, n: 2, deadline, prompt });
      }
    } finally {
      await child.cleanup?.();
    }
    if (step.kind === "ok") {
      Object.assign(out, { status: "ok", answer: step.answer, notes: step.notes });
    } else if (step.kind === "refused") {
      Object.assign(out, { status: "invalid-answer", refusal: step.refusal });
      out.message = `The provider's answer was refused ${
        out.attempts.length === 2 ? "after the corrective resume" : "and could not be resumed"
      }: ${step.refusal.map((r) => `${r.path || "(answer)"}: ${r.problem}`).join("; ")}`;
    } else Object.assign(out, { status: step.status, message: step.message });
    if (options.proof && before !== undefined) {
      await checkProof(options.proof, before, out, options.signal);
    }
    return out;
  });
}

/** Message of a call whose proof's first snapshot an interrupt stopped. */
const INTERRUPTED_BEFORE_START =
  "Interrupted before the provider started (while the read-only proof's first snapshot was taken)";

/**
 * Take the after-snapshot and compare; a change or a failing snapshot spoils the outcome. A
 * snapshot that fails after an interrupt (`signal` aborted: its git calls were stopped) makes the
 * outcome `interrupted`: no answer stands whose proof could not be taken.
 */
async function checkProof<T, S>(
  proof: ReadOnlyProof<S>,
  before: S,
  out: CallOutcome<T>,
  signal: AbortSignal | undefined,
): Promise<void> {
  let changed: string[];
  try {
    changed = proof.compare(before, await proof.take());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (signal?.aborted && out.status !== "interrupted") {
      Object.assign(out, { status: "interrupted", message: "Interrupted" });
      delete out.answer;
      delete out.notes;
    }
    applyViolation(out, `Could not verify the repository was left unchanged: ${reason}`);
    return;
  }
  if (changed.length > 0) {
    applyViolation(
      out,
      `The provider wrote where a review may not (read-only violation): ${changed.join(", ")}. ` +
        "If you changed these yourself while the review ran, run it again.",
    );
  }
}

/** Make the outcome a `provider-error` with `text` (an interrupted call stays interrupted). */
function applyViolation<T>(out: CallOutcome<T>, text: string): void {
  if (out.status === "interrupted") {
    out.message = `${out.message}; ${text}`;
    return;
  }
  out.status = "provider-error";
  out.message = text;
  delete out.answer;
  delete out.notes;
}

/**
 * The attempts without their raw bytes, as `run.json` stores them (bytes go to `transcript/`).
 *
 * @param attempts from {@linkcode CallOutcome.attempts}
 * @returns plain attempt records
 */
export function toAttemptRecords(attempts: readonly AttemptRun[]): AttemptRecord[] {
  return attempts.map(({ stdout: _stdout, stderr: _stderr, ...record }) => record);
}
