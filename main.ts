/**
 * review-gate's entry point and the only place that reads `Deno.args` and exits: builds the real
 * dependencies (runner, clock, environment, streams, interrupt signal), runs one command, and maps
 * the result to an exit code. Ctrl-C (SIGINT) or SIGTERM aborts the provider call (its process
 * group is killed), removes temp dirs and ends with 130; a second Ctrl-C exits at once.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { run } from "./lib/cli/app.ts";
import type { CliDeps, TextSink } from "./lib/cli/deps.ts";
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

/** How this program is started again by installed hooks: the compiled binary, or deno run main.ts. */
function selfCommand(): string[] {
  const exe = Deno.execPath();
  const isDeno = /(^|\/)deno$/.test(exe);
  if (!isDeno) return [exe];
  return [exe, "run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", fileURLToPath(import.meta.url)];
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
    selfCommand: selfCommand(),
  };
  try {
    const code = await run(Deno.args, deps);
    return controller.signal.aborted && code !== 0 ? 130 : code;
  } finally {
    cleanupAllTempDirs();
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
