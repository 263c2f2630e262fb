/**
 * The home review-gate builds for every Codex review child (verified with the real codex-cli
 * 0.171.0 against loopback mocks; the adapter's module doc, lib/providers/codex/adapter.ts, has the facts).
 *
 * Codex reads a lot from `CODEX_HOME` (default `~/.codex`): `config.toml` with `[projects]` trust
 * (a trusted repository's `.codex/config.toml` then starts MCP servers outside the sandbox and adds
 * `developer_instructions`), `rules/`, `AGENTS.md`, `skills/`, hooks, `notify`, and `.env` (loaded
 * into codex's own environment). So each call gets a **private CODEX_HOME** holding only:
 * - `config.toml`: an allowlist of the user's keys ({@linkcode CARRIED_KEYS}: provider, model and
 *   login keys; the active `profile`'s keys flattened in), so a custom provider or gateway still
 *   works; everything else (projects, mcp_servers, hooks, notify, instructions, sandbox and
 *   permission settings, features, skills…) is dropped;
 * - `auth.json`: a **symlink** to the user's, never a copy — ChatGPT logins refresh their
 *   single-use refresh token in place, through the link; a copy would log the user out;
 * - nothing of `.env`: the variables the active provider names are carried into the child's
 *   environment instead.
 * Users whose credentials live in the OS keyring (`cli_auth_credentials_store = "keyring"` or
 * `"auto"`) cannot use a private home (the keyring entry is keyed by the home's path): they get the
 * fallback — their real CODEX_HOME with `--ignore-user-config` and the same carried keys as `-c`
 * options. User-level AGENTS.md, skills and `.env` of that home still apply then; `doctor` says so.
 *
 * The child's HOME is a private empty directory too: codex's shell sources `~/.bashrc` whatever
 * the environment is, and `~/.agents/skills` are loaded from HOME.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { allowlistEnv, type EnvRule, parseDotenv } from "../child_env.ts";
import { type CarriedConfig, NoCredentialsError } from "../provider.ts";
import { pathExists } from "../../base/path_exists.ts";

/** Keys of the user's codex config carried into the private home. */
export const CARRIED_KEYS: readonly string[] = [
  "model",
  "model_provider",
  "model_providers",
  "model_reasoning_effort",
  "model_reasoning_summary",
  "model_verbosity",
  "model_context_window",
  "model_auto_compact_token_limit",
  "service_tier",
  "openai_base_url",
  "chatgpt_base_url",
  "forced_login_method",
  "forced_chatgpt_workspace_id",
  "cli_auth_credentials_store",
];

type Toml = Record<string, unknown>;

/** The user's codex setup as review-gate reads it (never written). */
export interface CodexUser {
  /** The user's CODEX_HOME (`$CODEX_HOME`, else `~/.codex`). */
  home: string;
  /** The carried config keys (profile flattened in). */
  carried: Toml;
  /** `.env` variables of the user's CODEX_HOME that the active provider names. */
  dotenv: Record<string, string>;
  /** True when `auth.json` exists in the user's home. */
  authFile: boolean;
  /** "private": a home we build; "user": keyring users' fallback (`--ignore-user-config`). */
  mode: "private" | "user";
  /** Why config.toml could not be used, when so (the call then runs on codex's defaults). */
  problem?: string;
}

function isTable(value: unknown): value is Toml {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}

/**
 * The carried part of a parsed config (pure): {@linkcode CARRIED_KEYS} of the top level, then of
 * the active profile (`profile = "x"` → `[profiles.x]`) over them.
 *
 * @param config the parsed `config.toml`
 */
export function carryCodexConfig(config: Toml): Toml {
  const out: Toml = {};
  const take = (from: Toml) => {
    for (const key of CARRIED_KEYS) if (key in from) out[key] = from[key];
  };
  take(config);
  const profiles = config.profiles;
  if (
    typeof config.profile === "string" && isTable(profiles) && isTable(profiles[config.profile])
  ) {
    take(profiles[config.profile] as Toml);
  }
  return out;
}

/** The active provider's table (`model_providers.<model_provider>`), when the config defines it. */
function activeProvider(carried: Toml): Toml | undefined {
  const id = typeof carried.model_provider === "string" ? carried.model_provider : "openai";
  const tables = carried.model_providers;
  return isTable(tables) && isTable(tables[id]) ? tables[id] as Toml : undefined;
}

/**
 * The Codex child's allowlist rule: OpenAI's and codex's own variables, plus every variable the
 * active provider names (`env_key`, the values of `env_http_headers`); AWS variables only for a
 * Bedrock provider. Never `ANTHROPIC_*`, never the user's `CODEX_HOME`.
 *
 * @param carried the carried config keys
 */
export function codexEnvRule(carried: Toml): EnvRule {
  const names = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORGANIZATION",
    "OPENAI_PROJECT",
    "CODEX_API_KEY",
    "CODEX_CA_CERTIFICATE",
    "RUST_LOG",
  ];
  const provider = activeProvider(carried);
  if (typeof provider?.env_key === "string") names.push(provider.env_key);
  if (isTable(provider?.env_http_headers)) {
    for (const v of Object.values(provider.env_http_headers)) {
      if (typeof v === "string") names.push(v);
    }
  }
  const id = String(carried.model_provider ?? "");
  return { names, prefixes: /bedrock/i.test(id) ? ["AWS_"] : [] };
}

/**
 * Read the user's codex setup. Never throws: an unreadable or malformed `config.toml` carries
 * nothing and says why (codex would refuse it too).
 *
 * @param env the parent environment (CODEX_HOME, HOME)
 */
export async function readCodexUser(env: Record<string, string | undefined>): Promise<CodexUser> {
  const home = env.CODEX_HOME || join(env.HOME ?? "/", ".codex");
  let carried: Toml = {};
  let problem: string | undefined;
  try {
    const text = await Deno.readTextFile(join(home, "config.toml"));
    // loaded only for a codex call with a config.toml to read
    const { parse: parseToml } = await import("smol-toml");
    carried = carryCodexConfig(parseToml(text));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      problem = `${join(home, "config.toml")}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  const rule = codexEnvRule(carried);
  const dotenv = allowlistEnv(
    parseDotenv(await Deno.readTextFile(join(home, ".env")).catch(() => "")),
    { names: rule.names.filter((n) => n !== "RUST_LOG"), prefixes: [] },
  );
  const authFile = await pathExists(join(home, "auth.json"));
  const store = String(carried.cli_auth_credentials_store ?? "file");
  const mode = store === "keyring" || store === "auto" ? "user" : "private";
  return { home, carried, dotenv, authFile, mode, ...(problem ? { problem } : {}) };
}

/**
 * Build the private CODEX_HOME in `dir`: `config.toml` with the carried keys, `auth.json` linked
 * to the user's when it exists.
 *
 * @param dir the call's private directory
 * @param user what {@linkcode readCodexUser} found
 * @returns the private CODEX_HOME's path
 */
export async function buildCodexHome(dir: string, user: CodexUser): Promise<string> {
  const home = join(dir, "codex-home");
  await Deno.mkdir(home, { mode: 0o700 });
  const { stringify: stringifyToml } = await import("smol-toml");
  await Deno.writeTextFile(join(home, "config.toml"), stringifyToml(user.carried), { mode: 0o600 });
  if (user.authFile) await Deno.symlink(join(user.home, "auth.json"), join(home, "auth.json"));
  return home;
}

/**
 * A TOML inline value (for `-c key=value`): strings JSON-quoted (a valid TOML basic string),
 * tables as `{"k"=v,…}`.
 *
 * @param value a parsed TOML value
 */
export function tomlInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tomlInline).join(",")}]`;
  if (value instanceof Date) return value.toISOString();
  if (isTable(value)) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}=${tomlInline(v)}`)}}`;
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * The carried keys as `-c key=value` options, for the keyring fallback (`--ignore-user-config`).
 *
 * @param carried the carried config keys
 */
export function carriedConfigArgs(carried: Toml): string[] {
  return Object.entries(carried).flatMap(([k, v]) => ["-c", `${k}=${tomlInline(v)}`]);
}

/**
 * Say, without any secret, what auth and provider the Codex review child will use (for `doctor`).
 *
 * @param parent the parent environment
 * @param user what {@linkcode readCodexUser} found
 * @throws {NoCredentialsError} for OpenAI (the default provider) with no key in the environment or
 *   `.env`, no `auth.json` login and no keyring store
 */
export function describeCodexAuth(
  parent: Record<string, string | undefined>,
  user: CodexUser,
): string[] {
  const lines = [
    `provider "${String(user.carried.model_provider ?? "openai")}"${
      user.carried.model ? `, model "${String(user.carried.model)}"` : ""
    } from ${join(user.home, "config.toml")}`,
  ];
  const rule = codexEnvRule(user.carried);
  const settings = ["RUST_LOG", "CODEX_CA_CERTIFICATE", "OPENAI_BASE_URL", "OPENAI_ORGANIZATION"];
  const fromEnv = rule.names.filter((n) => ![...settings, "OPENAI_PROJECT"].includes(n))
    .filter((n) => parent[n]);
  if (fromEnv.length > 0) lines.push(`${fromEnv.join(", ")} from the environment`);
  const fromDotenv = Object.keys(user.dotenv);
  if (fromDotenv.length > 0) lines.push(`${fromDotenv.join(", ")} from ${join(user.home, ".env")}`);
  if (user.authFile) lines.push(`login in ${join(user.home, "auth.json")} (linked, not copied)`);
  if (user.mode === "user") {
    lines.push(
      `credentials in the system keyring: the reviewer runs with your CODEX_HOME and ` +
        `--ignore-user-config, so its AGENTS.md, skills and .env still apply`,
    );
  }
  if (user.problem) lines.push(`config not used: ${user.problem}`);
  const openai = String(user.carried.model_provider ?? "openai") === "openai";
  if (openai && lines.length === 1 && !user.problem) {
    throw new NoCredentialsError(
      `no credentials found: no OPENAI_API_KEY or CODEX_API_KEY, no ${
        join(user.home, ".env")
      } key and no login in ${
        join(user.home, "auth.json")
      }; run "codex login" or set OPENAI_API_KEY`,
    );
  }
  return lines;
}

/**
 * What the Codex review child carries (lib/providers/registry.ts): the carried `config.toml` keys,
 * the `.env` names, the auth mode and why the config could not be used, for the turn gate; the
 * carried keys alone for a verdict's key.
 */
export const codexCarried: CarriedConfig = {
  identity: async (env) => {
    const user = await readCodexUser(env);
    return [user.carried, user.dotenv, user.mode, user.problem ?? null];
  },
  answerKey: async (env) => {
    const { carried } = await readCodexUser(env);
    return Object.keys(carried).length ? JSON.stringify(carried) : null;
  },
};
