/**
 * The provider registry: name → adapter, and how to find each CLI's binary. Adding a provider is
 * one new adapter file plus one line in {@linkcode PROVIDERS} and its name in
 * lib/providers/names.ts (what the command line offers without loading an adapter; the compiler
 * checks that the two agree). Each adapter module loads when its provider is first asked for: a
 * review loads the configured provider's adapter only (docs/design.md "Performance notes": code
 * loads where it is used).
 *
 * @module
 */

import { isAbsolute, resolve } from "../base/path.ts";
import { UsageError } from "../base/errors.ts";
import type { ProviderAdapter } from "./provider.ts";
import { PROVIDER_NAMES, type ProviderName } from "./names.ts";
import { PROVIDER_META, type ProviderMeta } from "./meta.ts";

const PROVIDERS: Record<ProviderName, () => Promise<ProviderAdapter>> = {
  claude: async () => (await import("./claude.ts")).claudeAdapter,
  codex: async () => (await import("./codex.ts")).codexAdapter,
  vibe: async () => (await import("./vibe.ts")).vibeAdapter,
};

/** Every supported provider name, in display order (lib/providers/names.ts). */
export { PROVIDER_NAMES };

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
 * @returns the adapter (its module loaded on first use)
 * @throws {UsageError} for any other name, listing the valid choices
 */
export async function getProvider(name: string): Promise<ProviderAdapter> {
  return await PROVIDERS[providerMeta(name).name]();
}

/**
 * What a review knows of a provider before it asks it (lib/providers/meta.ts), its adapter not
 * loaded.
 *
 * @param name "claude", "codex" or "vibe"
 * @throws {UsageError} for any other name, listing the valid choices
 */
export function providerMeta(name: string): ProviderMeta {
  if (!isProviderName(name)) {
    const choices = PROVIDER_NAMES.map((n) => `"${n}"`).join(", ");
    throw new UsageError(`Unknown provider "${name}": choose one of ${choices}`);
  }
  return PROVIDER_META[name];
}

/**
 * The binary to run for an adapter: the env override (e.g. `REVIEW_GATE_CODEX_BIN`) when set and
 * non-empty, else the default name looked up on PATH. A relative override path (one with a "/") is
 * taken relative to `cwd`, where the user set it — not to the repository root the provider runs in.
 *
 * @param adapter the provider (its adapter, or its {@linkcode ProviderMeta})
 * @param env environment to read (e.g. `Deno.env.toObject()`)
 * @param cwd directory a relative override is resolved against (default: the process cwd)
 * @returns a program name or path for the runner
 */
export function resolveBinary(
  adapter: ProviderMeta,
  env: Record<string, string | undefined>,
  cwd?: string,
): string {
  const override = env[adapter.binEnv];
  if (override === undefined || override.trim() === "") return adapter.defaultBin;
  return override.includes("/") && !isAbsolute(override)
    ? resolve(cwd ?? Deno.cwd(), override)
    : override;
}

/**
 * The message for a provider binary that cannot be started.
 *
 * @param adapter the provider adapter
 * @param bin the binary that was tried (from {@linkcode resolveBinary}); named when it came from the
 *   override variable
 * @returns e.g. `Cannot find "codex": install it with "npm i -g @openai/codex" or set REVIEW_GATE_CODEX_BIN`
 */
export function missingBinaryMessage(adapter: ProviderMeta, bin?: string): string {
  if (bin !== undefined && bin !== adapter.defaultBin) {
    return `Cannot run "${bin}" (from ${adapter.binEnv}): no such executable; fix the path, or unset ` +
      `${adapter.binEnv} and install "${adapter.defaultBin}" with "${adapter.installHint}"`;
  }
  return `Cannot find "${adapter.defaultBin}": install it with "${adapter.installHint}" or set ${adapter.binEnv}`;
}
