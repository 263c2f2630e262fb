/**
 * One structured call (DESIGN.md "One structured call (contract)"): attempt 1 → envelope →
 * decoder; a refusal gets **one** corrective resume of the same session; provider errors,
 * timeouts and aborts are never resumed. The read-only proof is taken before and after; any
 * difference is a `provider-error` naming the changed paths (nothing is reverted). Every attempt
 * keeps its argv, stdin size, raw stdout/stderr, exit code and duration for the transcript.
 *
 * The adapter, decoder, runner and proof are injected, so this file is tested alone with fakes. One
 * attempt (spawn, envelope, decoder) is lib/session_attempt.ts.
 *
 * @module
 */
import type { Decision, Refusal, ReviewAnswer } from "./answer/types.ts";
import type { Runner } from "./exec.ts";
import type { ProviderAdapter, ProviderRequest, Usage } from "./providers/provider.ts";
import type { AttemptRecord } from "./review/types.ts";
import { runAttempt } from "./session_attempt.ts";
import { withPrivateTempDir } from "./tmpdir.ts";

/** One attempt: its record plus the raw output bytes (written to `transcript/` by the store). */
export interface AttemptRun extends AttemptRecord {
  stdout: Uint8Array;
  stderr: Uint8Array;
}

/** How the call ended. `ok` means the decoder accepted an answer and the repo is unchanged. */
export type CallStatus = "ok" | "invalid-answer" | "provider-error" | "timeout" | "interrupted";

/** What {@linkcode callStructured} returns; it never throws for provider trouble. */
export interface CallOutcome<T = ReviewAnswer> {
  status: CallStatus;
  /** The decoded answer, only when status is `ok`. */
  answer?: T;
  /** Decoder notes of the accepted answer. */
  notes?: string[];
  /** The last refusal, for `invalid-answer`. */
  refusal?: Refusal[];
  /** One line for every status but `ok`. */
  message?: string;
  sessionId?: string;
  /** Summed over attempts (fields absent from every attempt stay absent). */
  usage?: Usage;
  /** Summed over attempts, USD. */
  costUsd?: number;
  /** Model reported by the last attempt that reported one. */
  model?: string;
  attempts: AttemptRun[];
}

/** The read-only proof: a snapshot of HEAD, index and worktree, and a comparison. */
export interface ReadOnlyProof<S> {
  take(): Promise<S>;
  /** Changed repo-relative paths (or "HEAD" / "index"); empty when nothing changed. */
  compare(before: S, after: S): string[];
}

/** Options for {@linkcode callStructured}. */
export interface CallOptions<T = ReviewAnswer, S = unknown> {
  adapter: ProviderAdapter;
  /** Binary to spawn (resolved from the adapter's `binEnv` or `defaultBin` by the caller). */
  bin: string;
  /** The first call's request; the session fills in tmpDir, attempt and resumeSessionId. */
  request: Omit<ProviderRequest, "tmpDir" | "attempt" | "resumeSessionId">;
  /** The corrective prompt for a refusal (lib/answer/refusal.ts). */
  correctivePrompt: (refusal: Refusal[]) => string;
  /** The decoder, bound to the answer kind and reviewed tree. */
  decode: (input: { text: string } | { value: unknown }) => Promise<Decision<T>>;
  runner: Runner;
  /** Deadline for the whole call (both attempts share it), milliseconds. */
  timeoutMs: number;
  /** Aborts the call (Ctrl-C, a hook deadline): the child group is killed, status `interrupted`. */
  signal?: AbortSignal;
  /** The parent environment, handed to `adapter.locateSession`. */
  env?: Record<string, string | undefined>;
  /** Read-only proof; skipped when absent. */
  proof?: ReadOnlyProof<S>;
  /** Message when the binary cannot be started, e.g. `Cannot find "codex" on PATH: …`. */
  missingBinaryMessage?: string;
}

/**
 * Run one structured provider call with at most one corrective resume.
 *
 * @param options adapter, binary, request, injected decoder/runner/proof, deadline (ms), signal
 * @returns the outcome; provider failures and decoder throws are statuses, not exceptions
 * @throws what the proof's first snapshot throws (e.g. a GitError; no provider was started), and
 *   {@linkcode import("./errors.ts").StoreError} when the private temp dir cannot be created (a
 *   bad `TMPDIR`). A failing snapshot after the call is the status `provider-error` instead, with
 *   the attempts kept
 */
export function callStructured<T = ReviewAnswer, S = unknown>(
  options: CallOptions<T, S>,
): Promise<CallOutcome<T>> {
  const deadline = performance.now() + options.timeoutMs;
  return withPrivateTempDir(async (tmpDir) => {
    const before = options.proof ? await options.proof.take() : undefined;
    const out: CallOutcome<T> = { status: "provider-error", attempts: [] };
    let step = await runAttempt(options, out, { tmpDir, n: 1, deadline });
    if (step.kind === "refused" && out.sessionId && options.adapter.capabilities.resume) {
      const prompt = options.correctivePrompt(step.refusal);
      step = await runAttempt(options, out, { tmpDir, n: 2, deadline, prompt });
    }
    if (step.kind === "ok") {
      Object.assign(out, { status: "ok", answer: step.answer, notes: step.notes });
    } else if (step.kind === "refused") {
      Object.assign(out, { status: "invalid-answer", refusal: step.refusal });
      out.message = `The provider's answer was refused ${
        out.attempts.length === 2 ? "after the corrective resume" : "and could not be resumed"
      }: ${step.refusal.map((r) => `${r.path || "(answer)"}: ${r.problem}`).join("; ")}`;
    } else Object.assign(out, { status: step.status, message: step.message });
    if (options.proof && before !== undefined) await checkProof(options.proof, before, out);
    return out;
  });
}

/** Take the after-snapshot and compare; a change or a failing snapshot spoils the outcome. */
async function checkProof<T, S>(
  proof: ReadOnlyProof<S>,
  before: S,
  out: CallOutcome<T>,
): Promise<void> {
  let changed: string[];
  try {
    changed = proof.compare(before, await proof.take());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    applyViolation(out, `Could not verify the repository was left unchanged: ${reason}`);
    return;
  }
  if (changed.length > 0) {
    applyViolation(
      out,
      `The provider changed the repository (read-only violation): ${changed.join(", ")}`,
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
