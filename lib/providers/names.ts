/**
 * The supported providers' names, without their adapters: what the command line offers as choices
 * loads this alone. `lib/providers/registry.ts` maps each name to its adapter (the compiler checks
 * that the two agree).
 *
 * @module
 */

/** Names of the supported providers, in the order help lists them. */
export const PROVIDER_NAMES = ["claude", "codex", "vibe"] as const;

/** Names of the supported providers. */
export type ProviderName = typeof PROVIDER_NAMES[number];
