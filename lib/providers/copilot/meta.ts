/**
 * GitHub Copilot CLI's facts as data (docs/providers.md "GitHub Copilot CLI"): what the registry,
 * the command line, a verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** GitHub Copilot CLI: npm `@github/copilot` (a native binary per platform), binary `copilot`. */
export const COPILOT_META = {
  name: "copilot",
  defaultBin: "copilot",
  binEnv: "REVIEW_GATE_COPILOT_BIN",
  installHint: "npm i -g @github/copilot@1.0.102",
  // no schema flag: the canonical schema goes into the prompt, our decoder judges the answer
  dialect: "canonical",
  // the prompt goes on stdin
  maxPromptBytes: null,
  // its GitHub token, its BYOK endpoint and model (COPILOT_PROVIDER_*, COPILOT_MODEL), its host
  reviewerVars: {
    names: ["GH_TOKEN", "GITHUB_TOKEN", "GH_HOST"],
    prefixes: ["COPILOT_"],
  },
  // nothing whatever its flags say (docs/providers.md "GitHub Copilot CLI read-only recipe"):
  // `--no-custom-instructions` drops AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md
  // and .github/instructions/; an untrusted folder's .github/hooks/, MCP servers, skills, agents
  // and .github/copilot/settings.json are not loaded (the private COPILOT_HOME trusts no folder)
  projectFiles: { files: [], dirs: [] },
} as const satisfies ProviderMeta;
