/**
 * Who would answer a turn's review: the reviewer programs the providers would start (their real
 * paths: lib/gates/turn/guard_files.ts `providerPrograms`), the digests of the environment that
 * changes which model answers (lib/providers/reviewer_env.ts), and of what the review child
 * carries from the user's provider config (Claude Code's settings `env`, Codex's `config.toml`). The turn's start records it; a Stop
 * reuses the verdict it remembered only for the same identity, and a push during an open turn takes
 * the start's reviewer (lib/gates/pre_push/reviewer_env.ts): the agent under review cannot choose
 * who approves its work (docs/design.md "Turn gate").
 *
 * @module
 */
import { sha256Hex } from "../../base/sha256.ts";
import { reviewerVarDigests } from "../../providers/reviewer_env.ts";
import { AUTO_PROVIDER, carriedConfigs } from "../../providers/registry.ts";
import type { ReviewerRecord } from "../../store/sessions.ts";
import { providerPrograms } from "./guard_files.ts";

/**
 * The reviewer as `env` would start it.
 *
 * @param env the hook's environment
 * @param provider the config's `provider`: for `"auto"`, the provider it chooses under `env`
 *   (lib/providers/auto.ts; `null` when none) is recorded too, so a verdict another provider gave
 *   is never taken for this one's
 * @param cwd directory a relative `REVIEW_GATE_<NAME>_BIN` is taken from
 * @returns the programs (provider → real path or `null`) and the variables' digests
 */
export async function reviewerRecord(
  env: Record<string, string | undefined>,
  provider?: string,
  cwd?: string,
): Promise<ReviewerRecord> {
  return {
    programs: providerPrograms(env),
    vars: await reviewerVarDigests(env),
    carried: await carriedDigests(env),
    ...(provider === AUTO_PROVIDER ? { chosen: await autoChoice(env, cwd) } : {}),
  };
}

/**
 * The provider `auto` chooses under `env` (lib/providers/auto.ts), or `null` when it finds none.
 *
 * @param env the environment
 * @param cwd directory a relative `REVIEW_GATE_<NAME>_BIN` is taken from
 */
export async function autoChoice(
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<string | null> {
  const { chooseProvider, NoProviderError } = await import("../../providers/auto.ts");
  try {
    return (await chooseProvider(env, cwd)).provider;
  } catch (error) {
    if (error instanceof NoProviderError) return null;
    throw error;
  }
}

/**
 * What each provider's review child carries from the user's own provider config, as digests (each
 * provider's `CarriedConfig.identity`, lib/providers/registry.ts: Claude Code's settings, Codex's
 * `config.toml`): a settings file that cannot be read counts as its problem's text.
 */
export async function carriedDigests(
  env: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, carried] of Object.entries(await carriedConfigs())) {
    out[name] = await sha256Hex(JSON.stringify(await carried.identity(env)));
  }
  return out;
}

/**
 * A digest of {@linkcode reviewerRecord}.
 *
 * @param env the hook's environment
 * @param provider the config's `provider` ({@linkcode reviewerRecord})
 * @param cwd directory a relative `REVIEW_GATE_<NAME>_BIN` is taken from
 * @returns sha256 hex
 */
export async function reviewerIdentity(
  env: Record<string, string | undefined>,
  provider?: string,
  cwd?: string,
): Promise<string> {
  return await sha256Hex(JSON.stringify(await reviewerRecord(env, provider, cwd)));
}

/**
 * The config a turn's review runs with (docs/design.md "Turn gate"): under `provider: "auto"`, the
 * provider auto chose at the turn's start, whatever it would choose now — a login the agent deletes
 * or writes during the turn must not hand the review to another provider. A council, a named
 * provider, or a start recorded without a choice (an older version) is left as it is.
 *
 * @param config the trusted config of the turn (its `provider` may be `"auto"`)
 * @param start the turn start's reviewer record (`SessionState.reviewerAtStart`)
 * @returns the config with the start's provider in place of `"auto"`, or `null` when auto found no
 *   provider at the turn's start (the review then cannot run: `on_error` decides)
 */
export function pinnedConfig<C extends { provider: string }>(
  config: C,
  start: ReviewerRecord | undefined,
): C | null {
  if (config.provider !== AUTO_PROVIDER || start?.chosen === undefined) return config;
  if (start.chosen === null) return null;
  return { ...config, provider: start.chosen as C["provider"] };
}

/**
 * Said when the provider auto would choose now is not the one it chose at the turn's start.
 *
 * @param start the provider chosen at the turn's start
 * @param now the provider auto chooses now (`null`: none)
 */
export function autoSwitchNote(start: string, now: string | null): string {
  return `provider "auto" chose ${start} when this turn started and would choose ${
    now ?? "no provider"
  } now (a CLI login or program changed during the turn): the review stays with ${start}`;
}
