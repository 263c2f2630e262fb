/**
 * One attempt of a structured call (lib/session/call.ts): build the provider invocation, spawn it
 * through the injected runner within the time left, parse its envelope (docs/providers.md) and
 * judge
 * it with the decoder. The attempt's argv, stdin size, raw stdout/stderr, exit code and duration
 * are kept in its record; session id, model, cost and usage are gathered into the call's outcome.
 *
 * @module
 */
import { utf8Length } from "../git/hunks.ts";
import type { Decision } from "../answer/types.ts";
import { type ExecResult, SpawnError } from "../exec/exec.ts";
import { notExecutableText } from "../exec/spawn_hint.ts";
import type { Envelope, Invocation, ProviderAdapter, Usage } from "../providers/provider.ts";
import { ToolBound } from "./tool_bound.ts";
import type { AttemptRun, CallOptions, CallOutcome, CallSetup, Step } from "./types.ts";

/**
 * Run one attempt of `callStructured` (lib/session/call.ts): build the invocation (a resume of
 * `out.sessionId` when `at.prompt` is given), write its files into `at.tmpDir`, spawn it with the
 * time left until `at.deadline`, parse the envelope (docs/providers.md, the adapter's section) and
 * hand
 * an answer to the decoder. The attempt's record is pushed onto `out.attempts` before the spawn;
 * the session id, model, cost (USD) and usage (tokens) are gathered into `out`.
 *
 * @param options the call's options
 * @param out the outcome being built (mutated)
 * @param at temp dir, attempt number (1 or 2), deadline (`performance.now()` ms), corrective prompt
 * @returns `ok` with the answer, `refused` with the refusal, or `stop` with a status and message
 * @throws when an adapter writes outside its temp dir, or what file writes throw; a decoder throw
 *   becomes a refusal (`{path: "", problem: "the answer could not be judged: <message>"}`)
 */
export async function runAttempt<T>(
  options: CallOptions<T, unknown>,
  out: CallOutcome<T>,
  at: AttemptAt,
): Promise<Step<T>> {
  const { signal } = options;
  const timeoutStep = timeoutOf<T>(options.timeoutMs);
  if (signal?.aborted) return { kind: "stop", status: "interrupted", message: "Interrupted" };
  const remaining = Math.floor(at.deadline - performance.now());
  if (remaining <= 0) return timeoutStep;
  const { invocation, record } = await prepareAttempt(options, out, at);
  const bound = options.adapter.toolBound
    ? new ToolBound(options.adapter.toolBound, options.request.maxTurns, signal)
    : undefined;
  const spawnedAtMs = Date.now();
  let result: ExecResult;
  try {
    result = keptOutput(
      await options.runner({
        cmd: options.bin,
        args: invocation.args,
        stdin: invocation.stdin,
        env: invocation.env,
        ...(invocation.clearEnv ? { clearEnv: true } : {}),
        cwd: invocation.cwd ?? at.setup.workdir,
        timeoutMs: remaining,
        signal: bound?.signal ?? signal,
        ...(bound ? { onStdout: bound.onStdout } : {}),
      }),
      bound,
    );
  } catch (error) {
    const missing = error instanceof SpawnError && error.cause instanceof Deno.errors.NotFound;
    const fallback = notExecutableText(error, options.bin) ??
      (error instanceof Error ? error.message : String(error));
    const message = missing ? options.missingBinaryMessage ?? fallback : fallback;
    record.message = message;
    return { kind: "stop", status: "provider-error", message };
  }
  Object.assign(record, {
    exitCode: result.code,
    durationMs: result.durationMs,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.truncated ? { truncated: true } : {}),
    ...(result.outputCutAfterExit ? { outputCutAfterExit: true } : {}),
  });
  if (bound?.tripped && !signal?.aborted) {
    record.message = bound.message(options.adapter.name);
    return { kind: "stop", status: "provider-error", message: record.message };
  }
  if (result.aborted || signal?.aborted) {
    record.outcome = "interrupted";
    return { kind: "stop", status: "interrupted", message: "Interrupted" };
  }
  if (result.timedOut) {
    record.outcome = "timeout";
    return timeoutStep;
  }
  const envelope = await readEnvelope(options.adapter, invocation, result);
  if (envelope.notices && envelope.notices.length > 0) record.notices = envelope.notices;
  const env = invocation.clearEnv ? invocation.env : { ...options.env, ...invocation.env };
  await collectMeta(options, out, envelope, { spawnedAtMs, env, root: at.setup.workdir });
  return await judge(options, record, envelope);
}

/** The result with the stdout the bound kept, when the runner streamed it (its own stdout empty). */
function keptOutput(result: ExecResult, bound: ToolBound | undefined): ExecResult {
  if (!bound || result.stdout.length > 0) return result;
  return { ...result, stdout: bound.stdout(), truncated: result.truncated || bound.truncated };
}

/** Which attempt to run: the call's setup, number (1 or 2), deadline, and the corrective prompt. */
export interface AttemptAt {
  /** The call's private dir, workdir and child setup. */
  setup: CallSetup;
  n: number;
  /** `performance.now()` ms by which both attempts must be over. */
  deadline: number;
  /** The corrective prompt; given only for the resume. */
  prompt?: string;
}

function timeoutOf<T>(timeoutMs: number): Step<T> {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return {
    kind: "stop",
    status: "timeout",
    message:
      `The provider did not finish within ${seconds} s: raise the timeout or review a smaller change`,
  };
}

/**
 * Build the invocation, write its files into the temp dir, and push the attempt's record (not yet
 * spawned: exit code -1, outcome "error") onto `out.attempts`.
 *
 * @throws when the adapter writes outside its temp dir, or what the file writes throw
 */
async function prepareAttempt<T>(
  options: CallOptions<T, unknown>,
  out: CallOutcome<T>,
  at: AttemptAt,
): Promise<{ invocation: Invocation; record: AttemptRun }> {
  const { adapter } = options;
  const invocation = adapter.buildInvocation({
    ...options.request,
    ...(at.prompt !== undefined ? { prompt: at.prompt, resumeSessionId: out.sessionId } : {}),
    tmpDir: at.setup.tmpDir,
    workdir: at.setup.workdir,
    child: at.setup.child,
    attempt: at.n,
  });
  for (const [path, content] of Object.entries(invocation.files)) {
    if (!path.startsWith(at.setup.tmpDir + "/")) {
      throw new Error(`Adapter "${adapter.name}" wrote outside its temp dir: "${path}"`);
    }
    await Deno.writeTextFile(path, content, { mode: 0o600 });
  }
  // counted, not encoded: a prompt is up to a whole part's diff
  const stdinBytes = invocation.stdin === null ? 0 : utf8Length(invocation.stdin);
  const record: AttemptRun = {
    n: at.n,
    argv: [options.bin, ...invocation.args],
    stdinBytes,
    exitCode: -1,
    durationMs: 0,
    outcome: "error",
    stdoutFile: `transcript/attempt-${at.n}.stdout`,
    stderrFile: `transcript/attempt-${at.n}.stderr`,
    stdout: new Uint8Array(),
    stderr: new Uint8Array(),
  };
  out.attempts.push(record);
  return { invocation, record };
}

/** Read back the invocation's files and let the adapter parse the output into an envelope. */
async function readEnvelope(
  adapter: ProviderAdapter,
  invocation: Invocation,
  result: ExecResult,
): Promise<Envelope> {
  const files: Record<string, string | null> = {};
  for (const path of invocation.readBack) {
    files[path] = await Deno.readTextFile(path).catch(() => null);
  }
  const decoder = new TextDecoder();
  return adapter.parseEnvelope({
    code: result.code,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
    files,
  });
}

async function judge<T>(
  options: CallOptions<T, unknown>,
  record: AttemptRun,
  envelope: Envelope,
): Promise<Step<T>> {
  if (envelope.outcome === "error") {
    record.message = envelope.message;
    return { kind: "stop", status: "provider-error", message: envelope.message };
  }
  const decision = envelope.outcome === "refused"
    ? { ok: false as const, refusal: [{ path: "", problem: envelope.problem }] }
    : await decodeSafely(
      options,
      envelope.value !== undefined ? { value: envelope.value } : { text: envelope.text ?? "" },
    );
  if (decision.ok) {
    record.outcome = "answer";
    return { kind: "ok", answer: decision.answer, notes: decision.notes };
  }
  record.outcome = "refused";
  record.refusal = decision.refusal;
  return { kind: "refused", refusal: decision.refusal };
}

/**
 * The decoder's decision, with a throw (a stack overflow on a hostile answer, a bug) turned into a
 * refusal of the whole answer, so the call goes on: corrective resume, then `invalid-answer`, and
 * the run is stored with its transcript.
 */
async function decodeSafely<T>(
  options: CallOptions<T, unknown>,
  input: { text: string } | { value: unknown },
): Promise<Decision<T>> {
  try {
    return await options.decode(input);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      refusal: [{ path: "", problem: `the answer could not be judged: ${message}` }],
    };
  }
}

async function collectMeta<T>(
  options: CallOptions<T, unknown>,
  out: CallOutcome<T>,
  envelope: Envelope,
  context: { spawnedAtMs: number; env: Record<string, string | undefined>; root: string },
): Promise<void> {
  let sessionId = envelope.sessionId;
  if (!sessionId && options.adapter.locateSession) {
    sessionId = await options.adapter.locateSession(context).catch(() => undefined);
  }
  if (sessionId) out.sessionId = sessionId;
  if (envelope.model) out.model = envelope.model;
  if (envelope.costUsd !== undefined) {
    // an attempt's own cost adds up; a session's running total is the largest seen
    out.costUsd = options.adapter.capabilities.attemptUsage
      ? (out.costUsd ?? 0) + envelope.costUsd
      : Math.max(out.costUsd ?? 0, envelope.costUsd);
  }
  if (envelope.usage) {
    out.usage = options.adapter.capabilities.attemptUsage
      ? addUsage(out.usage, envelope.usage)
      : latestUsage(out.usage, envelope.usage);
  }
}

/**
 * Add one attempt's own tokens to the call's (a provider with `capabilities.attemptUsage`). A field
 * absent from both stays absent.
 *
 * @param a the totals so far (or undefined)
 * @param b one attempt's own tokens
 * @returns the call's totals, tokens
 */
export function addUsage(a: Usage | undefined, b: Usage): Usage {
  const out: Usage = { ...a };
  for (
    const key of ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"] as const
  ) {
    if (b[key] !== undefined) out[key] = (out[key] ?? 0) + b[key];
  }
  return out;
}

/**
 * Merge a session's running token totals (provider.ts `EnvelopeMeta`): attempts of one call share
 * one session, each reports the totals so far, so the call's figure is the largest seen per field —
 * never the sum (a resume would count the first attempt twice), and never a smaller later figure
 * (an error envelope of a resume may report zeros). A field absent from both stays absent.
 *
 * @param a the totals so far (or undefined)
 * @param b one attempt's totals
 * @returns the call's totals, tokens
 */
export function latestUsage(a: Usage | undefined, b: Usage): Usage {
  const out: Usage = { ...a };
  for (
    const key of ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"] as const
  ) {
    if (b[key] !== undefined) out[key] = Math.max(out[key] ?? 0, b[key]);
  }
  return out;
}
