/**
 * What the GitHub Copilot CLI review child may see of the user's machine (docs/providers.md
 * "GitHub Copilot CLI"): its environment (an allowlist, lib/providers/child_env.ts) and a private
 * home.
 *
 * Copilot reads its settings, login state, trusted folders, user instructions, hooks, MCP servers,
 * skills, agents and plugins from its home (`$COPILOT_HOME`, default `~/.copilot`), and keeps its
 * sessions there. The child gets an empty private one (`COPILOT_HOME` and `HOME` in the call's
 * private directory): no folder is trusted in it, so the reviewed copy's hooks, MCP servers and
 * skills are not loaded either, and both attempts of a call share its session store (the
 * corrective `--resume`). Nothing of the user's `~/.copilot` is carried: a `copilot login` kept
 * there or in the system keychain is not used, auth comes from the environment only — a GitHub
 * token (`COPILOT_GITHUB_TOKEN`, `GH_TOKEN`, `GITHUB_TOKEN`) or a BYOK endpoint
 * (`COPILOT_PROVIDER_BASE_URL`, `COPILOT_MODEL`, …).
 *
 * The npm package unpacks its ~235 MB runtime on first run into a package cache; the child is
 * pointed at the user's own (`COPILOT_PKG_CACHE_HOME`), so a review does not unpack it again in
 * its private home.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { allowlistEnv, type EnvRule, withFakeDeno } from "../child_env.ts";
import { type ChildContext, type ChildSetup, NoCredentialsError } from "../provider.ts";

/** The GitHub token variables Copilot reads, in its order of precedence (`copilot help environment`). */
export const COPILOT_TOKEN_VARS = ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"] as const;

/**
 * The Copilot child's allowlist: its GitHub token and host, its BYOK provider (`COPILOT_PROVIDER_*`)
 * and model, offline mode. Never `COPILOT_ALLOW_ALL` (exactly "true" trusts the working directory:
 * its hooks and MCP servers run), `COPILOT_HOME` (the child's is private),
 * `COPILOT_CUSTOM_INSTRUCTIONS_DIRS` (more instruction files), `COPILOT_CLI_DIST_DIR` (another
 * package), nor the OpenTelemetry exporters (they may capture prompts).
 */
export const COPILOT_ENV_RULE: EnvRule = {
  names: [
    ...COPILOT_TOKEN_VARS,
    "GH_HOST",
    "COPILOT_GH_HOST",
    "COPILOT_MODEL",
    "COPILOT_OFFLINE",
    "COPILOT_AUTO_TIER",
  ],
  prefixes: ["COPILOT_PROVIDER_"],
};

/**
 * The user's package cache, where the npm package's loader unpacks and looks for its runtime
 * (its loader's search order): `COPILOT_PKG_CACHE_HOME`, `COPILOT_CACHE_HOME`, else
 * `~/Library/Caches/copilot` on macOS, `%LOCALAPPDATA%\copilot` on Windows,
 * `${XDG_CACHE_HOME:-~/.cache}/copilot` elsewhere.
 *
 * @param env the parent environment
 * @param os the platform (`Deno.build.os`)
 * @returns an absolute path, or undefined when HOME is unknown
 */
export function copilotPackageCache(
  env: Record<string, string | undefined>,
  os: string = Deno.build.os,
): string | undefined {
  if (env.COPILOT_PKG_CACHE_HOME) return env.COPILOT_PKG_CACHE_HOME;
  if (env.COPILOT_CACHE_HOME) return env.COPILOT_CACHE_HOME;
  const home = env.HOME ?? env.USERPROFILE;
  if (os === "darwin") return home ? join(home, "Library", "Caches", "copilot") : undefined;
  if (os === "windows") {
    const base = env.LOCALAPPDATA ?? (home ? join(home, ".cache") : undefined);
    return base ? join(base, "copilot") : undefined;
  }
  const cache = env.XDG_CACHE_HOME || (home ? join(home, ".cache") : undefined);
  return cache ? join(cache, "copilot") : undefined;
}

/**
 * The call's private setup: an empty private `COPILOT_HOME`, `HOME` and `TMPDIR`, the user's
 * package cache, auto-update off, and the allowlisted environment.
 *
 * @param context parent environment and the call's private directory
 */
export async function prepareCopilotChild(context: ChildContext): Promise<ChildSetup> {
  const home = join(context.dir, "home");
  const copilotHome = join(context.dir, "copilot-home");
  const tmp = join(context.dir, "tmp");
  for (const dir of [home, copilotHome, tmp]) await Deno.mkdir(dir, { mode: 0o700 });
  const cache = copilotPackageCache(context.env);
  const env = withFakeDeno({
    ...allowlistEnv(context.env, COPILOT_ENV_RULE),
    HOME: home,
    COPILOT_HOME: copilotHome,
    TMPDIR: tmp,
    COPILOT_AUTO_UPDATE: "false",
    ...(cache ? { COPILOT_PKG_CACHE_HOME: cache } : {}),
  });
  return { env, args: [] };
}

/**
 * Say, without any secret, what auth the Copilot review child will use (for `doctor`).
 *
 * @param env the parent environment
 * @throws {NoCredentialsError} when neither a GitHub token nor a BYOK endpoint is set
 */
export function describeCopilotAuth(env: Record<string, string | undefined>): string[] {
  const lines: string[] = [];
  const token = COPILOT_TOKEN_VARS.find((name) => env[name]);
  if (token) lines.push(`${token} from the environment (a GitHub token)`);
  if (env.COPILOT_PROVIDER_BASE_URL) {
    const model = env.COPILOT_MODEL ?? env.COPILOT_PROVIDER_MODEL_ID;
    lines.push(
      `BYOK endpoint COPILOT_PROVIDER_BASE_URL from the environment${
        model ? `, model "${model}"` : ", no COPILOT_MODEL (a BYOK review needs one)"
      }`,
    );
  }
  if (lines.length === 0) {
    throw new NoCredentialsError(
      "no credentials found: no COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN and no " +
        "COPILOT_PROVIDER_BASE_URL; a `copilot login` is not used by the review (its private " +
        "home); set COPILOT_GITHUB_TOKEN to a token with Copilot access, or " +
        "COPILOT_PROVIDER_BASE_URL and COPILOT_MODEL for your own model endpoint",
    );
  }
  return lines;
}
