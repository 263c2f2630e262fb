/**
 * Whether a provider's program is the bundled fake provider (`fixtures/fake/bin/`, README "Try
 * it"): a scripted stand-in that reads no code, needs no credentials and reports made-up usage and
 * cost like the real CLIs' envelopes do. `doctor` names it (and asks no credentials of it), a run it
 * answered is marked as such, and `stats` shows that run's cost as "fake", never as money spent.
 * Only a program whose real path lies in the fake's folder beside this checkout's `lib/` counts: a
 * compiled binary has no such folder, and any other program is taken for what it says it is.
 *
 * @module
 */
import type { ProviderMeta } from "./provider.ts";
import { programPath } from "./program.ts";
import { resolveBinary } from "./registry.ts";

/** The bundled fake provider's folder (fixtures/fake/bin beside this checkout's lib/). */
const FAKE_BIN = new URL("../../fixtures/fake/bin/", import.meta.url);

/**
 * Whether the program a provider would run is the bundled fake.
 *
 * @param provider the provider (its binary's override variable and default name)
 * @param env the environment (`REVIEW_GATE_*_BIN`, `PATH`)
 * @param cwd directory a relative override is taken from
 * @returns true when the program's real path is inside the fake's folder
 */
export async function isBundledFake(
  provider: ProviderMeta,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<boolean> {
  if (FAKE_BIN.protocol !== "file:") return false;
  const path = programPath(resolveBinary(provider, env, cwd), env, cwd);
  if (path === null) return false;
  const dir = await Deno.realPath(FAKE_BIN).catch(() => null);
  return dir !== null && path.startsWith(`${dir}/`);
}
