/**
 * The one subprocess seam. Every child process review-gate starts (git, the provider CLIs) goes
 * through a {@linkcode Runner}: argv arrays only (never a shell string), stdout and stderr piped and
 * bounded, a timeout or an abort signal that kills the child. Every child gets
 * {@linkcode CHILD_MARKER} (`REVIEW_GATE_CHILD=1`) in its environment, so a hook that git or a
 * provider CLI runs inside it skips instead of reviewing again (lib/gates/hook_io.ts).
 *
 * A child runs in its own process group (the default: provider CLIs, anything untrusted or
 * long-lived; killed with everything it started) or in review-gate's (git: spawned without a
 * fork, killed by pid): `ExecRequest.processGroup`, and lib/exec/children.ts for what a kill
 * means for each.
 *
 * An `"own"` child also gets a watchdog (lib/exec/watchdog.ts): when review-gate dies — even of
 * SIGKILL, which no handler sees — the watchdog ends the child's whole group.
 *
 * The result comes when the child exits, not when its output pipes close: a grandchild that keeps
 * stdout open (a `setsid` daemon, a background job) gets {@linkcode OUTPUT_GRACE_MS} to let go,
 * then the pipes are cancelled and the result says `outputCutAfterExit`. Every child alive right
 * now is in the registry of lib/exec/children.ts, so `main.ts` can kill them before it exits on a
 * second Ctrl-C; the bounded pipe reading is in lib/exec/output.ts.
 *
 * @module
 */
import {
  killGroup,
  killGroupOnly,
  type ProcessGroup,
  trackChild,
  untrackChild,
} from "./children.ts";
import { feedStdin, readBounded } from "./output.ts";
import { startTimer, type Timer } from "./timer.ts";
import { startWatchdog, type Watchdog } from "./watchdog.ts";

export type { ProcessGroup } from "./children.ts";

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
  /** Kill the child (SIGKILL, as `processGroup` says) after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Kill the child (SIGKILL, as `processGroup` says) when this signal aborts (Ctrl-C, a hook
   * deadline).
   */
  signal?: AbortSignal;
  /**
   * Which process group the child runs in. Default `"own"`.
   *
   * - `"own"`: a new session and process group (Deno's `detached`). The terminal's Ctrl-C never
   *   reaches it; a timeout or abort kills its whole group (`kill -KILL -pgid`), grandchildren
   *   included, and a grandchild still holding the pipes after {@linkcode OUTPUT_GRACE_MS} is
   *   killed with the rest of the group. For provider CLIs and anything that may run untrusted or
   *   long-lived work. Deno starts such a child through `fork`, which blocks review-gate for
   *   ~12 ms with a loaded heap.
   * - `"ours"`: review-gate's own process group, started with `posix_spawn` (~6 ms). For short,
   *   trusted calls: git. A timeout or abort kills the child alone, by pid, and only while its
   *   exit status is uncollected (never `-pid`, never our group); what it started (a clean filter,
   *   a credential helper) is in our group and is not killed: after the grace its pipes are
   *   cancelled. A signal sent to our group — the terminal's Ctrl-C, a `cancel` of a background
   *   job — reaches it too: when it dies of one of {@linkcode INTERRUPT_SIGNALS} and `signal` is
   *   given, the result waits up to {@linkcode INTERRUPT_WAIT_MS} for `signal` to abort (main.ts
   *   aborts on those signals) and then says `aborted`, so the caller sees an abort, not a failure.
   */
  processGroup?: ProcessGroup;
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
  /**
   * The signal that ended the child, whoever sent it (the code is then 128 + its number); absent
   * when it exited. Optional so injected runners may omit it.
   */
  signal?: Deno.Signal;
  /** True when the timeout killed it. */
  timedOut: boolean;
  /**
   * True when the abort signal killed it (for an `"ours"` child, also when an interrupt signal
   * that then aborted the request killed it: see `ExecRequest.processGroup`).
   */
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
 * How long, in milliseconds, {@linkcode runProcess} waits for the request's abort signal after an
 * `"ours"` child died of an interrupt signal ({@linkcode INTERRUPT_SIGNALS}) it did not send: the
 * same signal reached review-gate, whose handler (main.ts) aborts; only a signal sent to the child
 * alone waits this long in vain.
 */
export const INTERRUPT_WAIT_MS = 1000;

/**
 * The signals that interrupt review-gate (main.ts handles them): Ctrl-C, `kill`, the terminal
 * closing. Sent to a process group (a terminal's Ctrl-C, a `cancel` of a background job), they
 * reach every `"ours"` child too.
 */
export const INTERRUPT_SIGNALS: readonly Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Run a process to completion, with {@linkcode CHILD_MARKER} in its environment, in the process
 * group `request.processGroup` says (its JSDoc tells what a kill means for each).
 *
 * Output is read to EOF even past the cap while the child lives (closing early makes codex exit
 * 101, docs/providers.md "Codex argv"). Once the child has exited or been killed, the pipes get
 * {@linkcode OUTPUT_GRACE_MS} ms to reach EOF; if something still holds them (a grandchild, a
 * daemon), the pipes are cancelled (and the rest of an `"own"` child's group is killed) and the
 * result has `outputCutAfterExit: true` with the code the child itself exited with — a lingering
 * grandchild never turns a finished answer into a timeout.
 *
 * @param request what to run
 * @returns exit code, bounded output, duration in ms (spawn to exit), and whether it was killed
 * @throws {SpawnError} when the program is missing or not executable
 */
export async function runProcess(request: ExecRequest): Promise<ExecResult> {
  const started = performance.now();
  const limit = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const hasStdin = request.stdin !== null && request.stdin !== undefined;
  const group = request.processGroup ?? "own";
  const spawned = spawnWatched(request, group, hasStdin); // no await before trackChild
  if (spawned.child === undefined) throw await spawned.failure;
  const { child, watchdog } = spawned;
  const pid = child.pid;
  const killChild = () => sigkillHandle(child);
  // an "ours" child has no group of its own, and what it started is in ours: never a group kill
  const kill = group === "own" ? () => killGroup(pid) : killChild;
  const killRest = group === "own" ? () => killGroupOnly(pid) : () => {};
  trackChild(pid, { group, kill: killChild });
  let timedOut = false;
  let aborted = false;
  let exited = false;
  let cutNow: (() => void) | undefined;
  // web timers (lib/exec/timer.ts): the child's pending status keeps the process alive meanwhile
  const timer = request.timeoutMs !== undefined
    ? startTimer(request.timeoutMs, () => {
      timedOut = true;
      kill();
    })
    : undefined;
  const onAbort = () => {
    aborted = !exited;
    if (exited) killRest();
    else kill();
    cutNow?.();
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });

  const drains = [
    readBounded(child.stdout, limit, request.onStdout),
    readBounded(child.stderr, limit),
  ];
  if (hasStdin) drains.push(feedStdin(child, request.stdin as Uint8Array | string));
  let grace: Timer | undefined;
  try {
    const status = await child.status;
    exited = true;
    const durationMs = Math.round(performance.now() - started);
    timer?.clear();
    if (group === "ours" && !timedOut && !aborted && request.signal) {
      aborted = await abortedBy(status.signal, request.signal);
    }
    const drained = Promise.all(drains.map((d) => d.done)).then(() => true);
    const late = new Promise<boolean>((resolve) => {
      cutNow = () => resolve(false);
      grace = startTimer(OUTPUT_GRACE_MS, cutNow); // the pipes being read keep the process alive
    });
    const outputCutAfterExit = !(await Promise.race([drained, late]));
    if (outputCutAfterExit) {
      killRest(); // a grandchild of ours holds the pipes
      for (const d of drains) d.cancel();
    }
    const [out, err] = await Promise.all(drains.map((d) => d.done));
    return {
      code: status.signal ? 128 + signalNumber(status.signal) : status.code,
      ...(status.signal ? { signal: status.signal } : {}),
      stdout: out.bytes,
      stderr: err.bytes,
      durationMs,
      timedOut,
      aborted,
      truncated: out.truncated || err.truncated,
      ...(outputCutAfterExit ? { outputCutAfterExit } : {}),
    };
  } finally {
    timer?.clear();
    grace?.clear();
    request.signal?.removeEventListener("abort", onAbort);
    untrackChild(pid);
    await watchdog?.release();
  }
}

/** SIGKILL the child through its handle, which refuses once its status is collected. */
function sigkillHandle(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL"); // refused once the status is collected: the pid may not be ours
  } catch {
    // already reaped
  }
}

/** A started child (with its watchdog), or why it could not start, once its watchdog is released. */
type Spawned =
  | { child: Deno.ChildProcess; watchdog?: Watchdog }
  | { child?: undefined; failure: Promise<unknown> };

/**
 * Start the child; an `"own"` one — out of reach of whatever kills review-gate — with a watchdog
 * started just before it and told its pid just after (lib/exec/watchdog.ts). Synchronous, so the
 * caller tracks the child before anything else runs; when the child cannot start, `failure`
 * resolves to the SpawnError once the watchdog has exited.
 */
function spawnWatched(request: ExecRequest, group: ProcessGroup, hasStdin: boolean): Spawned {
  const watchdog = group === "own" ? startWatchdog() : undefined;
  try {
    const child = spawn(request, group, hasStdin);
    watchdog?.watch(child.pid);
    return { child, watchdog };
  } catch (error) {
    return { failure: (watchdog?.release() ?? Promise.resolve()).then(() => error) };
  }
}

/** Start the child (`detached` for an `"own"` group); a failure to start is a SpawnError. */
function spawn(request: ExecRequest, group: ProcessGroup, hasStdin: boolean): Deno.ChildProcess {
  try {
    return new Deno.Command(request.cmd, {
      args: [...request.args],
      cwd: request.cwd,
      env: { ...request.env, ...CHILD_MARKER },
      clearEnv: request.clearEnv === true,
      stdin: hasStdin ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      detached: group === "own",
    }).spawn();
  } catch (cause) {
    throw new SpawnError(request.cmd, { cause });
  }
}

/**
 * Whether an `"ours"` child that died of `signal` was stopped by the interrupt that aborts
 * `abort`: true once `abort` aborts within {@linkcode INTERRUPT_WAIT_MS} of a death by one of
 * {@linkcode INTERRUPT_SIGNALS}.
 */
function abortedBy(signal: Deno.Signal | null, abort: AbortSignal): Promise<boolean> {
  if (!signal || !INTERRUPT_SIGNALS.includes(signal)) return Promise.resolve(false);
  if (abort.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      abort.removeEventListener("abort", onAbort);
      resolve(false);
    }, INTERRUPT_WAIT_MS);
    abort.addEventListener("abort", onAbort, { once: true });
  });
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
