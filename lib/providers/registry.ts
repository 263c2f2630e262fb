/**
 * The provider registry: name → adapter, and how to find each CLI's binary. Adding a provider is
 * one new adapter file plus one line in {@linkcode PROVIDERS}.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import type { ProviderAdapter, ProviderName } from "./provider.ts";
import { vibeAdapter } from "./vibe.ts";

const PROVIDERS: Record<ProviderName, ProviderAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  vibe: vibeAdapter,
};

/** Every supported provider name, in display order. */
export const PROVIDER_NAMES: readonly ProviderName[] = Object.keys(PROVIDERS) as ProviderName[];

/**
 * True when `name` is a supported provider name.
 *
 * @param name any string (a flag or config value)
 */
export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/**
 * The adapter for a provider name.
 *
 * @param name "claude", "codex" or "vibe"
 * @returns the adapter
 * @throws {UsageError} for any other name, listing the valid choices
 */
export function getProvider(name: string): ProviderAdapter {
  if (!isProviderName(name)) {
    const choices = PROVIDER_NAMES.map((n) => `"${n}"`).join(", ");
    throw new UsageError(`Unknown provider "${name}": choose one of ${choices}`);
  }
  return PROVIDERS[name];
}

/**
 * The binary to run for an adapter: the env override (e.g. `REVIEW_GATE_CODEX_BIN`) when set and
 * non-empty, else the default name looked up on PATH.
 *
 * @param adapter the provider adapter
 * @param env environment to read (e.g. `Deno.env.toObject()`)
 * @returns a program name or path for the runner
 */
export function resolveBinary(
  adapter: ProviderAdapter,
  env: Record<string, string | undefined>,
): string {
  const override = env[adapter.binEnv];
  return override !== undefined && override.trim() !== "" ? override : adapter.defaultBin;
}

/**
 * The message for a provider binary that cannot be started.
 *
 * @param adapter the provider adapter
 * @returns e.g. `Cannot find "codex": install it with "npm i -g @openai/codex" or set REVIEW_GATE_CODEX_BIN`
 */
export function missingBinaryMessage(adapter: ProviderAdapter): string {
  return `Cannot find "${adapter.defaultBin}": install it with "${adapter.installHint}" or set ${adapter.binEnv}`;
}
