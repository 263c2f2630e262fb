/**
 * Per-provider prompt-size limits as plain data, so the gates' fast paths (verdict identity, memo
 * keys) can size diff budgets without loading the provider adapters and their prompt, dialect and
 * lint modules. The adapters' `capabilities.maxPromptBytes` point here; limits_test.ts checks that
 * the two agree.
 *
 * @module
 */
import type { ProviderName } from "./provider.ts";

/**
 * Largest prompt each provider takes, bytes; `null` when it has no limit of its own. vibe takes the
 * prompt as one argv element (docs/providers.md "Mistral Vibe"), which Linux caps at 128 KiB.
 */
export const PROMPT_LIMITS = {
  claude: null,
  codex: null,
  vibe: 120 * 1024,
} as const satisfies Readonly<Record<ProviderName, number | null>>;

/**
 * True when `name` is a key of {@linkcode PROMPT_LIMITS}, i.e. a supported provider name.
 *
 * @param name any string (a config value)
 */
export function hasPromptLimitEntry(name: string): name is ProviderName {
  return Object.hasOwn(PROMPT_LIMITS, name);
}
