/**
 * review-gate's entry point and the only place that reads `Deno.args` and exits: builds the real
 * dependencies (runner, clock, environment, streams, interrupt signal), runs one command, and maps
 * the result to an exit code. Ctrl-C (SIGINT) or SIGTERM aborts the provider call (its process
 * group is killed), removes temp dirs and ends with 130; a second Ctrl-C exits at once.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { CliDeps, TextSink } from "./lib/cli/deps.ts";
import { isFastHookCall, runHook } from "./lib/cli/hook.ts";
import { runProcess } from "./lib/exec.ts";
import { cleanupAllTempDirs } from "./lib/tmpdir.ts";

function sink(file: typeof Deno.stdout): TextSink {
  const encoder = new TextEncoder();
  return {
    isTerminal: file.isTerminal(),
    write(text) {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    },
  };
}

async function main(): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) {
      cleanupAllTempDirs();
      Deno.exit(130);
    }
    controller.abort(new Error("interrupted"));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const deps: CliDeps = {
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    stdout: sink(Deno.stdout),
    stderr: sink(Deno.stderr),
    readStdin: async () => new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
    runner: runProcess,
    now: () => new Date(),
    signal: controller.signal,
    self: { execPath: Deno.execPath(), mainPath: fileURLToPath(import.meta.url) },
  };
  try {
    // Hooks run on every push and every Claude turn: skip loading the parser and the pipeline.
    const code = isFastHookCall(Deno.args)
      ? await runHook(Deno.args[1], Deno.args.slice(2), deps)
      : await (await import("./lib/cli/app.ts")).run(Deno.args, deps);
    return controller.signal.aborted && code !== 0 ? 130 : code;
  } finally {
    cleanupAllTempDirs();
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
