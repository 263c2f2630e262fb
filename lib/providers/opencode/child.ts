/**
 * What the OpenCode review child may see of the user's machine (docs/providers.md "OpenCode"): its
 * environment (an allowlist, lib/providers/child_env.ts), private config, data, cache and state
 * folders, and the review's own config.
 *
 * OpenCode reads its user config, agents, commands, plugins, skills and instructions from
 * `$XDG_CONFIG_HOME/opencode` (default `~/.config/opencode`), its logins (`auth.json`) and sessions
 * from `$XDG_DATA_HOME/opencode`, installed plugins and provider packages from
 * `$XDG_CACHE_HOME/opencode`. The child gets private ones (`HOME`, `XDG_CONFIG_HOME`,
 * `XDG_DATA_HOME`, `XDG_CACHE_HOME`, `XDG_STATE_HOME` and `TMPDIR` in the call's private
 * directory) and `OPENCODE_CONFIG_CONTENT` ({@linkcode reviewConfig}), the config OpenCode merges
 * last:
 * - the user's provider and model keys carried from their own config
 *   ({@linkcode carryOpencodeConfig}: `provider`, `model`, `small_model`, `enabled_providers`,
 *   `disabled_providers`). Never the user's `agent`, `mcp`, `plugin`, `permission`, `tools`,
 *   `instructions` or `command`;
 * - the reviewer agent ({@linkcode REVIEW_AGENT}): every permission denied but `read`, `grep`,
 *   `glob` and `list`, so the model is offered those read tools only (the built-in `plan` agent
 *   still allows a shell);
 * - no MCP servers, plugins, instructions, LSP, formatter, snapshots, sharing or update check.
 * `auth.json` in the private data folder links to the user's logins (`opencode auth login`), when
 * there are any; both attempts of a call share the private data folder, where the session the
 * corrective `--session` continues is kept.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { allowlistEnv, type EnvRule, notAnswerKey, withFakeDeno } from "../child_env.ts";
import {
  type CarriedConfig,
  type ChildContext,
  type ChildSetup,
  NoCredentialsError,
} from "../provider.ts";

/** The name of the reviewer agent the review config defines (`opencode run --agent`). */
export const REVIEW_AGENT_NAME = "review-gate";

/** The permissions the reviewer has: every one denied but reading the copy. */
export const REVIEW_PERMISSION: Readonly<Record<string, "allow" | "deny">> = {
  "*": "deny",
  read: "allow",
  grep: "allow",
  glob: "allow",
  list: "allow",
};

/** The reviewer agent: a primary agent with {@linkcode REVIEW_PERMISSION}. */
export const REVIEW_AGENT = {
  mode: "primary",
  description: "review-gate's read-only reviewer: reads the private copy, writes nothing",
  permission: REVIEW_PERMISSION,
};

/** Keys of the user's config carried into the review config (provider and model only). */
export const CARRIED_KEYS: readonly string[] = [
  "provider",
  "model",
  "small_model",
  "enabled_providers",
  "disabled_providers",
];

/** The user config files OpenCode merges, in its order (later over earlier). */
const USER_CONFIG_FILES = ["config.json", "opencode.json", "opencode.jsonc"];

/**
 * The provider API keys the child takes from the environment (OpenCode reads each provider's own
 * variable). Never an `OPENCODE_*` setting but `OPENCODE_API_KEY` (`OPENCODE_CONFIG`,
 * `OPENCODE_CONFIG_DIR`, `OPENCODE_PERMISSION`, `OPENCODE_AUTH_CONTENT` would each steer or
 * loosen the reviewer).
 */
export const OPENCODE_KEY_VARS: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENROUTER_API_KEY",
  "GROQ_API_KEY",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
  "MISTRAL_API_KEY",
  "OPENCODE_API_KEY",
];

/** Names a carried config's `{env:NAME}` may not bring into the child. */
const NEVER_VAR = /^(OPENCODE_(?!API_KEY$)\w*|BASH_ENV|ENV|ZDOTDIR|NODE_OPTIONS|XDG_\w+|HOME)$/;

/** What every review child sets for OpenCode: no project config, no Claude Code files, offline. */
const REVIEW_ENV: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_PROJECT_CONFIG: "1",
  OPENCODE_DISABLE_CLAUDE_CODE: "1",
  OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_TERMINAL_TITLE: "1",
};

type Json = Record<string, unknown>;

/** The user's OpenCode setup, as the child carries it. */
export interface OpencodeUser {
  /** The user's config folder (`$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`). */
  configDir: string;
  /** The user's logins file (`$XDG_DATA_HOME/opencode/auth.json`). */
  authFile: string;
  /** The carried config keys. */
  carried: Json;
  /** The providers `auth.json` holds a login for (names only), when it exists. */
  logins: string[] | null;
  /** Why a config file could not be used, when so. */
  problem?: string;
}

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Keep only the provider and model keys of a parsed user config (pure).
 *
 * @param raw the user's parsed config (anything)
 * @returns the {@linkcode CARRIED_KEYS} it has, deep-copied
 */
export function carryOpencodeConfig(raw: unknown): Json {
  if (!isJson(raw)) return {};
  const out: Json = {};
  for (const key of CARRIED_KEYS) {
    if (raw[key] !== undefined) out[key] = structuredClone(raw[key]);
  }
  return out;
}

/** The `{env:NAME}` names a carried config reads (OpenCode's variable substitution). */
export function referencedVars(carried: Json): string[] {
  const names = [...JSON.stringify(carried).matchAll(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)]
    .map((m) => m[1]);
  return [...new Set(names)].filter((name) => !NEVER_VAR.test(name)).sort();
}

/** The child's allowlist: the common one, the provider keys and the carried config's names. */
export function opencodeEnvRule(carried: Json): EnvRule {
  return { names: [...OPENCODE_KEY_VARS, ...referencedVars(carried)] };
}

function userDirs(env: Record<string, string | undefined>): { config: string; data: string } {
  const home = env.HOME ?? "/";
  return {
    config: join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode"),
    data: join(env.XDG_DATA_HOME || join(home, ".local", "share"), "opencode"),
  };
}

async function readConfigFile(path: string): Promise<{ raw?: unknown; problem?: string }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    return { problem: `${path}: ${(error as Error).message.split("\n")[0]}` };
  }
  const errors: unknown[] = [];
  // loaded only for an opencode call with a config file to read
  const { parse: parseJsonc } = await import("jsonc-parser");
  const raw = parseJsonc(text, errors as never, { allowTrailingComma: true });
  return errors.length > 0 ? { problem: `${path}: it is not valid JSON` } : { raw };
}

async function readLogins(path: string): Promise<string[] | null> {
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(path));
    return isJson(parsed) ? Object.keys(parsed).sort() : [];
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? null : [];
  }
}

/**
 * Read the user's OpenCode setup: the carried keys of their config files (merged as OpenCode
 * merges them) and which providers their `auth.json` logs in to. Never throws: an unreadable or
 * malformed file carries nothing and says why.
 *
 * @param env the parent environment (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `HOME`)
 */
export async function readOpencodeUser(
  env: Record<string, string | undefined>,
): Promise<OpencodeUser> {
  const dirs = userDirs(env);
  let carried: Json = {};
  const problems: string[] = [];
  for (const name of USER_CONFIG_FILES) {
    const { raw, problem } = await readConfigFile(join(dirs.config, name));
    if (problem) problems.push(problem);
    else if (raw !== undefined) carried = { ...carried, ...carryOpencodeConfig(raw) };
  }
  const authFile = join(dirs.data, "auth.json");
  const logins = await readLogins(authFile);
  return {
    configDir: dirs.config,
    authFile,
    carried,
    logins,
    ...(problems.length ? { problem: problems.join("; ") } : {}),
  };
}

/**
 * The config the review child gets in `OPENCODE_CONFIG_CONTENT` (pure): the carried keys, the
 * reviewer agent as the default agent, and what a review needs off.
 *
 * @param carried the carried keys of the user's config
 */
export function reviewConfig(carried: Json): Json {
  return {
    ...carried,
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    lsp: false,
    formatter: false,
    mcp: {},
    plugin: [],
    instructions: [],
    default_agent: REVIEW_AGENT_NAME,
    agent: { [REVIEW_AGENT_NAME]: REVIEW_AGENT },
  };
}

/**
 * The call's private setup: private `HOME`, XDG folders and `TMPDIR`, `auth.json` linked to the
 * user's logins, the review config, and the allowlisted environment.
 *
 * @param context parent environment and the call's private directory
 */
export async function prepareOpencodeChild(context: ChildContext): Promise<ChildSetup> {
  const user = await readOpencodeUser(context.env);
  const dirs = Object.fromEntries(
    ["home", "config", "data", "cache", "state", "tmp"].map((d) => [d, join(context.dir, d)]),
  );
  for (const dir of Object.values(dirs)) await Deno.mkdir(dir, { mode: 0o700 });
  if (user.logins !== null) {
    await Deno.mkdir(join(dirs.data, "opencode"), { mode: 0o700 });
    await Deno.symlink(user.authFile, join(dirs.data, "opencode", "auth.json"));
  }
  const env = withFakeDeno({
    ...allowlistEnv(context.env, opencodeEnvRule(user.carried)),
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    TMPDIR: dirs.tmp,
    ...REVIEW_ENV,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(reviewConfig(user.carried)),
  });
  return { env, args: [] };
}

/**
 * Say, without any secret, what auth the OpenCode review child will use (for `doctor`).
 *
 * @param parent the parent environment
 * @param user what {@linkcode readOpencodeUser} found
 * @throws {NoCredentialsError} when no key variable, configured provider or login is found
 */
export function describeOpencodeAuth(
  parent: Record<string, string | undefined>,
  user: OpencodeUser,
): string[] {
  const lines: string[] = [];
  const fromEnv = OPENCODE_KEY_VARS.filter((name) => parent[name]);
  if (fromEnv.length > 0) lines.push(`${fromEnv.join(", ")} from the environment`);
  const providers = isJson(user.carried.provider) ? Object.keys(user.carried.provider) : [];
  if (providers.length > 0) {
    lines.push(`providers ${providers.join(", ")} from ${user.configDir}`);
  }
  if (typeof user.carried.model === "string") {
    lines.push(`model "${user.carried.model}" from ${user.configDir}`);
  }
  if (user.logins && user.logins.length > 0) {
    lines.push(`logins for ${user.logins.join(", ")} in ${user.authFile} (linked)`);
  }
  if (user.problem) lines.push(`config not used: ${user.problem}`);
  if (fromEnv.length === 0 && providers.length === 0 && !user.logins?.length) {
    throw new NoCredentialsError(
      `no credentials found: no provider key variable (${OPENCODE_KEY_VARS.join(", ")}), no ` +
        `provider in ${user.configDir} and no login in ${user.authFile}; run ` +
        `"opencode auth login", or set the key of your model's provider`,
    );
  }
  return lines;
}

/**
 * What the OpenCode review child carries (lib/providers/registry.ts): the carried config keys and
 * the logins' provider names, for the turn gate; the carried keys less secrets for a verdict's key.
 */
export const opencodeCarried: CarriedConfig = {
  identity: async (env) => {
    const user = await readOpencodeUser(env);
    return [user.carried, user.logins, user.problem ?? null];
  },
  answerKey: async (env) => {
    const { carried } = await readOpencodeUser(env);
    if (Object.keys(carried).length === 0) return null;
    // secrets left out: a rotated key changes no answer
    return JSON.stringify(carried, (key, value) => notAnswerKey(key) ? undefined : value);
  },
};
