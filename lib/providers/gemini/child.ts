/**
 * What the Gemini CLI review child may see of the user's machine (docs/providers.md "Gemini CLI"):
 * its environment (an allowlist, lib/providers/child_env.ts) and a private home.
 *
 * Gemini CLI reads its user settings, `.env`, memory (`GEMINI.md`), policies, commands, skills,
 * extensions, hooks, saved sessions and OAuth login from `~/.gemini` (`$GEMINI_CLI_HOME/.gemini`
 * when that is set). The child gets a private home instead (`HOME` and `GEMINI_CLI_HOME` in the
 * call's private directory), holding in `.gemini/`:
 * - `settings.json`: the user's auth and model keys carried from their own settings
 *   ({@linkcode carryGeminiSettings}: `security.auth`, `model`), plus what a review needs:
 *   `tools.core` naming the four read tools, the review's turn cap (`model.maxSessionTurns`),
 *   `.gitignore`/`.geminiignore` filtering off (the copy holds tracked files only: every one is the
 *   reviewer's to read), the local `.env` ignored, skills, hooks, sub-agents, auto-memory, usage
 *   statistics, telemetry and the update check off. Never the user's `hooks`, `mcpServers`,
 *   `tools`, `context` or extensions;
 * - `policies/review-gate.toml`: a policy denying every tool but the four read tools (the policy
 *   engine's user tier);
 * - `oauth_creds.json` and `google_accounts.json`: links to the user's Google login, when there is
 *   one;
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
import {
  type CarriedConfig,
  type ChildContext,
  type ChildSetup,
  NoCredentialsError,
} from "../provider.ts";

/** The tools the reviewer may use: reading the copy (Gemini CLI's built-in names). */
export const GEMINI_TOOLS = ["read_file", "list_directory", "grep_search", "glob"];

/**
 * The Gemini child's allowlist: the variables its auth and model choice read (API key, Vertex AI,
 * Google login, endpoint), by name. Never `GEMINI_CLI_HOME` (the child's is private), the system
 * settings paths (`GEMINI_CLI_SYSTEM_SETTINGS_PATH` would override the review's settings),
 * `GEMINI_SYSTEM_MD` (a file replacing the system prompt), `GEMINI_CLI_TRUST_WORKSPACE`,
 * `GEMINI_SANDBOX` or the IDE-companion variables.
 */
export const GEMINI_ENV_RULE: EnvRule = {
  names: [
    "GEMINI_API_KEY",
    "GEMINI_MODEL",
    "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_VERTEX_BASE_URL",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_CLOUD_ACCESS_TOKEN",
    "GEMINI_CLI_USE_COMPUTE_ADC",
  ],
};

/** The review's policy: deny every tool, allow the four read tools (Gemini CLI's policy TOML). */
export const REVIEW_POLICY = [
  "# review-gate: a review reads the private copy, nothing else (docs/providers.md)",
  "[[rule]]",
  'toolName = "*"',
  'decision = "deny"',
  "priority = 900",
  "",
  ...GEMINI_TOOLS.flatMap((tool) => [
    "[[rule]]",
    `toolName = "${tool}"`,
    'decision = "allow"',
    "priority = 999",
    "",
  ]),
].join("\n");

/** The private settings every review child gets, besides auth and model. */
const REVIEW_SETTINGS = {
  tools: { core: GEMINI_TOOLS },
  context: { fileFiltering: { respectGitIgnore: false, respectGeminiIgnore: false } },
  advanced: { ignoreLocalEnv: true, autoConfigureMemory: false },
  skills: { enabled: false },
  hooksConfig: { enabled: false },
  experimental: { enableAgents: false, autoMemory: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: {
    enableAutoUpdate: false,
    enableAutoUpdateNotification: false,
    checkpointing: { enabled: false },
  },
};

type Json = Record<string, unknown>;

/** The user's Gemini CLI setup, as the child carries it. */
export interface GeminiUser {
  /** The user's Gemini folder (`$GEMINI_CLI_HOME/.gemini` or `~/.gemini`). */
  dir: string;
  /** The carried settings keys. */
  carried: Json;
  /** Allowlisted variables of the user's `.env` (`~/.gemini/.env`, else `~/.env`). */
  dotenv: Record<string, string>;
  /** The `.env` they came from, when there is one. */
  dotenvPath?: string;
  /** Whether a Google login (`oauth_creds.json`) exists there. */
  oauth: boolean;
  /** Why the settings could not be used, when so. */
  problem?: string;
}

function allowed(vars: Record<string, string | undefined>): Record<string, string> {
  return allowlistEnv(vars, GEMINI_ENV_RULE);
}

/**
 * Keep only the auth and model keys of parsed user settings (pure): `security` reduced to `auth`,
 * and `model` (its `maxSessionTurns` is the review's).
 *
 * @param raw the user's parsed settings (anything)
 */
export function carryGeminiSettings(raw: unknown): Json {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const source = raw as Json;
  const out: Json = {};
  const security = source.security as Json | undefined;
  if (security && typeof security === "object" && security.auth !== undefined) {
    out.security = { auth: structuredClone(security.auth) };
  }
  if (source.model && typeof source.model === "object" && !Array.isArray(source.model)) {
    const { maxSessionTurns: _cap, ...model } = structuredClone(source.model) as Json;
    out.model = model;
  }
  return out;
}

/**
 * Read the user's Gemini CLI setup. Never throws: an unreadable or malformed `settings.json`
 * carries nothing and says why.
 *
 * @param env the parent environment (`GEMINI_CLI_HOME`, `HOME`)
 */
export async function readGeminiUser(env: Record<string, string | undefined>): Promise<GeminiUser> {
  const home = env.GEMINI_CLI_HOME || env.HOME || "/";
  const dir = join(home, ".gemini");
  const path = join(dir, "settings.json");
  let carried: Json = {};
  let problem: string | undefined;
  try {
    const text = await Deno.readTextFile(path);
    const errors: unknown[] = [];
    // loaded only for a gemini call with a settings file to read
    const { parse: parseJsonc } = await import("jsonc-parser");
    const raw = parseJsonc(text, errors as never, { allowTrailingComma: true });
    if (errors.length > 0) problem = `${path}: it is not valid JSON`;
    else carried = carryGeminiSettings(raw);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      problem = `${path}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  let dotenv: Record<string, string> = {};
  let dotenvPath: string | undefined;
  for (const candidate of [join(dir, ".env"), join(home, ".env")]) {
    const text = await Deno.readTextFile(candidate).catch(() => undefined);
    if (text === undefined) continue;
    dotenv = allowed(parseDotenv(text));
    dotenvPath = candidate;
    break;
  }
  const oauth = await pathExists(join(dir, "oauth_creds.json"));
  return {
    dir,
    carried,
    dotenv,
    oauth,
    ...(dotenvPath ? { dotenvPath } : {}),
    ...(problem ? { problem } : {}),
  };
}

/**
 * The auth the child selects: the user's `security.auth`, else API-key auth when a Gemini API key
 * is set (the CLI itself would pick its "gateway" auth once `GOOGLE_GEMINI_BASE_URL` is set, which
 * 0.61.0 refuses headless: "Invalid auth method selected").
 */
function authOf(carried: Json, env: Record<string, string>): Json | undefined {
  const auth = (carried.security as Json | undefined)?.auth as Json | undefined;
  if (auth && typeof auth.selectedType === "string") return auth;
  if (env.GEMINI_API_KEY) return { ...auth, selectedType: "gemini-api-key" };
  return auth;
}

/**
 * Build the private home in `dir`: `.gemini/settings.json` (the carried keys under the review's
 * settings, 0600), `.gemini/policies/review-gate.toml`, and links to the user's Google login when
 * there is one.
 *
 * @param dir the call's private directory
 * @param user what {@linkcode readGeminiUser} found
 * @param env the child's environment (picks API-key auth when no auth is configured)
 * @param maxTurns the review's turn cap, when known
 * @returns the private home's path (the child's `HOME` and `GEMINI_CLI_HOME`)
 */
export async function buildGeminiHome(
  dir: string,
  user: GeminiUser,
  env: Record<string, string>,
  maxTurns?: number,
): Promise<string> {
  const home = join(dir, "gemini-home");
  const gemini = join(home, ".gemini");
  await Deno.mkdir(join(gemini, "policies"), { recursive: true, mode: 0o700 });
  const auth = authOf(user.carried, env);
  const settings = {
    ...REVIEW_SETTINGS,
    ...(auth ? { security: { auth } } : {}),
    model: {
      ...(user.carried.model as Json | undefined),
      ...(maxTurns === undefined ? {} : { maxSessionTurns: maxTurns }),
    },
  };
  await Deno.writeTextFile(join(gemini, "settings.json"), JSON.stringify(settings, null, 2), {
    mode: 0o600,
  });
  await Deno.writeTextFile(join(gemini, "policies", "review-gate.toml"), REVIEW_POLICY, {
    mode: 0o600,
  });
  if (user.oauth) {
    for (const name of ["oauth_creds.json", "google_accounts.json"]) {
      if (await pathExists(join(user.dir, name))) {
        await Deno.symlink(join(user.dir, name), join(gemini, name));
      }
    }
  }
  return home;
}

/**
 * The call's private setup: a private `HOME` and `GEMINI_CLI_HOME` (carried settings, the review's
 * tools, policy and turn cap, linked login), a private `TMPDIR`, and the allowlisted environment
 * (the user's `.env` variables under the environment's own).
 *
 * @param context parent environment, the call's private directory and the review's turn limit
 */
export async function prepareGeminiChild(context: ChildContext): Promise<ChildSetup> {
  const user = await readGeminiUser(context.env);
  const vars = { ...user.dotenv, ...allowed(context.env) };
  const home = await buildGeminiHome(context.dir, user, vars, context.maxTurns);
  const tmp = join(context.dir, "tmp");
  await Deno.mkdir(tmp, { mode: 0o700 });
  const env = withFakeDeno({ ...vars, HOME: home, GEMINI_CLI_HOME: home, TMPDIR: tmp });
  return { env, args: [] };
}

/**
 * Say, without any secret, what auth the Gemini review child will use (for `doctor`).
 *
 * @param parent the parent environment
 * @param user what {@linkcode readGeminiUser} found
 * @throws {NoCredentialsError} when no variable, settings auth or login is found
 */
export function describeGeminiAuth(
  parent: Record<string, string | undefined>,
  user: GeminiUser,
): string[] {
  const lines: string[] = [];
  const secret = /KEY|TOKEN|CREDENTIALS/;
  const fromEnv = Object.keys(allowed(parent)).filter((n) => secret.test(n)).sort();
  if (fromEnv.length > 0) lines.push(`${fromEnv.join(", ")} from the environment`);
  const fromDotenv = Object.keys(user.dotenv).filter((n) => secret.test(n)).sort();
  if (fromDotenv.length > 0) lines.push(`${fromDotenv.join(", ")} from ${user.dotenvPath}`);
  const auth = (user.carried.security as Json | undefined)?.auth as Json | undefined;
  if (auth && typeof auth.selectedType === "string") {
    lines.push(`auth "${auth.selectedType}" from ${join(user.dir, "settings.json")}`);
  }
  if (user.oauth) lines.push(`Google login in ${join(user.dir, "oauth_creds.json")} (linked)`);
  if (user.problem) lines.push(`settings not used: ${user.problem}`);
  if (lines.length === 0 || (lines.length === 1 && user.problem)) {
    throw new NoCredentialsError(
      `no credentials found: no GEMINI_API_KEY or GOOGLE_API_KEY, no auth in ${
        join(user.dir, "settings.json")
      } and no Google login; run "gemini" once and log in, or set GEMINI_API_KEY`,
    );
  }
  return lines;
}

/**
 * What the Gemini review child carries (lib/providers/registry.ts): the carried settings, the
 * `.env` names and the login's presence, for the turn gate; the carried settings and `.env`
 * values less secrets for a verdict's key.
 */
export const geminiCarried: CarriedConfig = {
  identity: async (env) => {
    const user = await readGeminiUser(env);
    return [user.carried, user.dotenv, user.oauth, user.problem ?? null];
  },
  answerKey: async (env) => {
    const { carried, dotenv } = await readGeminiUser(env);
    const vars = Object.entries(dotenv).filter(([name]) => !notAnswerKey(name)).sort();
    const settings = JSON.stringify(
      carried,
      (key, value) => /key|token|secret/i.test(key) ? undefined : value,
    );
    return vars.length || settings !== "{}" ? JSON.stringify([vars, settings]) : null;
  },
};
