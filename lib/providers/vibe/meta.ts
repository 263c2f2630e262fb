/**
 * Mistral Vibe's facts as data (docs/providers.md "Mistral Vibe"): what the registry, the command
 * line, a verdict's cache key and `doctor` know of it without loading its adapter.
 *
 * @module
 */
import type { ProviderMeta } from "../provider.ts";

/** Mistral Vibe: PyPI `mistral-vibe`, binary `vibe`. */
export const VIBE_META = {
  name: "vibe",
  defaultBin: "vibe",
  binEnv: "REVIEW_GATE_VIBE_BIN",
  installHint: "uv tool install mistral-vibe",
  // no schema flag: the canonical schema goes into the prompt
  dialect: "canonical",
  // the prompt is one argv element, which Linux caps at 128 KiB (MAX_ARG_STRLEN)
  maxPromptBytes: 120 * 1024,
  reviewerVars: { prefixes: ["MISTRAL_", "VIBE_"] },
  // not verified against the real CLI (docs/providers.md "Mistral Vibe")
  projectFiles: { files: [], dirs: [] },
} as const satisfies ProviderMeta;
