/**
 * What a review knows of each provider before it asks one (docs/providers.md): its name, its
 * default binary, the variable that overrides the binary and how to install it — as plain data, so
 * a cache hit keys its verdict (lib/review/lookup.ts `programKey` of the binary it would run)
 * without loading the provider's adapter (lib/providers/claude.ts, codex.ts, vibe.ts), which loads
 * once a model is asked (docs/design.md "Performance notes"). Each adapter spreads its entry, so the
 * two cannot disagree.
 *
 * @module
 */
import type { ProviderName } from "./names.ts";

/** A provider as a verdict's identity and the "cannot find" message name it. */
export interface ProviderMeta {
  readonly name: ProviderName;
  /** Default binary name looked up on PATH. */
  readonly defaultBin: string;
  /** Environment variable that overrides the binary path. */
  readonly binEnv: string;
  /** How to install the CLI, for the "cannot find" message. */
  readonly installHint: string;
}

/** Every provider's {@linkcode ProviderMeta}, by name. */
export const PROVIDER_META: Readonly<Record<ProviderName, ProviderMeta>> = {
  claude: {
    name: "claude",
    defaultBin: "claude",
    binEnv: "REVIEW_GATE_CLAUDE_BIN",
    installHint: "npm i -g @anthropic-ai/claude-code",
  },
  codex: {
    name: "codex",
    defaultBin: "codex",
    binEnv: "REVIEW_GATE_CODEX_BIN",
    installHint: "npm i -g @openai/codex",
  },
  vibe: {
    name: "vibe",
    defaultBin: "vibe",
    binEnv: "REVIEW_GATE_VIBE_BIN",
    installHint: "uv tool install mistral-vibe",
  },
};
