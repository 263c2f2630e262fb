/**
 * The provider registry: one line per provider in {@linkcode PROVIDERS}, naming its folder
 * (`lib/providers/<name>/`: `meta.ts` its facts as data, `adapter.ts` its code, and how its
 * child carries the user's own config of that CLI). Every list of providers is derived from it:
 * the names the command line offers (`--provider`, `--providers`, `init --provider`, `schema
 * --dialect`), the config schema's enums (lib/config/config_schema_test.ts holds them to it),
 * prompt limits, the reviewer variables a gate compares, the programs a turn guards, `doctor`'s
 * checks, the order `provider: "auto"` tries them in and the fake's personas (fixtures/fake/fake_test.ts). Each adapter module loads when its
 * provider is first asked for: a review loads the configured provider's adapter only, a cache hit
 * none (docs/design.md "Performance notes": code loads where it is used).
 *
 * @module
 */

import { isAbsolute, resolve } from "../base/path.ts";
import { UsageError } from "../base/errors.ts";
import type { CarriedConfig, ProviderAdapter, ProviderMeta } from "./provider.ts";
import { CLAUDE_META } from "./claude/meta.ts";
import { CODEX_META } from "./codex/meta.ts";
import { VIBE_META } from "./vibe/meta.ts";
import { QWEN_META } from "./qwen/meta.ts";
import { GEMINI_META } from "./gemini/meta.ts";
import { COPILOT_META } from "./copilot/meta.ts";
import { OPENCODE_META } from "./opencode/meta.ts";

/** One registered provider: its facts, its adapter, and what its child carries (when it does). */
interface ProviderEntry<M extends ProviderMeta> {
  readonly meta: M;
  readonly adapter: () => Promise<ProviderAdapter>;
  readonly carried?: () => Promise<CarriedConfig>;
}

function entry<const M extends ProviderMeta>(e: ProviderEntry<M>): ProviderEntry<M> {
  return e;
}

/**
 * Every provider, in the order help lists them and `provider: "auto"` tries them
 * (lib/providers/auto.ts; README "Choosing a provider"): a new provider's line goes where it
 * should be tried.
 */
const PROVIDERS = [
  entry({
    meta: CLAUDE_META,
    adapter: async () => (await import("./claude/adapter.ts")).claudeAdapter,
    carried: async () => (await import("./claude/child.ts")).claudeCarried,
  }),
  entry({
    meta: CODEX_META,
    adapter: async () => (await import("./codex/adapter.ts")).codexAdapter,
    carried: async () => (await import("./codex/child.ts")).codexCarried,
  }),
  entry({
    meta: GEMINI_META,
    adapter: async () => (await import("./gemini/adapter.ts")).geminiAdapter,
    carried: async () => (await import("./gemini/child.ts")).geminiCarried,
  }),
  entry({
    meta: QWEN_META,
    adapter: async () => (await import("./qwen/adapter.ts")).qwenAdapter,
    carried: async () => (await import("./qwen/child.ts")).qwenCarried,
  }),
  entry({
    meta: COPILOT_META,
    adapter: async () => (await import("./copilot/adapter.ts")).copilotAdapter,
  }),
  entry({
    meta: VIBE_META,
    adapter: async () => (await import("./vibe/adapter.ts")).vibeAdapter,
  }),
  entry({
    meta: OPENCODE_META,
    adapter: async () => (await import("./opencode/adapter.ts")).opencodeAdapter,
    carried: async () => (await import("./opencode/child.ts")).opencodeCarried,
  }),
] as const;

/** Names of the supported providers. */
export type ProviderName = typeof PROVIDERS[number]["meta"]["name"];

/** Every supported provider name, in display order. */
export const PROVIDER_NAMES: readonly ProviderName[] = PROVIDERS.map((p) => p.meta.name);

/**
 * What the config's `provider` and `--provider` accept: a provider's name, or `"auto"` — the first
 * provider of {@linkcode PROVIDER_NAMES} whose CLI is installed and signed in
 * (lib/providers/auto.ts).
 */
export type ProviderSetting = ProviderName | "auto";

/** The value of {@linkcode ProviderSetting} that asks for the first usable provider. */
export const AUTO_PROVIDER = "auto";

/** Every {@linkcode ProviderSetting}: `"auto"`, then the provider names in display order. */
export const PROVIDER_SETTINGS: readonly ProviderSetting[] = [AUTO_PROVIDER, ...PROVIDER_NAMES];

/** A registered provider's facts: its name is one of {@linkcode PROVIDER_NAMES}. */
export type RegisteredMeta = ProviderMeta<ProviderName>;

const BY_NAME = new Map<string, ProviderEntry<RegisteredMeta>>(
  PROVIDERS.map((p) => [p.meta.name, p]),
);

/**
 * True when `name` is a supported provider name.
 *
 * @param name any string (a flag or config value)
 */
export function isProviderName(name: string): name is ProviderName {
  return BY_NAME.has(name);
}

function entryOf(name: string): ProviderEntry<RegisteredMeta> {
  const found = BY_NAME.get(name);
  if (found === undefined) {
    const choices = PROVIDER_NAMES.map((n) => `"${n}"`).join(", ");
    throw new UsageError(`Unknown provider "${name}": choose one of ${choices}`);
  }
  return found;
}

/**
 * The adapter for a provider name.
 *
 * @param name a name of {@linkcode PROVIDER_NAMES}
 * @returns the adapter (its module loaded on first use)
 * @throws {UsageError} for any other name, listing the valid choices
 */
export async function getProvider(name: string): Promise<ProviderAdapter> {
  return await entryOf(name).adapter();
}

/**
 * What a review knows of a provider before it asks it (its folder's `meta.ts`), its adapter not
 * loaded.
 *
 * @param name a name of {@linkcode PROVIDER_NAMES}
 * @throws {UsageError} for any other name, listing the valid choices
 */
export function providerMeta(name: string): RegisteredMeta {
  return entryOf(name).meta;
}

/** Every provider's {@linkcode ProviderMeta}, in display order (no adapter loaded). */
export function providerMetas(): readonly RegisteredMeta[] {
  return PROVIDERS.map((p) => p.meta);
}

/**
 * What the providers' review children carry from the user's own config of each CLI, by provider
 * name: only providers whose child carries any (their modules loaded, not their adapters).
 */
export async function carriedConfigs(): Promise<Record<string, CarriedConfig>> {
  const out: Record<string, CarriedConfig> = {};
  for (const p of PROVIDERS) {
    const load = (p as ProviderEntry<RegisteredMeta>).carried;
    if (load) out[p.meta.name] = await load();
  }
  return out;
}

/**
 * What the review child of one provider carries from the user's config of it.
 *
 * @param name a provider name
 * @returns its {@linkcode CarriedConfig}, or `undefined` when its child carries nothing (or the
 *   name is unknown)
 */
export async function carriedConfig(name: string): Promise<CarriedConfig | undefined> {
  return await BY_NAME.get(name)?.carried?.();
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
