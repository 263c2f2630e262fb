/**
 * Claude Code's facts as data (docs/providers.md "Claude Code"): what the registry, the command
 * line, a verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** Claude Code: npm `@anthropic-ai/claude-code`, binary `claude`. */
export const CLAUDE_META = {
  name: "claude",
  defaultBin: "claude",
  binEnv: "REVIEW_GATE_CLAUDE_BIN",
  installHint: "npm i -g @anthropic-ai/claude-code",
  // `--json-schema` is compiled with a draft-07 Ajv (docs/providers.md "Claude Code argv")
  dialect: "without-root-ids",
  maxPromptBytes: null,
  reviewerVars: { names: ["CLAUDE_CONFIG_DIR"], prefixes: ["ANTHROPIC_", "CLAUDE_CODE_USE_"] },
  // --setting-sources "" and --strict-mcp-config keep .claude/, CLAUDE.md and .mcp.json out
  projectFiles: { files: [], dirs: [] },
} as const satisfies ProviderMeta;
