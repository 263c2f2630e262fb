/**
 * `review-gate hook pre-push <remote> <url>`, `hook claude-prompt|claude-stop|claude-guard|claude-work`,
 * `hook codex-prompt|codex-stop|codex-work`, `hook copilot-…`, `hook qwen-…`, `hook
 * gemini-prompt|gemini-stop|gemini-work`: the entry points git, Claude Code, Codex, Copilot, Qwen
 * Code and Gemini CLI call (the background workers, `claude-worker`, `codex-worker`,
 * `copilot-worker`, `qwen-worker` and `gemini-worker`, are started by the tool hooks, never by
 * a user, and are left out of help). `main.ts` sends
 * a plain hook call straight to lib/gates/run_hook.ts without loading this file or the parser (the
 * fast path, lib/cli/fast_hook.ts); `--help` and a call the fast path does not take go through the
 * parser like every other command. The hooks themselves are listed in lib/gates/registry.ts.
 *
 * @module
 */
import { buildRouteMap } from "@stricli/core";
import { runHook } from "../gates/run_hook.ts";
import { type CliContext, type CommandRoutes, defineCommand, text } from "./command.ts";

/** A hook that takes no argument. */
function plainHook(name: string, brief: string) {
  return defineCommand({
    docs: { brief },
    parameters: {},
    async func(this: CliContext) {
      this.setExit(await runHook(name, [], this.deps));
    },
  });
}

/** A Claude Code hook that takes `--source`. */
function sourcedHook(name: string, brief: string) {
  return defineCommand({
    docs: { brief },
    parameters: {
      flags: {
        source: text("where", "settings (the default) or plugin: where the hook is installed"),
      },
    },
    async func(this: CliContext, flags: { source?: string }) {
      const args = flags.source === undefined ? [] : ["--source", flags.source];
      this.setExit(await runHook(name, args, this.deps));
    },
  });
}

const prePush = defineCommand({
  docs: {
    brief: "git pre-push gate: review the pushed commits (stdin: git's ref lines); exit 1 blocks",
  },
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "remote", brief: "remote name (or URL) as git passes it", parse: String },
        { placeholder: "url", brief: "remote URL as git passes it", parse: String, optional: true },
      ],
    },
  },
  async func(this: CliContext, _flags: NonNullable<unknown>, remote: string, url?: string) {
    this.setExit(await runHook("pre-push", [remote, url ?? remote], this.deps));
  },
});

/** `hook` and its subcommands (for help and full parsing). */
export const hookRoutes: CommandRoutes = {
  hook: buildRouteMap({
    docs: { brief: 'Entry points called by git and Claude Code (installed by "install")' },
    routes: {
      "pre-push": prePush,
      "claude-prompt": sourcedHook(
        "claude-prompt",
        "Claude Code UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
      ),
      "claude-stop": sourcedHook(
        "claude-stop",
        "Claude Code Stop hook: review the turn's changes; block on blocking findings",
      ),
      "claude-guard": plainHook(
        "claude-guard",
        "Claude Code PreToolUse hook on Bash: refuse commands that skip or switch off the gates",
      ),
      "claude-work": sourcedHook(
        "claude-work",
        "Claude Code PostToolUse hook: review the turn's parts while the agent works (stdin: hook payload)",
      ),
      "codex-prompt": plainHook(
        "codex-prompt",
        "Codex UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
      ),
      "codex-stop": plainHook(
        "codex-stop",
        "Codex Stop hook: review the turn's changes; block on blocking findings",
      ),
      "codex-work": plainHook(
        "codex-work",
        "Codex PostToolUse hook: review the turn's parts while the agent works (stdin: hook payload)",
      ),
      "copilot-prompt": plainHook(
        "copilot-prompt",
        "GitHub Copilot CLI UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
      ),
      "copilot-stop": plainHook(
        "copilot-stop",
        "GitHub Copilot CLI Stop hook: review the turn's changes; block on blocking findings",
      ),
      "copilot-work": plainHook(
        "copilot-work",
        "GitHub Copilot CLI PostToolUse hook: review the turn's parts while the agent works (stdin: hook payload)",
      ),
      "qwen-prompt": plainHook(
        "qwen-prompt",
        "Qwen Code UserPromptSubmit hook: record the turn's baseline (stdin: hook payload)",
      ),
      "qwen-stop": plainHook(
        "qwen-stop",
        "Qwen Code Stop hook: review the turn's changes; block on blocking findings",
      ),
      "qwen-work": plainHook(
        "qwen-work",
        "Qwen Code PostToolUse hook: review the turn's parts while the agent works (stdin: hook payload)",
      ),
      "gemini-prompt": plainHook(
        "gemini-prompt",
        "Gemini CLI BeforeAgent hook: record the turn's baseline (stdin: hook payload)",
      ),
      "gemini-stop": plainHook(
        "gemini-stop",
        "Gemini CLI AfterAgent hook: review the turn's changes; block on blocking findings",
      ),
      "gemini-work": plainHook(
        "gemini-work",
        "Gemini CLI AfterTool hook: review the turn's parts while the agent works (stdin: hook payload)",
      ),
    },
  }),
};
