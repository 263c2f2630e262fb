/**
 * `review-gate hook pre-push <remote> <url>`, `hook claude-prompt|claude-stop|claude-guard`,
 * `hook codex-prompt|codex-stop`: the entry points git, Claude Code and Codex call. `main.ts` sends a plain hook call straight to lib/gates/run_hook.ts
 * without loading the command-line parser or the review pipeline (the fast path, see
 * {@linkcode isFastHookCall}); `--help` goes through commander like every other command. The hooks
 * themselves are listed in lib/gates/registry.ts.
 *
 * @module
 */
import type { Command } from "commander";
import { isHookName } from "../gates/registry.ts";
import { runHook } from "../gates/run_hook.ts";
import type { CliDeps } from "./deps.ts";

/**
 * True when argv is a plain hook call that can take the fast path (no help flags).
 *
 * @param args argv without the program name
 */
export function isFastHookCall(args: readonly string[]): boolean {
  return args[0] === "hook" && isHookName(args[1]) &&
    !args.some((a) => a === "-h" || a === "--help");
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
  const source = [
    "--source <where>",
    "settings (the default) or plugin: where the hook is installed",
  ];
  hook.command("claude-prompt")
    .description(
      "Claude Code UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
    )
    .option(source[0], source[1])
    .action(async (flags: { source?: string }) =>
      setExit(await runHook("claude-prompt", sourceArgs(flags), deps))
    );
  hook.command("claude-stop")
    .description("Claude Code Stop hook: review the turn's changes; block on blocking findings")
    .option(source[0], source[1])
    .action(async (flags: { source?: string }) =>
      setExit(await runHook("claude-stop", sourceArgs(flags), deps))
    );
  hook.command("claude-guard")
    .description(
      "Claude Code PreToolUse hook on Bash: refuse commands that skip or switch off the gates",
    )
    .action(async () => setExit(await runHook("claude-guard", [], deps)));
  hook.command("codex-prompt")
    .description("Codex UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)")
    .action(async () => setExit(await runHook("codex-prompt", [], deps)));
  hook.command("codex-stop")
    .description("Codex Stop hook: review the turn's changes; block on blocking findings")
    .action(async () => setExit(await runHook("codex-stop", [], deps)));
}

function sourceArgs(flags: { source?: string }): string[] {
  return flags.source === undefined ? [] : ["--source", flags.source];
}
