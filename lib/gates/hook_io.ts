/**
 * What a hook runtime gets and gives: stdin text, environment, cwd, runner and clock in; stdout,
 * stderr and an exit code out; the skip switches; the shared wording of a hook's failure
 * ({@linkcode hookFailureText}, {@linkcode describeFailure}); and {@linkcode HookEntry}, what each hook's entry
 * module gives the registry (lib/gates/registry.ts). Hook runtimes never exit;
 * lib/gates/run_hook.ts writes the result.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";

/** Inputs of a hook runtime. */
export interface HookInput {
  /** All of stdin, read once (decoded as UTF-8). */
  stdinText: string;
  env: Record<string, string | undefined>;
  /** The process cwd (Claude hooks prefer the payload's `cwd`). */
  cwd: string;
  runner: Runner;
  now: () => Date;
  /** Aborted on SIGINT/SIGTERM. */
  signal?: AbortSignal;
  /** This review-gate (`Deno.execPath()` and main.ts), for a hook that starts it again. */
  self?: { execPath: string; mainPath?: string; launcher?: string };
}

/** What a hook runtime decided. */
export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Allow silently. */
export const ALLOW: HookOutput = Object.freeze({ stdout: "", stderr: "", exitCode: 0 });

const SKIP_VALUES = new Set(["0", "false", "off", "no"]);

/**
 * True when `REVIEW_GATE` is the user's skip switch: `0`, `false`, `off` or `no`, in any case, with
 * surrounding spaces ignored (the generated shell stub only checks `0`; the rest is caught here).
 */
export function reviewGateSkips(env: Record<string, string | undefined>): boolean {
  const value = env.REVIEW_GATE;
  return value !== undefined && SKIP_VALUES.has(value.trim().toLowerCase());
}

/**
 * True when every hook must return at once: `REVIEW_GATE=0` (or `false`/`off`/`no`, see
 * {@linkcode reviewGateSkips}; the user's skip switch) or `REVIEW_GATE_CHILD=1` (we are inside a
 * provider that review-gate started: recursion guard).
 */
export function hooksSwitchedOff(env: Record<string, string | undefined>): boolean {
  return reviewGateSkips(env) || env.REVIEW_GATE_CHILD === "1";
}

/** What a hook's entry module gives: how to decide, and what to say when deciding threw. */
export interface HookEntry {
  /**
   * Decide. May throw: {@linkcode HookEntry.failed} then answers.
   *
   * @param input stdin, env, cwd, runner, clock, signal
   * @param args the hook's own arguments (pre-push: remote, url)
   */
  run(input: HookInput, args: readonly string[]): Promise<HookOutput>;
  /**
   * What the hook says when `run` threw: never a block on an infrastructure error unless the user
   * asked for it (pre-push `on_error: "block"`). Never throws.
   */
  failed(error: unknown, input: HookInput): Promise<HookOutput>;
}

/**
 * The failure as one sentence for a warning.
 *
 * @param error what was thrown; a `ConfigError` message names the file or variable and key
 * @returns `<message>.` plus, for a config error whose message does not already say how, ` Fix the
 *   configuration named above, or run "review-gate doctor".`
 */
export function hookFailureText(error: unknown): string {
  const message = sanitizeForTerminal(error instanceof Error ? error.message : String(error));
  const isConfig = error instanceof Error && error.name === "ConfigError";
  const fix = isConfig && !/\bfix\b/i.test(message)
    ? ' Fix the configuration named above, or run "review-gate doctor".'
    : "";
  return `${message}.${fix}`;
}

/**
 * What failed, for a message: the error's message plus, for a git failure, the stderr lines the
 * message leaves out (lib/git/git.ts keeps only the last stderr line, e.g. "fatal: adding files
 * failed", while the line naming the offending file comes before it).
 *
 * @param error anything thrown; a `stderr` string property is read when present
 * @returns one line (at most the last 3 extra stderr lines are added)
 */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = (error as { stderr?: unknown } | null)?.stderr;
  if (typeof stderr !== "string") return message;
  const more = stderr.split("\n").map((l) => l.trim()).filter((l) => l && !message.includes(l));
  return more.length ? `${message} (git: ${more.slice(-3).join("; ")})` : message;
}
