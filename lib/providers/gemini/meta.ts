/**
 * Gemini CLI's facts as data (docs/providers.md "Gemini CLI"): what the registry, the command line,
 * a verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** Gemini CLI: npm `@google/gemini-cli` (0.61 runs on Node 20), binary `gemini`. */
export const GEMINI_META = {
  name: "gemini",
  defaultBin: "gemini",
  binEnv: "REVIEW_GATE_GEMINI_BIN",
  installHint: "npm i -g @google/gemini-cli@0.61.0",
  // no schema flag: the canonical schema goes into the prompt, the decoder judges the answer
  dialect: "canonical",
  // the prompt goes on stdin
  maxPromptBytes: null,
  reviewerVars: { prefixes: ["GEMINI_", "GOOGLE_"] },
  // read whatever the flags say once the folder is trusted, which a headless run needs
  // (docs/providers.md "Gemini CLI read-only holes"): context files (GEMINI.md reached the model;
  // AGENTS.md when a setting names it), project settings, commands, extensions, skills and its
  // .env (.gemini/), a .env of the working directory or above, and .geminiignore (it hid src/ from
  // the directory listing the model gets, whatever the settings say)
  projectFiles: { files: ["GEMINI.md", "AGENTS.md", ".env", ".geminiignore"], dirs: [".gemini"] },
} as const satisfies ProviderMeta;
