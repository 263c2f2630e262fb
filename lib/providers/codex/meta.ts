/**
 * Codex's facts as data (docs/providers.md "Codex"): what the registry, the command line, a
 * verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** Codex: npm `@openai/codex`, binary `codex`. */
export const CODEX_META = {
  name: "codex",
  defaultBin: "codex",
  binEnv: "REVIEW_GATE_CODEX_BIN",
  installHint: "npm i -g @openai/codex",
  // `--output-schema` goes to OpenAI's strict mode (docs/providers.md "Codex strict mode")
  dialect: "openai-strict",
  maxPromptBytes: null,
  reviewerVars: { prefixes: ["OPENAI_", "CODEX_"] },
  // AGENTS.md and skills reach the model outside our fence, even untrusted (docs/providers.md
  // "Codex read-only holes")
  projectFiles: {
    files: ["AGENTS.md", "AGENTS.override.md"],
    dirs: [".codex", ".agents"],
  },
} as const satisfies ProviderMeta;
