/**
 * Qwen Code's facts as data (docs/providers.md "Qwen Code"): what the registry, the command line, a
 * verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** Qwen Code: npm `@qwen-code/qwen-code` (the 0.15 line runs on Node 20), binary `qwen`. */
export const QWEN_META = {
  name: "qwen",
  defaultBin: "qwen",
  binEnv: "REVIEW_GATE_QWEN_BIN",
  installHint: "npm i -g @qwen-code/qwen-code@0.15.10",
  // `--json-schema` becomes the parameters of a `structured_output` function tool sent to the
  // model API as they are: no root $schema/$id to confuse an OpenAI-compatible endpoint
  dialect: "without-root-ids",
  // the prompt goes on stdin
  maxPromptBytes: null,
  reviewerVars: { prefixes: ["QWEN_", "DASHSCOPE_", "OPENAI_"] },
  // read whatever the flags say (docs/providers.md "Qwen Code read-only holes"): context files
  // (QWEN.md, AGENTS.md), project settings (.qwen/settings.json: context file names, allow rules,
  // MCP servers, hooks) and the working directory's .env (it set the model of a review)
  projectFiles: { files: ["QWEN.md", "AGENTS.md", ".env"], dirs: [".qwen"] },
} as const satisfies ProviderMeta;
