/**
 * `review-gate hook pre-push <remote> <url>`, `hook claude-prompt`, `hook claude-stop`: the entry
 * points git and Claude Code call. `main.ts` sends these straight to {@linkcode runHook} without
 * loading the command-line parser or the review pipeline (they are the fast paths); `--help` goes
 * through commander like every other command.
 *
 * @module
 */
import { join } from "node:path";
import type { Command } from "commander";
import type { HookInput, HookOutput } from "../hooks/hook_io.ts";
import { hooksSwitchedOff } from "../hooks/hook_io.ts";
import { PRE_PUSH_SKIP_HINT } from "../hooks/decision.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
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
 * Run one hook: read stdin once, decide, write stdout/stderr. Never throws and never blocks on an
 * infrastructure error (invalid config, broken state dir, not a repository): see
 * {@linkcode renderHookFailure}.
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
  let output: HookOutput;
  try {
    const stdinText = new TextDecoder().decode(await deps.readStdin());
    output = await hookOutput(name, args, {
      stdinText,
      env: deps.env,
      cwd: deps.cwd,
      runner: deps.runner,
      now: deps.now,
      signal: deps.signal,
    });
  } catch (error) {
    const block = name === "pre-push" && await prePushBlocksOnError(deps);
    output = renderHookFailure(name, error, { block });
  }
  if (output.stdout) deps.stdout.write(output.stdout);
  if (output.stderr) deps.stderr.write(sanitizeForTerminal(output.stderr));
  return output.exitCode;
}

/**
 * True when the user asked for `gates.pre_push.on_error: "block"`. Read even when the config is
 * invalid elsewhere (a typo in another key, a bad `REVIEW_GATE_*` variable): the config files are
 * then read leniently, the repository's file winning over the user's, so a broken config can never
 * turn an explicit "block" into a silent pass.
 */
async function prePushBlocksOnError(deps: CliDeps): Promise<boolean> {
  try {
    const { resolveRepo } = await import("../git/repo.ts");
    const { loadConfig, REPO_CONFIG_FILE, userConfigPath } = await import("../config/config.ts");
    const repo = await resolveRepo(deps.runner, deps.cwd);
    try {
      const { config } = await loadConfig({ root: repo.root, env: deps.env });
      return config.gates.pre_push.on_error === "block";
    } catch {
      const { parse } = await import("jsonc-parser");
      let onError: unknown;
      for (const path of [userConfigPath(deps.env), join(repo.root, REPO_CONFIG_FILE)]) {
        if (!path) continue;
        try {
          const value = parse(await Deno.readTextFile(path), [], { allowTrailingComma: true });
          onError = value?.gates?.pre_push?.on_error ?? onError;
        } catch {
          // unreadable: keep what the other file said
        }
      }
      return onError === "block";
    }
  } catch {
    return false;
  }
}

/**
 * What a hook says when it failed before deciding (pure). pre-push: a loud one-paragraph warning on
 * stderr, exit 0 (exit 1 with the skip hint when `block`; 130 when interrupted). claude-stop: exit 0
 * with a `systemMessage` saying the turn was NOT reviewed. claude-prompt: exit 0, stderr only
 * (stdout would be added to Claude's context). No stack trace; control and bidi characters of the
 * error message are neutralised.
 *
 * @param error what was thrown; a `ConfigError` message names the file or variable and key
 * @param options `block`: `gates.pre_push.on_error` is `"block"`
 */
export function renderHookFailure(
  name: string,
  error: unknown,
  options: { block?: boolean } = {},
): HookOutput {
  const message = sanitizeForTerminal(error instanceof Error ? error.message : String(error));
  const isConfig = error instanceof Error && error.name === "ConfigError";
  const fix = isConfig && !/\bfix\b/i.test(message)
    ? ' Fix the configuration named above, or run "review-gate doctor".'
    : "";
  if (name === "pre-push") {
    if (error instanceof Error && error.name === "InterruptedError") {
      return {
        stdout: "",
        stderr: "review-gate: interrupted; the push is stopped\n",
        exitCode: 130,
      };
    }
    const outcome = options.block
      ? `The push is blocked because gates.pre_push.on_error is "block". ${PRE_PUSH_SKIP_HINT}`
      : "The push goes ahead unreviewed.";
    return {
      stdout: "",
      stderr: `review-gate: WARNING: the push was NOT reviewed: ${message}.${fix} ${outcome}\n`,
      exitCode: options.block ? 1 : 0,
    };
  }
  const text = `review-gate: WARNING: ${
    name === "claude-stop" ? "this turn was NOT reviewed" : "the turn's baseline was not recorded"
  }: ${message}.${fix}`;
  return {
    stdout: name === "claude-stop" ? JSON.stringify({ systemMessage: text }) + "\n" : "",
    stderr: text + "\n",
    exitCode: 0,
  };
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
