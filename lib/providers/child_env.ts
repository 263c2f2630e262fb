/**
 * The provider child's environment is an allowlist, never the parent's environment minus a few
 * names (issue "isolate the provider child"): a review runs inside the user's shell, a CI runner or
 * a Claude Code hook, whose environments hold tokens of every kind, and whatever reaches the child
 * reaches the model's shell tool and so the next request body. What passes: what any CLI needs to
 * run and reach its API (PATH, locale, time zone, proxies, CA bundles), and each provider's own
 * auth and configuration variables, named by the adapter ({@linkcode EnvRule}). Never a Claude Code
 * session's own markers (`CLAUDECODE`, `CLAUDE_CODE_ENTRYPOINT`, the parent session's messaging
 * socket and token), another provider's keys, or `BASH_ENV`/`ENV`/`ZDOTDIR` (a shell would source
 * them). HOME and TMPDIR are set by the adapter (the private ones).
 *
 * Pure: no I/O ({@linkcode withFakeDeno} reads the running Deno's path).
 *
 * @module
 */

/** Names any provider child may get from the parent environment. */
export const COMMON_ENV: readonly string[] = [
  "PATH",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "TZ",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "all_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  // Windows: what a process needs to start at all
  "SystemRoot",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "TEMP",
  "TMP",
  "PATHEXT",
  "ComSpec",
  // the Deno cache of the bundled fake provider (a path, no secret)
  "DENO_DIR",
];

/** Prefixes any provider child may get: locale, and the bundled fake provider's script knobs. */
export const COMMON_PREFIXES: readonly string[] = ["LC_", "REVIEW_GATE_FAKE_"];

/** Which parent variables one provider adds to the common ones. */
export interface EnvRule {
  /** Exact names. */
  names: readonly string[];
  /** Name prefixes (e.g. `ANTHROPIC_`). */
  prefixes?: readonly string[];
}

/**
 * True when `name` passes the common allowlist or `rule`.
 *
 * @param name a variable name
 * @param rule the provider's own names and prefixes
 */
export function allowedName(name: string, rule: EnvRule): boolean {
  return COMMON_ENV.includes(name) || rule.names.includes(name) ||
    [...COMMON_PREFIXES, ...(rule.prefixes ?? [])].some((p) => name.startsWith(p));
}

/**
 * The parent variables the child may get: the common allowlist plus the provider's rule.
 *
 * @param parent the parent environment (undefined values are skipped)
 * @param rule the provider's own names and prefixes
 * @returns a new object with only allowed, defined variables
 */
export function allowlistEnv(
  parent: Record<string, string | undefined>,
  rule: EnvRule,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && allowedName(name, rule)) out[name] = value;
  }
  return out;
}

/**
 * A provider child's environment with `REVIEW_GATE_FAKE_DENO` naming the Deno that runs
 * review-gate, unless it names one already: the bundled fake provider is a shell launcher that
 * starts Deno, and a hook's `PATH` may hold none (review-gate installed from an npx run).
 *
 * @param env the child's environment
 * @returns a new object
 */
export function withFakeDeno(env: Record<string, string>): Record<string, string> {
  return env.REVIEW_GATE_FAKE_DENO ? env : { ...env, REVIEW_GATE_FAKE_DENO: Deno.execPath() };
}

/** `KEY=value` lines of a `.env` file (quotes stripped, comments and `export ` ignored). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^export\s+/, "");
    const eq = line.indexOf("=");
    if (line.startsWith("#") || eq <= 0) continue;
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    out[line.slice(0, eq).trim()] = value;
  }
  return out;
}

/** Names a verdict's cache key leaves out: review-gate's own settings, and secrets. */
const NOT_ANSWER_KEY = /^REVIEW_GATE_|(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$/i;

/**
 * Whether a variable's name is left out of a verdict's cache key (lib/providers/reviewer_env.ts
 * `answerEnvKey`, and each `CarriedConfig.answerKey`): review-gate's own settings, and secrets (a
 * rotated key changes no answer).
 *
 * @param name a variable's name
 */
export function notAnswerKey(name: string): boolean {
  return NOT_ANSWER_KEY.test(name);
}

/** True for an environment value that switches something on ("1", "true", "yes"). */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
