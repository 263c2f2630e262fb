/**
 * Whether a provider can review on this machine, without starting it: its program found (the
 * `REVIEW_GATE_<NAME>_BIN` override or the default name on `PATH`, lib/providers/program.ts) and
 * its credentials seen (the adapter's `describeAuth`, which reads the user's config of that CLI and
 * never prints a secret). One source for `doctor` (lib/cli/doctor_action.ts, which also starts the
 * program for its version) and for `provider: "auto"` (lib/providers/auto.ts, which must not).
 *
 * @module
 */
import { isBundledFake } from "./bundled_fake.ts";
import { programPath } from "./program.ts";
import { NoCredentialsError, type ProviderMeta } from "./provider.ts";
import { getProvider, resolveBinary } from "./registry.ts";

/** Where a provider's program is. */
export interface LocatedProgram {
  /** What the runner would start (lib/providers/registry.ts `resolveBinary`). */
  bin: string;
  /** Its real path, or `null` when no such file exists. */
  path: string | null;
  /** True when the file exists but no one may execute it. */
  notExecutable: boolean;
}

/**
 * Find the program a provider's review would start, the way the runner would (no process started).
 *
 * @param meta the provider (its override variable and default name)
 * @param env the environment (`PATH`, `REVIEW_GATE_<NAME>_BIN`)
 * @param cwd directory a relative override is taken from
 */
export function locateProgram(
  meta: ProviderMeta,
  env: Record<string, string | undefined>,
  cwd?: string,
): LocatedProgram {
  const bin = resolveBinary(meta, env, cwd);
  const path = programPath(bin, env, cwd);
  let notExecutable = false;
  if (path !== null && Deno.build.os !== "windows") {
    const mode = Deno.statSync(path).mode;
    notExecutable = mode !== null && (mode & 0o111) === 0;
  }
  return { bin, path, notExecutable };
}

/**
 * What to say of a provider whose program was not found, with the fix.
 *
 * @param meta the provider
 * @param bin the program that was looked for ({@linkcode LocatedProgram.bin})
 * @returns e.g. `not found ("codex"): install with "npm i -g @openai/codex" or set
 *   REVIEW_GATE_CODEX_BIN`
 */
export function notFoundText(meta: ProviderMeta, bin: string): string {
  if (bin !== meta.defaultBin) {
    return `not found ("${bin}" from ${meta.binEnv}): fix the path, or unset ${meta.binEnv} and ` +
      `install with "${meta.installHint}"`;
  }
  return `not found ("${bin}"): install with "${meta.installHint}" or set ${meta.binEnv}`;
}

/** What a provider's credentials look like, as {@linkcode authState} found them. */
export type AuthState =
  /** Credentials seen (or none needed: the bundled fake); `lines` say which, never a secret. */
  | { state: "ok"; lines: string[]; fake: boolean }
  /**
   * None found. `unknown` when a login may sit where review-gate does not look (a keychain);
   * `message` says what was checked and how to sign in.
   */
  | { state: "none"; unknown: boolean; message: string }
  /** The provider's config could not be read: `message` says why. */
  | { state: "error"; message: string };

/**
 * The credentials the review child of a provider would use (its adapter's `describeAuth`; the
 * bundled fake needs none). Loads that provider's adapter.
 *
 * @param meta the provider
 * @param env the environment (`HOME`, the provider's variables)
 * @param cwd directory a relative override is taken from
 */
export async function authState(
  meta: ProviderMeta,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<AuthState> {
  if (await isBundledFake(meta, env, cwd)) {
    return {
      state: "ok",
      lines: ["the bundled fake provider: it needs no credentials"],
      fake: true,
    };
  }
  try {
    return {
      state: "ok",
      lines: await (await getProvider(meta.name)).describeAuth(env),
      fake: false,
    };
  } catch (error) {
    if (error instanceof NoCredentialsError) {
      return { state: "none", unknown: error.unknown, message: error.message };
    }
    return { state: "error", message: (error as Error).message };
  }
}
