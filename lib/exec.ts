/**
 * The one subprocess seam. Every child process review-gate starts (git, the provider CLIs) goes
 * through a {@linkcode Runner}: argv arrays only (never a shell string), stdout and stderr piped and
 * bounded, a timeout or an abort signal that kills the child's whole process group.
 *
 * @module
 */

/** What to run. */
export interface ExecRequest {
  /** Program to start: a name looked up on PATH or an absolute path. */
  cmd: string;
  /** Arguments, passed verbatim (no shell). */
  args: readonly string[];
  /** Working directory; default the current one. */
  cwd?: string;
  /** Extra environment variables, merged over the parent's environment. */
  env?: Record<string, string>;
  /** Bytes or text written to stdin, then closed; `null` gives the child no stdin at all. */
  stdin?: Uint8Array | string | null;
  /** Kill the process group after this many milliseconds. */
  timeoutMs?: number;
  /** Kill the process group when this signal aborts (Ctrl-C, a hook deadline). */
  signal?: AbortSignal;
  /** Keep at most this many bytes of stdout and of stderr each (the rest is read and dropped). Default 64 MiB. */
  maxOutputBytes?: number;
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

async function readBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (size >= limit) {
      truncated = true;
      continue; // keep draining: closing early makes codex exit 101 (PROVIDERS.md)
    }
    const room = limit - size;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      truncated = true;
    } else {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes, truncated };
}

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL"); // the child leads its own process group (detached)
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Run a process to completion in its own process group.
 *
 * The child is started `detached` (a new process group), so a timeout or abort kills it together
 * with everything it spawned (`kill -KILL -pgid`). Output is read to EOF even past the cap.
 *
 * @param request what to run
 * @returns exit code, bounded output, duration in ms, and whether it was killed
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
      env: request.env,
      stdin: hasStdin ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (cause) {
    throw new SpawnError(request.cmd, { cause });
  }
  let timedOut = false;
  let aborted = false;
  const timer = request.timeoutMs !== undefined
    ? setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    killGroup(child.pid);
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });

  const writeStdin = async () => {
    if (!hasStdin) return;
    const data = typeof request.stdin === "string"
      ? new TextEncoder().encode(request.stdin)
      : request.stdin as Uint8Array;
    const writer = child.stdin.getWriter();
    try {
      await writer.write(data);
      await writer.close();
    } catch {
      // the child closed stdin early (or died): its exit code tells the story
    }
  };
  try {
    const [out, err, status] = await Promise.all([
      readBounded(child.stdout, limit),
      readBounded(child.stderr, limit),
      child.status,
      writeStdin(),
    ]);
    return {
      code: status.signal ? 128 + signalNumber(status.signal) : status.code,
      stdout: out.bytes,
      stderr: err.bytes,
      durationMs: Math.round(performance.now() - started),
      timedOut,
      aborted,
      truncated: out.truncated || err.truncated,
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
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
