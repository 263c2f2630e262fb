/**
 * The provider CLI versions the contract suite is pinned to. Keep in sync with
 * scripts/install_provider_clis.sh; `version_guard_test.ts` fails when the installed CLIs differ.
 * Source: README "Tested with" (tested with Claude Code 2.1.332, codex-cli 0.171.0, Qwen Code
 * 0.15.10, Gemini CLI 0.61.0, GitHub Copilot CLI 1.0.102, OpenCode 1.18.33).
 *
 * @module
 */

/** Pinned npm versions. */
export const PINNED = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332", bin: "claude" },
  codex: { pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  // the 0.15 line is the newest that runs on Node 20 (later lines need Node >= 22)
  qwen: { pkg: "@qwen-code/qwen-code", version: "0.15.10", bin: "qwen" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
  // a native binary per platform (optional dependencies), copied into bin/ by its install script
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
} as const;
