/**
 * The one subprocess seam. Every child process review-gate starts (git, the provider CLIs) goes
 * through a {@linkcode Runner}: argv arrays only (never a shell string), stdout and stderr piped and
 * bounded, a timeout or an abort signal that kills the child's whole process group. Every child
 * gets {@linkcode CHILD_MARKER} (`REVIEW_GATE_CHILD=1`) in its environment, so a hook that git or
 * a provider CLI runs inside it skips instead of reviewing again (lib/gates/hook_io.ts).
 *
 * The result comes when the child exits, not when its output pipes close: a grandchild that keeps
 * stdout open (a `setsid` daemon, a background job) gets {@linkcode OUTPUT_GRACE_MS} to let go,
 * then the pipes are cancelled and the result says `outputCutAfterExit`. Every child alive right
 * now is in the registry of lib/exec/children.ts, so `main.ts` can kill their groups before it
 * exits on a second Ctrl-C; the bounded pipe reading is in lib/exec/output.ts.
 *
 * @module
 */
import { killGroup, killGroupOnly, trackChild, untrackChild } from "./children.ts";
import { feedStdin, readBounded } from "./output.ts";

/** What to run. */
export interface ExecRequest {
  /** Program to start: a name looked up on PATH or an absolute path. */
  cmd: string;
  /** Arguments, passed verbatim (no shell). */
  args: readonly string[];
  /** Working directory; default the current one. */
  cwd?: string;
  /**
   * Extra environment variables, merged over the parent's environment; {@linkcode runProcess}
   * adds {@linkcode CHILD_MARKER} over these.
   */
  env?: Record<string, string>;
  /**
   * True: `env` (plus {@linkcode CHILD_MARKER}) is the child's whole environment; nothing of the
   * parent's passes (the provider children get an allowlist, lib/providers/child_env.ts).
   */
  clearEnv?: boolean;
  /** Bytes or text written to stdin, then closed; `null` gives the child no stdin at all. */
  stdin?: Uint8Array | string | null;
  /** Kill the process group after this many milliseconds. */
  timeoutMs?: number;
  /** Kill the process group when this signal aborts (Ctrl-C, a hook deadline). */
  signal?: AbortSignal;
  /** Keep at most this many bytes of stdout and of stderr each (the rest is read and dropped). Default 64 MiB. */
  maxOutputBytes?: number;
  /**
   * Stream stdout instead of keeping it: each chunk is handed over as it is read, in order, and the
   * result's `stdout` is empty. The callback must be quick and synchronous (the output grace after
   * exit, {@linkcode OUTPUT_GRACE_MS}, covers what is still in the pipe). A runner that cannot
   * stream may ignore it and return `stdout` as usual: callers handle both (lib/git/git.ts
   * `streamGit`). A chunk is valid only during the call (its buffer is reused): copy what you keep.
   */
  onStdout?: (chunk: Uint8Array) => void;
}

/** What happened. */
export interface ExecResult {
  /** Exit code; 128+n when killed by signal n; -1 when it could not be started. */
  code: number;
  /** Raw stdout bytes (at most `maxOutputBytes`). */
  stdout: Uint8Array;
  /** Raw stderr bytes (at most `maxOutputBytes`). */
  stderr: Uint8Array;
  /** Wall time from spawn to exit, milliseconds. */
  durationMs: number;
  /** True when the timeout killed it. */
  timedOut: boolean;
  /** True when the abort signal killed it. */
  aborted: boolean;
  /** True when stdout or stderr went past `maxOutputBytes` and was cut. */
  truncated: boolean;
  /**
   * True when the child had exited (or was killed) but something else still held stdout or stderr
   * open after {@linkcode OUTPUT_GRACE_MS}: the pipes were cancelled, the output may lack its end.
   * Absent (or false) when both pipes reached EOF. Optional so injected runners may omit it.
   */
  outputCutAfterExit?: boolean;
}

/** A function that runs one process to completion. Tests may inject their own. */
export type Runner = (request: ExecRequest) => Promise<ExecResult>;

/** Thrown by {@linkcode runProcess} when the program does not exist or cannot be executed. */
export class SpawnError extends Error {
  /** The program that could not be started. */
  readonly cmd: string;
  constructor(cmd: string, options?: ErrorOptions) {
    super(
      `Cannot start "${cmd}": ${(options?.cause as Error | undefined)?.message ?? "unknown error"}`,
      options,
    );
    this.name = "SpawnError";
    this.cmd = cmd;
  }
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Environment {@linkcode runProcess} gives every child: `REVIEW_GATE_CHILD=1` marks it as started
 * by review-gate, so our own hooks inside it (a provider CLI's Stop hook, git's pre-push) skip.
 */
export const CHILD_MARKER: Readonly<Record<string, string>> = { REVIEW_GATE_CHILD: "1" };

/**
 * How long, in milliseconds, stdout and stderr may stay open after the child exited (or was
 * killed) before {@linkcode runProcess} cancels them and returns what it read. A child's own
 * output is in the pipe by the time it exits; only a grandchild that inherited the pipes (a
 * daemon, a background job) keeps them open longer, and waiting for it would hold the answer,
 * Ctrl-C and the hook deadline hostage.
 */
export const OUTPUT_GRACE_MS = 1000;

/**
 * Run a process to completion in its own process group, with {@linkcode CHILD_MARKER} in its
 * environment.
 *
 * The child is started `detached` (a new process group), so a timeout or abort kills it together
 * with everything it spawned (`kill -KILL -pgid`). Output is read to EOF even past the cap while
 * the child lives (closing early makes codex exit 101, PROVIDERS.md). Once the child has exited or
 * been killed, the pipes get {@linkcode OUTPUT_GRACE_MS} ms to reach EOF; if something still holds
 * them (a grandchild, a daemon), the rest of the child's group is killed, the pipes are cancelled
 * and the result has `outputCutAfterExit: true` with the code the child itself exited with — a
 * lingering grandchild never turns a finished answer into a timeout.
 *
 * @param request what to run
 * @returns exit code, bounded output, duration in ms (spawn to exit), and whether it was killed
 * @throws {SpawnError} when the program is missing or not executable
 */
export async function runProcess(request: ExecRequest): Promise<ExecResult> {
  const started = performance.now();
  const limit = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const hasStdin = request.stdin !== null && request.stdin !== undefined;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(request.cmd, {
      args: [...request.args],
      cwd: request.cwd,
      env: { ...request.env, ...CHILD_MARKER },
      clearEnv: request.clearEnv === true,
      stdin: hasStdin ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (cause) {
    throw new SpawnError(request.cmd, { cause });
  }
  const pid = child.pid;
  trackChild(pid);
  let timedOut = false;
  let aborted = false;
  let exited = false;
  let cutNow: (() => void) | undefined;
  const timer = request.timeoutMs !== undefined
    ? setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, request.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = !exited;
    if (exited) killGroupOnly(pid);
    else killGroup(pid);
    cutNow?.();
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });

  const drains = [
    readBounded(child.stdout, limit, request.onStdout),
    readBounded(child.stderr, limit),
  ];
  if (hasStdin) drains.push(feedStdin(child, request.stdin as Uint8Array | string));
  let grace: ReturnType<typeof setTimeout> | undefined;
  try {
    const status = await child.status;
    exited = true;
    const durationMs = Math.round(performance.now() - started);
    if (timer !== undefined) clearTimeout(timer);
    const drained = Promise.all(drains.map((d) => d.done)).then(() => true);
    const late = new Promise<boolean>((resolve) => {
      cutNow = () => resolve(false);
      grace = setTimeout(cutNow, OUTPUT_GRACE_MS);
    });
    const outputCutAfterExit = !(await Promise.race([drained, late]));
    if (outputCutAfterExit) {
      killGroupOnly(pid); // a grandchild of ours holds the pipes
      for (const d of drains) d.cancel();
    }
    const [out, err] = await Promise.all(drains.map((d) => d.done));
    return {
      code: status.signal ? 128 + signalNumber(status.signal) : status.code,
      stdout: out.bytes,
      stderr: err.bytes,
      durationMs,
      timedOut,
      aborted,
      truncated: out.truncated || err.truncated,
      ...(outputCutAfterExit ? { outputCutAfterExit } : {}),
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (grace !== undefined) clearTimeout(grace);
    request.signal?.removeEventListener("abort", onAbort);
    untrackChild(pid);
  }
}

function signalNumber(signal: Deno.Signal): number {
  const table: Partial<Record<Deno.Signal, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGQUIT: 3,
    SIGKILL: 9,
    SIGSEGV: 11,
    SIGPIPE: 13,
    SIGTERM: 15,
  };
  return table[signal] ?? 1;
}
