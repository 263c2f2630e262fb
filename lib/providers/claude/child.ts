/**
 * What the Claude Code review child may see of the user's machine: its environment (an allowlist,
 * lib/providers/child_env.ts) and the auth that lives only in the user's Claude settings.
 *
 * The child runs with `--setting-sources ""`, so none of the user's, the project's or the local
 * settings apply: no hooks, no permission rules, no plugins. That also drops auth kept in the
 * user's `~/.claude/settings.json` (`env` block, `apiKeyHelper` and the other credential helpers:
 * Bedrock, Vertex, gateways), and every review would be a 401. So exactly those keys are carried
 * into a private `--settings` file (0600, in the call's private temp dir; never on argv, which the
 * transcript stores and `ps` shows): `--settings` is honoured under `--setting-sources ""` and
 * brings only the keys it holds — verified with the real 2.1.332 (a key only in the user settings
 * reached the mock; a hook in the same settings did not run). They are read from the **user** file
 * only (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`), never from the
 * repository's `.claude/settings*.json` (its `env.ANTHROPIC_BASE_URL` would send the key to a URL
 * of the repository's choosing). Managed settings apply anyway.
 *
 * Carried: `apiKeyHelper`, `awsAuthRefresh`, `awsCredentialExport`, `gcpAuthRefresh`,
 * `proxyAuthHelper` (the binary's credential-helper list, less `otelHeadersHelper`: telemetry), and
 * from `env` only the names the child's allowlist would take from the environment. Never `hooks`,
 * `permissions`, `statusLine`, `mcpServers`, `enabledPlugins`.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { type CarriedConfig, NoCredentialsError } from "../provider.ts";
import {
  allowedName,
  allowlistEnv,
  type EnvRule,
  notAnswerKey,
  truthy,
  withFakeDeno,
} from "../child_env.ts";

/** Credential helpers carried from the user's settings. */
export const CARRIED_HELPERS: readonly string[] = [
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "gcpAuthRefresh",
  "proxyAuthHelper",
];

/** Claude Code's own variables (auth, endpoint, retries, quiet switches). */
const CLAUDE_NAMES = [
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_MAX_RETRIES",
  "API_TIMEOUT_MS",
  "CLAUDE_CODE_CLIENT_CERT",
  "CLAUDE_CODE_CLIENT_KEY",
  "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_USE_FOUNDRY",
  "CLAUDE_CODE_SKIP_BEDROCK_AUTH",
  "CLAUDE_CODE_SKIP_VERTEX_AUTH",
  "CLAUDE_CODE_SKIP_FOUNDRY_AUTH",
  "DISABLE_AUTOUPDATER",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "DISABLE_BUG_COMMAND",
  "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
  "CLAUDE_CODE_DISABLE_TERMINAL_TITLE",
];

/**
 * The Claude child's allowlist rule. Cloud credentials pass only when Claude Code is told to use
 * that cloud (`CLAUDE_CODE_USE_BEDROCK` / `_VERTEX` / `_FOUNDRY`, in the environment or in the
 * carried settings `env`): an AWS key in a CI runner's environment is not Claude's otherwise.
 *
 * @param switches the environment plus the carried settings `env` (where the USE_* switches are)
 */
export function claudeEnvRule(switches: Record<string, string | undefined>): EnvRule {
  const names = [...CLAUDE_NAMES];
  const prefixes = ["ANTHROPIC_"];
  if (truthy(switches.CLAUDE_CODE_USE_BEDROCK)) prefixes.push("AWS_");
  if (truthy(switches.CLAUDE_CODE_USE_VERTEX)) {
    prefixes.push("VERTEX_REGION_");
    names.push(
      "CLOUD_ML_REGION",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "GOOGLE_CLOUD_PROJECT",
      "GCLOUD_PROJECT",
      "CLOUDSDK_CONFIG",
    );
  }
  if (truthy(switches.CLAUDE_CODE_USE_FOUNDRY)) prefixes.push("AZURE_");
  return { names, prefixes };
}

/** The user's Claude settings file: `$CLAUDE_CONFIG_DIR/settings.json` or `~/.claude/settings.json`. */
export function userSettingsPath(env: Record<string, string | undefined>): string | undefined {
  if (env.CLAUDE_CONFIG_DIR) return join(env.CLAUDE_CONFIG_DIR, "settings.json");
  return env.HOME ? join(env.HOME, ".claude", "settings.json") : undefined;
}

/** The auth-related part of the user's settings, and where it came from. */
export interface CarriedSettings {
  /** The `--settings` object: carried helpers and `env` entries (may be empty). */
  settings: { env?: Record<string, string> } & Record<string, unknown>;
  /** The file they came from, when it exists. */
  source?: string;
  /** Why the file could not be used (unreadable, not JSON), when so. */
  problem?: string;
}

/**
 * Keep only the auth-related keys of a parsed settings object (pure).
 *
 * @param raw the user's parsed settings (anything)
 * @param env the parent environment (its USE_* switches count too)
 * @returns the carried object: helpers that are strings, `env` entries the allowlist takes
 */
export function carryAuthSettings(
  raw: unknown,
  env: Record<string, string | undefined>,
): CarriedSettings["settings"] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const source = raw as Record<string, unknown>;
  const out: CarriedSettings["settings"] = {};
  for (const key of CARRIED_HELPERS) {
    if (typeof source[key] === "string" && source[key] !== "") out[key] = source[key];
  }
  const block = source.env;
  if (typeof block === "object" && block !== null && !Array.isArray(block)) {
    const strings = Object.fromEntries(
      Object.entries(block).filter(([, v]) => typeof v === "string"),
    ) as Record<string, string>;
    const rule = claudeEnvRule({ ...env, ...strings });
    const kept = Object.fromEntries(
      Object.entries(strings).filter(([name]) => allowedName(name, rule)),
    );
    if (Object.keys(kept).length > 0) out.env = kept;
  }
  return out;
}

/**
 * Read the user's Claude settings and keep their auth-related keys. Never throws: a missing file
 * carries nothing; an unreadable or malformed one carries nothing and says why.
 *
 * @param env the parent environment (HOME, CLAUDE_CONFIG_DIR)
 */
export async function readCarriedSettings(
  env: Record<string, string | undefined>,
): Promise<CarriedSettings> {
  const path = userSettingsPath(env);
  if (!path) return { settings: {} };
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { settings: {} };
    return { settings: {}, source: path, problem: `cannot read it: ${(error as Error).message}` };
  }
  const errors: unknown[] = [];
  // loaded only when there is a settings file to read: most runs never parse JSONC
  const { parse: parseJsonc } = await import("jsonc-parser");
  const raw = parseJsonc(text, errors as never, { allowTrailingComma: true });
  if (errors.length > 0) return { settings: {}, source: path, problem: "it is not valid JSON" };
  return { settings: carryAuthSettings(raw, env), source: path };
}

/**
 * The Claude child's environment: the allowlist of the parent environment (cloud credentials only
 * when the environment or the carried settings switch that cloud on).
 *
 * @param parent the parent environment
 * @param carried the carried settings (their `env` holds USE_* switches too)
 */
export function claudeChildEnv(
  parent: Record<string, string | undefined>,
  carried: CarriedSettings["settings"],
): Record<string, string> {
  return withFakeDeno(allowlistEnv(parent, claudeEnvRule({ ...parent, ...carried.env })));
}

/**
 * Say, without any secret, what auth the Claude review child will use (for `doctor`).
 *
 * @param parent the parent environment
 * @param carried what {@linkcode readCarriedSettings} found
 * @returns one line per source, e.g. `ANTHROPIC_API_KEY from the environment`
 */
export function describeClaudeAuth(
  parent: Record<string, string | undefined>,
  carried: CarriedSettings,
): string[] {
  const lines: string[] = [];
  const env = claudeChildEnv(parent, carried.settings);
  const fromEnv = Object.keys(env).filter((n) => /KEY|TOKEN|AUTH|BEDROCK|VERTEX|FOUNDRY/.test(n))
    .filter((n) => n.startsWith("ANTHROPIC_") || n.startsWith("CLAUDE_CODE_"));
  if (fromEnv.length > 0) lines.push(`${fromEnv.sort().join(", ")} from the environment`);
  const where = carried.source ?? "the user settings";
  const helpers = CARRIED_HELPERS.filter((k) => k in carried.settings);
  if (helpers.length > 0) lines.push(`${helpers.join(", ")} from ${where}`);
  const settingsEnv = Object.keys(carried.settings.env ?? {}).sort();
  if (settingsEnv.length > 0) lines.push(`env ${settingsEnv.join(", ")} from ${where}`);
  if (carried.problem) lines.push(`${where} not used: ${carried.problem}`);
  if (lines.length === 0) lines.push(OWN_LOGIN);
  return lines;
}

/** What {@linkcode describeClaudeAuth} says when no other source is set. */
const OWN_LOGIN = "Claude Code's own login";

/**
 * {@linkcode describeClaudeAuth}'s lines with its "own login" line checked on disk. Where Claude
 * Code keeps its login (read in the 2.1.332 binary, not in its docs): on macOS in the system
 * keychain (the `security` tool), elsewhere in plaintext in `$CLAUDE_CONFIG_DIR/.credentials.json`
 * (default `~/.claude`); an API key saved by `/login` goes to the keychain on macOS, elsewhere to
 * Claude Code's own config file. So a `.credentials.json` is a login found; on macOS without one
 * the answer is unknown (review-gate does not read the keychain); elsewhere none was found.
 *
 * @param env the parent environment (`HOME`, `CLAUDE_CONFIG_DIR`)
 * @param lines from {@linkcode describeClaudeAuth}
 * @param os the operating system (`Deno.build.os`)
 * @returns the lines, the login line naming the file found
 * @throws {NoCredentialsError} when no source is set and no `.credentials.json` exists, saying
 *   whether that means "not found" or (macOS) "unknown"
 */
export async function checkClaudeLogin(
  env: Record<string, string | undefined>,
  lines: string[],
  os: string = Deno.build.os,
): Promise<string[]> {
  if (lines.length !== 1 || lines[0] !== OWN_LOGIN) return lines;
  const dir = env.CLAUDE_CONFIG_DIR ?? (env.HOME ? join(env.HOME, ".claude") : undefined);
  const file = dir ? join(dir, ".credentials.json") : undefined;
  if (file && (await Deno.stat(file).catch(() => null)) !== null) {
    return [`Claude Code's own login (${file})`];
  }
  const fix = 'run "claude" once and log in, or set ANTHROPIC_API_KEY';
  const checked = file ? `"${file}" does not exist` : "HOME is not set";
  if (os === "darwin" && file) {
    throw new NoCredentialsError(
      `unknown: no ANTHROPIC_* variable or apiKeyHelper, and ${checked}; on macOS Claude Code keeps its login in the system keychain, which review-gate does not read. If reviews fail to log in, ${fix}`,
      { unknown: true },
    );
  }
  throw new NoCredentialsError(
    `no credentials found: no ANTHROPIC_* variable, no apiKeyHelper, and no Claude Code login (${checked}); ${fix} (an API key saved by /login in Claude Code's own config is not checked)`,
  );
}

/**
 * What the Claude review child carries (lib/providers/registry.ts): the carried settings and why
 * the file could not be used, for the turn gate; for a verdict's key, the settings `env` less
 * secrets and the credential helpers' commands.
 */
export const claudeCarried: CarriedConfig = {
  identity: async (env) => {
    const carried = await readCarriedSettings(env);
    return [carried.settings, carried.problem ?? null];
  },
  answerKey: async (env) => {
    const { settings } = await readCarriedSettings(env);
    const { env: vars, ...helpers } = settings as { env?: Record<string, string> };
    const kept = Object.entries(vars ?? {}).filter(([name]) => !notAnswerKey(name)).sort();
    return kept.length || Object.keys(helpers).length ? JSON.stringify([kept, helpers]) : null;
  },
};
