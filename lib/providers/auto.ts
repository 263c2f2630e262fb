/**
 * `provider: "auto"` (the default; README "Choosing a provider"): the first provider, in the
 * registry's order (lib/providers/registry.ts `PROVIDER_NAMES`), whose program is found and whose
 * credentials are seen — the checks `doctor` makes (lib/providers/availability.ts), without
 * starting any program: a `PATH` lookup and the credential files each adapter's `describeAuth`
 * reads. Only the user's environment and home decide (`PATH`, `REVIEW_GATE_<NAME>_BIN`, the CLIs'
 * own config): nothing the repository holds. The bundled fake is chosen only where a
 * `REVIEW_GATE_<NAME>_BIN` points a provider at it. A login that may sit where review-gate does not
 * look (Claude Code's macOS keychain) counts as signed in: the review says so if it fails.
 *
 * The choice, and why each provider before it was passed over, goes into the run record
 * (`providerChoice`) and every output names it: "qwen (auto: claude not found, codex not signed
 * in)".
 *
 * @module
 */
import { ExitCode, ReviewGateError } from "../base/errors.ts";
import { authState, locateProgram, notFoundText } from "./availability.ts";
import type { ProviderChoice, SkippedProvider } from "./choice.ts";

export type { ProviderChoice, SkippedProvider } from "./choice.ts";
export { choiceText, providerLabel } from "./choice.ts";
import {
  AUTO_PROVIDER,
  PROVIDER_NAMES,
  providerMeta,
  type ProviderName,
  type ProviderSetting,
} from "./registry.ts";

/** What {@linkcode chooseProvider} chose. */
export interface ChosenProvider {
  provider: ProviderName;
  choice: ProviderChoice;
}

/**
 * No provider can review (exit 3, the review could not run): the message has one line per
 * provider saying why and how to install or sign in.
 */
export class NoProviderError extends ReviewGateError {
  /** Every provider, with why it cannot review. */
  readonly skipped: SkippedProvider[];
  constructor(lines: { name: ProviderName; why: string; fix: string }[]) {
    super(
      `No provider CLI can review (provider "auto" tries ${PROVIDER_NAMES.join(", ")}):\n` +
        lines.map((l) => `  ${l.name}: ${l.fix}`).join("\n") +
        `\nInstall and sign in to one, or name one with --provider or "provider" in the config`,
      ExitCode.couldNotRun,
    );
    this.skipped = lines.map(({ name, why }) => ({ name, why }));
  }
}

/** Why one provider cannot review, short and with its fix; `null` when it can. */
async function unusable(
  name: ProviderName,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<{ why: string; fix: string } | null> {
  const meta = providerMeta(name);
  const program = locateProgram(meta, env, cwd);
  const overridden = program.bin !== meta.defaultBin;
  if (program.path === null) {
    const why = overridden ? `not found ("${program.bin}" from ${meta.binEnv})` : "not found";
    return { why, fix: notFoundText(meta, program.bin) };
  }
  if (program.notExecutable) {
    return {
      why: "not executable",
      fix:
        `"${program.path}" is not executable: "chmod +x" it or install with "${meta.installHint}"`,
    };
  }
  const auth = await authState(meta, env, cwd);
  if (auth.state === "ok" && auth.fake && !overridden) {
    // the bundled fake answers only where a variable plugs it in, never found by its name
    return {
      why: "is the bundled fake on PATH",
      fix: `"${program.path}" is the bundled fake: set ${meta.binEnv} to use it, or install ` +
        `"${meta.installHint}"`,
    };
  }
  if (auth.state === "ok" || (auth.state === "none" && auth.unknown)) return null;
  if (auth.state === "none") return { why: "not signed in", fix: `not signed in: ${auth.message}` };
  return { why: "config not usable", fix: `config not usable: ${auth.message}` };
}

/**
 * Choose the first provider that can review.
 *
 * @param env the user's environment (`PATH`, `HOME`, `REVIEW_GATE_<NAME>_BIN`, the providers'
 *   variables)
 * @param cwd directory a relative `REVIEW_GATE_<NAME>_BIN` is taken from
 * @returns the provider and why each one before it was passed over
 * @throws {NoProviderError} when none can (exit 3)
 */
export async function chooseProvider(
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<ChosenProvider> {
  const passed: { name: ProviderName; why: string; fix: string }[] = [];
  for (const name of PROVIDER_NAMES) {
    const problem = await unusable(name, env, cwd);
    if (problem === null) {
      return {
        provider: name,
        choice: { auto: true, skipped: passed.map(({ name, why }) => ({ name, why })) },
      };
    }
    passed.push({ name, ...problem });
  }
  throw new NoProviderError(passed);
}

/**
 * A config whose `provider` is `"auto"` with the provider chosen in its place, and how; any other
 * config as it is.
 *
 * @param config the config in force (its `provider` a {@linkcode ProviderSetting})
 * @param env the user's environment
 * @param cwd directory a relative `REVIEW_GATE_<NAME>_BIN` is taken from
 * @throws {NoProviderError} when `auto` finds none (exit 3)
 */
export async function resolveProvider<C extends { provider: ProviderSetting }>(
  config: C,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<{ config: C & { provider: ProviderName }; choice?: ProviderChoice }> {
  if (config.provider !== AUTO_PROVIDER) {
    return { config: config as C & { provider: ProviderName } };
  }
  const { provider, choice } = await chooseProvider(env, cwd);
  return { config: { ...config, provider }, choice };
}
