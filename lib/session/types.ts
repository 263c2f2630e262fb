/**
 * The shapes of one structured call (docs/design.md "One structured call"), shared by the call
 * (lib/session/call.ts) and its attempts (lib/session/attempt.ts): the options a caller gives, the
 * outcome it gets back, each attempt's record, and where an attempt left the call. Kept apart so
 * the two modules import it and not each other.
 *
 * @module
 */
import type { Decision, Refusal } from "../answer/types.ts";
import type { Runner } from "../exec/exec.ts";
import type { ChildSetup, ProviderAdapter, ProviderRequest, Usage } from "../providers/provider.ts";
import type { ReviewWorkspace } from "./workspace.ts";

/** How one provider attempt ended. */
export type AttemptOutcome =
  | "answer" // decoder accepted
  | "refused" // decoder or adapter refused → maybe corrective resume
  | "error" // provider error
  | "timeout"
  | "interrupted";

/** One attempt's record; raw output lives in the transcript folder. */
export interface AttemptRecord {
  /** 1 = first call, 2 = corrective resume; in a multi-call review, numbered across its parts. */
  n: number;
  /** In a multi-call review: the part (1-based chunk number) this attempt belongs to. */
  part?: number;
  /** Binary and arguments as spawned. */
  argv: string[];
  /** Bytes written to stdin (0 for none). */
  stdinBytes: number;
  exitCode: number;
  durationMs: number;
  outcome: AttemptOutcome;
  /** Refusal lines when outcome is "refused". */
  refusal?: Refusal[];
  /** Provider error text when outcome is "error". */
  message?: string;
  /** Non-fatal notices the provider printed (codex "Reconnecting... 1/5 …" before a completed turn). */
  notices?: string[];
  /** Transcript file names, relative to the run folder. */
  stdoutFile: string;
  stderrFile: string;
  /** True when output was cut at the cap. */
  truncated?: boolean;
  /**
   * True when the provider exited but a leftover process kept its output open past the grace
   * period (lib/exec/exec.ts `OUTPUT_GRACE_MS`): the pipes were cancelled, the output may lack its end.
   */
  outputCutAfterExit?: boolean;
}

/** One attempt: its record plus the raw output bytes (written to `transcript/` by the store). */
export interface AttemptRun extends AttemptRecord {
  stdout: Uint8Array;
  stderr: Uint8Array;
}

/**
 * How the call ended. `ok` means the decoder accepted an answer and the repo is unchanged. A call
 * never ends `not-reviewed`: that is a part of a split review whose answer never reached
 * `review-gate merge` (its shard's result missing, foreign or refused: lib/review/shard_merge.ts).
 */
export type CallStatus =
  | "ok"
  | "invalid-answer"
  | "provider-error"
  | "timeout"
  | "interrupted"
  | "not-reviewed";

/** What {@linkcode callStructured} returns; it never throws for provider trouble. */
export interface CallOutcome<T = unknown> {
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
  /**
   * Tokens of the whole call: the session's running totals after its last attempt (never the sum of
   * the attempts' reports, which repeat the earlier ones); fields no attempt reported stay absent.
   */
  usage?: Usage;
  /** USD of the whole call, the same way (absent when the provider reports no money). */
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
export interface CallOptions<T = unknown, S = unknown> {
  adapter: ProviderAdapter;
  /** Binary to spawn (resolved from the adapter's `binEnv` or `defaultBin` by the caller). */
  bin: string;
  /**
   * The first call's request; the session fills in tmpDir, attempt, resumeSessionId, and the
   * workdir and child setup.
   */
  request: Omit<ProviderRequest, "tmpDir" | "attempt" | "resumeSessionId" | "workdir" | "child">;
  /**
   * The review's workspace (lib/session/workspace.ts): the provider runs in its read-only copy.
   * Without one it runs in `request.root` (tests of the session alone).
   */
  workspace?: ReviewWorkspace;
  /** The corrective prompt for a refusal (formatted with lib/answer/refusal.ts). */
  correctivePrompt: (refusal: Refusal[]) => string;
  /** The decoder, bound to the answer kind and reviewed tree. */
  decode: (input: { text: string } | { value: unknown }) => Promise<Decision<T>>;
  runner: Runner;
  /** Deadline for the whole call (both attempts share it), milliseconds. */
  timeoutMs: number;
  /** Aborts the call (Ctrl-C, a hook deadline): the child group is killed, status `interrupted`. */
  signal?: AbortSignal;
  /**
   * The parent environment: the adapter takes the child's allowlisted environment and the user's
   * config locations from it (`prepareChild`). Default: this process's environment.
   */
  env?: Record<string, string | undefined>;
  /** Read-only proof; skipped when absent. */
  proof?: ReadOnlyProof<S>;
  /** Message when the binary cannot be started, e.g. `Cannot find "codex" on PATH: …`. */
  missingBinaryMessage?: string;
}

/** What both attempts of one call share: the private dir, the workdir and the child setup. */
export interface CallSetup {
  tmpDir: string;
  workdir: string;
  child: ChildSetup;
}

/** Where an attempt left the call: an answer, a refusal to correct, or the end. */
export type Step<T> =
  | { kind: "ok"; answer: T; notes: string[] }
  | { kind: "refused"; refusal: Refusal[] }
  | { kind: "stop"; status: CallStatus; message: string };
