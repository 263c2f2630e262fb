/**
 * What a hook runtime gets and gives: stdin text, environment, cwd, runner and clock in; stdout,
 * stderr and an exit code out. Hook runtimes never throw and never exit; `lib/cli/hook.ts` writes
 * the result.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";

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
