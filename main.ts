/**
 * review-gate's entry point and the only place that reads `Deno.args` and exits: builds the real
 * dependencies (runner, clock, environment, streams, interrupt signal), runs one command, and maps
 * the result to an exit code. Ctrl-C (SIGINT), SIGTERM or SIGHUP (terminal closed) aborts the
 * provider call (its process group is killed), removes temp dirs and ends with 130; a second
 * signal kills every child still running (lib/exec/children.ts) and removes temp dirs, and the run
 * still writes its record (bounded to a few seconds); a third exits at once. The provider CLIs run
 * in their own process groups, out of reach of the terminal's Ctrl-C; git runs in ours, so the
 * terminal's Ctrl-C reaches a running git too — the abort is still what decides: a git call that
 * dies of it reads as aborted (lib/exec/exec.ts), or is run again where it must finish
 * (lib/git/git.ts).
 *
 * @module
 */
import type { CliDeps, TextSink } from "./lib/cli/deps.ts";
import { isFastHookCall } from "./lib/cli/fast_hook.ts";
import { runHook } from "./lib/gates/run_hook.ts";
import { INTERRUPT_SIGNALS, runProcess } from "./lib/exec/exec.ts";
import { killAllChildren } from "./lib/exec/children.ts";
import { cleanupAllTempDirs } from "./lib/exec/tmpdir.ts";
import { ExitCode, ReviewGateError } from "./lib/base/errors.ts";
import { trace } from "./lib/base/trace.ts";
import { npmLauncher } from "./lib/install/npm_launcher.ts";

/**
 * A stream sink; once the reader has gone (`review-gate … | head`), further output is dropped. Any
 * other write failure (a full disk, `> /dev/full`) ends the command with a {@linkcode
 * ReviewGateError} (exit 3) saying the output could not be written; later writes are dropped.
 */
function sink(file: typeof Deno.stdout, name: string): TextSink {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(64 * 1024);
  let closed = false;
  return {
    isTerminal: file.isTerminal(),
    write(text) {
      if (closed) return;
      try {
        // encoded through one reused buffer, a slice at a time: a large output (the json envelope
        // of a 1M-line change: 12 MB) is never a second, encoded copy of itself
        for (let rest = text; rest.length > 0;) {
          const { read, written } = encoder.encodeInto(rest, buffer);
          for (let at = 0; at < written;) at += file.writeSync(buffer.subarray(at, written));
          rest = rest.slice(read);
        }
      } catch (error) {
        closed = true;
        if (!(error instanceof Deno.errors.BrokenPipe)) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new ReviewGateError(
            `Cannot write the output to ${name}: ${reason}`,
            ExitCode.couldNotRun,
            { cause: error },
          );
        }
      }
    },
  };
}

/**
 * Absolute path of this file, for the hook commands `install` writes. `import.meta.filename` is
 * Deno's own (no Node-compat `node:url` to load on every start); it is set for every local module,
 * a compiled binary's included.
 */
function mainPath(): string {
  const path = import.meta.filename;
  if (path === undefined) {
    throw new ReviewGateError(
      `review-gate must run from a local file, not ${import.meta.url}`,
      ExitCode.couldNotRun,
    );
  }
  return path;
}

/** The signals that interrupt a run: Ctrl-C, `kill`, and the terminal closing. */
export { INTERRUPT_SIGNALS };

/** How long the run may take, after a second signal, to finish its bookkeeping. */
export const SECOND_SIGNAL_GRACE_MS = 3000;

/**
 * Build the handler for {@linkcode INTERRUPT_SIGNALS}: the first signal aborts `controller` (the
 * running child is killed through its abort signal and the command ends with 130); the second
 * kills every child still running — a provider's whole process group, a git child (in our group,
 * so the terminal's Ctrl-C reached it already) by pid — and removes the temp dirs, then leaves the
 * run `graceMs` to finish its bookkeeping — `run.json` says "interrupted", the records line is
 * written — before `exit(130)`; a third signal calls `exit(130)` at once.
 *
 * @param controller aborted on the first signal
 * @param exit called with 130 (`Deno.exit` in production)
 * @param graceMs the bookkeeping's time after the second signal (default
 *   {@linkcode SECOND_SIGNAL_GRACE_MS})
 * @returns the listener to register for each signal
 */
export function interruptHandler(
  controller: AbortController,
  exit: (code: number) => void,
  graceMs = SECOND_SIGNAL_GRACE_MS,
): () => void {
  let interrupts = 0;
  return () => {
    interrupts++;
    if (interrupts === 1) {
      controller.abort(new Error("interrupted"));
    } else if (interrupts === 2) {
      killAllChildren();
      cleanupAllTempDirs();
      Deno.unrefTimer(setTimeout(() => exit(130), graceMs));
    } else {
      exit(130);
    }
  };
}

async function main(): Promise<number> {
  trace("main");
  const controller = new AbortController();
  const onSignal = interruptHandler(controller, (code) => Deno.exit(code));
  for (const signal of INTERRUPT_SIGNALS) Deno.addSignalListener(signal, onSignal);
  const env = Deno.env.toObject();
  const cwd = Deno.cwd();
  // `review` resolves the repository first thing: its `git rev-parse` runs while the CLI loads
  const repoAhead = Deno.args[0] === "review"
    ? import("./lib/git/repo.ts").then((m) => m.resolveRepo(runProcess, cwd))
    : undefined;
  repoAhead?.catch(() => {}); // thrown where the review uses it
  const self = { execPath: Deno.execPath(), mainPath: mainPath() };
  const deps: CliDeps = {
    cwd,
    env,
    stdout: sink(Deno.stdout, "stdout"),
    stderr: sink(Deno.stderr, "stderr"),
    readStdin: async () => new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
    runner: runProcess,
    now: () => new Date(),
    signal: controller.signal,
    self: { ...self, launcher: npmLauncher(env, self.mainPath) },
    ...(repoAhead ? { repoAhead } : {}),
  };
  try {
    // Hooks run on every push and every Claude turn: skip loading the parser and the pipeline.
    const code = isFastHookCall(Deno.args)
      ? await runHook(Deno.args[1], Deno.args.slice(2), deps)
      : await (await import("./lib/cli/app.ts").finally(() => trace("app.ts loaded"))).run(
        Deno.args,
        deps,
      );
    return controller.signal.aborted && code !== 0 ? 130 : code;
  } finally {
    cleanupAllTempDirs();
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
