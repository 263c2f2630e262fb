/**
 * What the Qwen Code review child may see of the user's machine (docs/providers.md "Qwen Code"):
 * its environment (an allowlist, lib/providers/child_env.ts) and a private home.
 *
 * Qwen Code reads its user settings, `.env`, memory, skills, extensions and hooks from its home
 * (`$QWEN_HOME`, default `~/.qwen`). The child gets a private one instead (`QWEN_HOME` and an empty
 * `HOME` in the call's private directory), holding:
 * - `settings.json`: the user's auth and model keys carried from their own settings
 *   ({@linkcode CARRIED_KEYS}: `security.auth`, `model`, `modelProviders`, and of `env` the names
 *   the allowlist takes), plus what a review needs off: the managed auto-memory agent (it ran a
 *   second model request after a failed session, offered a shell), auto-skills, usage statistics,
 *   telemetry and the update check. Never the user's `hooks`, `mcpServers`, `permissions`,
 *   `tools`, `context` or extensions;
 * - `oauth_creds.json`: a link to the user's Qwen OAuth login, when there is one;
 * - nothing of the user's `.env`: its allowlisted variables go into the child's environment.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { pathExists } from "../../base/path_exists.ts";
import {
  allowlistEnv,
  type EnvRule,
  notAnswerKey,
  parseDotenv,
  withFakeDeno,
} from "../child_env.ts";
import { type CarriedConfig, type ChildContext, NoCredentialsError } from "../provider.ts";

/** Keys of the user's settings carried into the private home (auth and model only). */
export const CARRIED_KEYS: readonly string[] = ["security", "model", "modelProviders", "env"];

/**
 * The Qwen child's allowlist: the OpenAI-compatible and DashScope variables its auth reads, and
 * Qwen Code's own — never `QWEN_HOME` (the child's is private) nor `QWEN_CODE_SIMPLE` (its bare
 * mode offers a shell and no `structured_output` tool).
 */
export const QWEN_ENV_RULE: EnvRule = { names: [], prefixes: ["OPENAI_", "DASHSCOPE_", "QWEN_"] };

const NEVER = new Set(["QWEN_HOME", "QWEN_CODE_SIMPLE"]);

/** The private settings every review child gets, before the carried keys. */
const REVIEW_SETTINGS = {
  $version: 4,
  memory: { enableManagedAutoMemory: false, enableAutoSkill: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true },
};

type Json = Record<string, unknown>;

/** The user's Qwen Code setup, as the child carries it. */
export interface QwenUser {
  /** The user's Qwen home (`$QWEN_HOME` or `~/.qwen`). */
  home: string;
  /** The carried settings keys. */
  carried: Json;
  /** Allowlisted variables of the user's `.env` in that home. */
  dotenv: Record<string, string>;
  /** Whether an OAuth login (`oauth_creds.json`) exists there. */
  oauth: boolean;
  /** Why the settings could not be used, when so. */
  problem?: string;
}

function allowed(vars: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(allowlistEnv(vars, QWEN_ENV_RULE)).filter(([name]) => !NEVER.has(name)),
  );
}

/**
 * Keep only the auth and model keys of parsed user settings (pure): `security` reduced to `auth`,
 * `model`, `modelProviders`, and `env` entries the allowlist takes.
 *
 * @param raw the user's parsed settings (anything)
 */
export function carryQwenSettings(raw: unknown): Json {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const source = raw as Json;
  const out: Json = {};
  const security = source.security as Json | undefined;
  if (security && typeof security === "object" && security.auth !== undefined) {
    out.security = { auth: structuredClone(security.auth) };
  }
  for (const key of ["model", "modelProviders"]) {
    if (source[key] !== undefined) out[key] = structuredClone(source[key]);
  }
  if (source.env && typeof source.env === "object" && !Array.isArray(source.env)) {
    const strings = Object.fromEntries(
      Object.entries(source.env as Json).filter(([, v]) => typeof v === "string"),
    ) as Record<string, string>;
    // the provider's own names only: a common one (PATH) would only be set where it is missing
    const kept = Object.fromEntries(
      Object.entries(allowed(strings)).filter(([name]) =>
        QWEN_ENV_RULE.prefixes!.some((p) => name.startsWith(p))
      ),
    );
    if (Object.keys(kept).length > 0) out.env = kept;
  }
  return out;
}

/**
 * Read the user's Qwen Code setup. Never throws: an unreadable or malformed `settings.json`
 * carries nothing and says why.
 *
 * @param env the parent environment (`QWEN_HOME`, `HOME`)
 */
export async function readQwenUser(env: Record<string, string | undefined>): Promise<QwenUser> {
  const home = env.QWEN_HOME || join(env.HOME ?? "/", ".qwen");
  const path = join(home, "settings.json");
  let carried: Json = {};
  let problem: string | undefined;
  try {
    const text = await Deno.readTextFile(path);
    const errors: unknown[] = [];
    // loaded only for a qwen call with a settings file to read
    const { parse: parseJsonc } = await import("jsonc-parser");
    const raw = parseJsonc(text, errors as never, { allowTrailingComma: true });
    if (errors.length > 0) problem = `${path}: it is not valid JSON`;
    else carried = carryQwenSettings(raw);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      problem = `${path}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  const dotenv = allowed(
    parseDotenv(await Deno.readTextFile(join(home, ".env")).catch(() => "")),
  );
  const oauth = await pathExists(join(home, "oauth_creds.json"));
  return { home, carried, dotenv, oauth, ...(problem ? { problem } : {}) };
}

/**
 * Build the private Qwen home in `dir`: `settings.json` (the review's settings with the carried
 * keys over them, 0600) and `oauth_creds.json` linked to the user's login when there is one.
 *
 * @param dir the call's private directory
 * @param user what {@linkcode readQwenUser} found
 * @returns the private home's path (the child's `QWEN_HOME`)
 */
export async function buildQwenHome(dir: string, user: QwenUser): Promise<string> {
  const home = join(dir, "qwen-home");
  await Deno.mkdir(home, { mode: 0o700 });
  const settings = { ...user.carried, ...REVIEW_SETTINGS };
  await Deno.writeTextFile(join(home, "settings.json"), JSON.stringify(settings, null, 2), {
    mode: 0o600,
  });
  if (user.oauth) {
    await Deno.symlink(join(user.home, "oauth_creds.json"), join(home, "oauth_creds.json"));
  }
  return home;
}

/**
 * The call's private setup: a private `QWEN_HOME` (carried settings, linked login), an empty
 * `HOME` and `TMPDIR`, and the allowlisted environment (the user's `.env` variables under the
 * environment's own).
 *
 * @param context parent environment and the call's private directory
 */
export async function prepareQwenChild(
  context: ChildContext,
): Promise<{ env: Record<string, string>; args: string[] }> {
  const user = await readQwenUser(context.env);
  const qwenHome = await buildQwenHome(context.dir, user);
  const home = join(context.dir, "home");
  const tmp = join(context.dir, "tmp");
  await Deno.mkdir(home, { mode: 0o700 });
  await Deno.mkdir(tmp, { mode: 0o700 });
  const env = withFakeDeno({
    ...user.dotenv,
    ...allowed(context.env),
    HOME: home,
    QWEN_HOME: qwenHome,
    TMPDIR: tmp,
  });
  return { env, args: [] };
}

/**
 * Say, without any secret, what auth the Qwen review child will use (for `doctor`).
 *
 * @param parent the parent environment
 * @param user what {@linkcode readQwenUser} found
 * @throws {NoCredentialsError} when no variable, settings auth or login is found
 */
export function describeQwenAuth(
  parent: Record<string, string | undefined>,
  user: QwenUser,
): string[] {
  const lines: string[] = [];
  const fromEnv = Object.keys(allowed(parent)).filter((n) => /KEY|TOKEN/.test(n)).sort();
  if (fromEnv.length > 0) lines.push(`${fromEnv.join(", ")} from the environment`);
  const fromDotenv = Object.keys(user.dotenv).filter((n) => /KEY|TOKEN/.test(n)).sort();
  if (fromDotenv.length > 0) lines.push(`${fromDotenv.join(", ")} from ${join(user.home, ".env")}`);
  const auth = (user.carried.security as Json | undefined)?.auth as Json | undefined;
  if (auth && typeof auth.selectedType === "string") {
    lines.push(`auth "${auth.selectedType}" from ${join(user.home, "settings.json")}`);
  }
  if (user.carried.modelProviders !== undefined) {
    lines.push(`modelProviders from ${join(user.home, "settings.json")}`);
  }
  if (user.oauth) lines.push(`Qwen OAuth login in ${join(user.home, "oauth_creds.json")} (linked)`);
  if (user.problem) lines.push(`settings not used: ${user.problem}`);
  if (lines.length === 0 || (lines.length === 1 && user.problem)) {
    throw new NoCredentialsError(
      `no credentials found: no OPENAI_API_KEY or DASHSCOPE_API_KEY, no auth in ${
        join(user.home, "settings.json")
      } and no Qwen OAuth login; run "qwen" once and log in, or set OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL`,
    );
  }
  return lines;
}

/**
 * What the Qwen review child carries (lib/providers/registry.ts): the carried settings, the
 * `.env` names and the login's presence, for the turn gate; the carried settings less secrets for
 * a verdict's key.
 */
export const qwenCarried: CarriedConfig = {
  identity: async (env) => {
    const user = await readQwenUser(env);
    return [user.carried, user.dotenv, user.oauth, user.problem ?? null];
  },
  answerKey: async (env) => {
    const { carried, dotenv } = await readQwenUser(env);
    const vars = Object.entries({ ...dotenv, ...(carried.env as Record<string, string>) })
      .filter(([name]) => !notAnswerKey(name)).sort();
    const { env: _env, ...rest } = carried;
    const settings = JSON.stringify(
      rest,
      (key, value) => /key|token|secret/i.test(key) ? undefined : value,
    );
    return vars.length || settings !== "{}" ? JSON.stringify([vars, settings]) : null;
  },
};
