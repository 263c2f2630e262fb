/**
 * `review-gate hook pre-push <remote> <url>`, `hook claude-prompt`, `hook claude-stop`: the entry
 * points git and Claude Code call. `main.ts` sends these straight to {@linkcode runHook} without
 * loading the command-line parser or the review pipeline (they are the fast paths); `--help` goes
 * through commander like every other command.
 *
 * @module
 */
import type { Command } from "commander";
import type { HookInput, HookOutput } from "../hooks/hook_io.ts";
import { hooksSwitchedOff } from "../hooks/hook_io.ts";
import type { CliDeps } from "./deps.ts";

/** The hook names. */
export const HOOK_NAMES = ["pre-push", "claude-prompt", "claude-stop"] as const;

/**
 * True when argv is a plain hook call that can take the fast path (no help flags).
 *
 * @param args argv without the program name
 */
export function isFastHookCall(args: readonly string[]): boolean {
  return args[0] === "hook" && (HOOK_NAMES as readonly string[]).includes(args[1]) &&
    !args.some((a) => a === "-h" || a === "--help");
}

async function hookOutput(
  name: string,
  args: readonly string[],
  input: HookInput,
): Promise<HookOutput> {
  switch (name) {
    case "pre-push": {
      const { runPrePushGate } = await import("../hooks/pre_push_gate.ts");
      return runPrePushGate(input, { remote: args[0] ?? "", url: args[1] ?? args[0] ?? "" });
    }
    case "claude-prompt": {
      const { runPromptHook } = await import("../hooks/stop_gate.ts");
      return runPromptHook(input);
    }
    default: {
      const { runStopGate } = await import("../hooks/stop_gate.ts");
      return runStopGate(input);
    }
  }
}

/**
 * Run one hook: read stdin once, decide, write stdout/stderr.
 *
 * @param name one of {@linkcode HOOK_NAMES}
 * @param args the hook's own arguments (pre-push: remote, url)
 * @returns the exit code
 */
export async function runHook(
  name: string,
  args: readonly string[],
  deps: CliDeps,
): Promise<number> {
  if (hooksSwitchedOff(deps.env)) return 0; // before reading stdin or touching git
  const stdinText = new TextDecoder().decode(await deps.readStdin());
  const output = await hookOutput(name, args, {
    stdinText,
    env: deps.env,
    cwd: deps.cwd,
    runner: deps.runner,
    now: deps.now,
    signal: deps.signal,
  });
  if (output.stdout) deps.stdout.write(output.stdout);
  if (output.stderr) deps.stderr.write(output.stderr);
  return output.exitCode;
}

/** Register `hook` and its subcommands on the program (for help and full parsing). */
export function registerHook(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  const hook = program.command("hook").description(
    'Entry points called by git and Claude Code (installed by "install")',
  );
  hook.command("pre-push")
    .description(
      "git pre-push gate: review the pushed commits (stdin: git's ref lines); exit 1 blocks",
    )
    .argument("<remote>", "remote name (or URL) as git passes it")
    .argument("[url]", "remote URL as git passes it")
    .action(async (remote: string, url: string | undefined) => {
      setExit(await runHook("pre-push", [remote, url ?? remote], deps));
    });
  hook.command("claude-prompt")
    .description(
      "Claude Code UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
    )
    .action(async () => setExit(await runHook("claude-prompt", [], deps)));
  hook.command("claude-stop")
    .description("Claude Code Stop hook: review the turn's changes; block on blocking findings")
    .action(async () => setExit(await runHook("claude-stop", [], deps)));
}
