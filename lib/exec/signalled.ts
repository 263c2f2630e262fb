/**
 * A runner whose every request carries an abort signal, so an abort kills the child
 * (lib/exec/exec.ts `runProcess`). For git calls that only read, which may die on an abort.
 *
 * @module
 */
import type { ExecRequest, Runner } from "./exec.ts";

/** `runner` with `signal` added to every request that has none (so an abort kills the child). */
export function signalled(runner: Runner, signal: AbortSignal | undefined): Runner {
  if (!signal) return runner;
  return (request: ExecRequest) => runner({ ...request, signal: request.signal ?? signal });
}
