/**
 * OpenCode's facts as data (docs/providers.md "OpenCode"): what the registry, the command line, a
 * verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** OpenCode: npm `opencode-ai` (a native binary per platform, copied by its install script). */
export const OPENCODE_META = {
  name: "opencode",
  defaultBin: "opencode",
  binEnv: "REVIEW_GATE_OPENCODE_BIN",
  installHint: "npm i -g opencode-ai@1.18.33",
  // `opencode run` has no schema flag: the canonical schema goes into the prompt, the decoder
  // judges the answer
  dialect: "canonical",
  // the prompt goes on stdin
  maxPromptBytes: null,
  // its own settings (OPENCODE_CONFIG, OPENCODE_CONFIG_CONTENT, OPENCODE_PERMISSION…) and the
  // provider keys its child takes (lib/providers/opencode/child.ts OPENCODE_KEY_VARS)
  reviewerVars: {
    names: ["OPENROUTER_API_KEY", "GROQ_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY"],
    prefixes: ["OPENCODE_"],
  },
  // nothing whatever its flags say (docs/providers.md "OpenCode read-only recipe"):
  // OPENCODE_DISABLE_PROJECT_CONFIG=1 drops opencode.json(c), .opencode/ (agents, plugins,
  // skills, commands) and AGENTS.md/CLAUDE.md of the copy and every folder above it;
  // OPENCODE_DISABLE_CLAUDE_CODE=1 drops ~/.claude and the copy's .claude/ skills
  projectFiles: { files: [], dirs: [] },
} as const satisfies ProviderMeta;
