/**
 * Literal credentials of the user's codex providers, moved out of every file and argument the
 * review child gets (README "Security model"). A `[model_providers.<id>]` table may carry a token
 * written out (`experimental_bearer_token`, the values of `http_headers`); copied as they are, they
 * would sit in the private `CODEX_HOME/config.toml` (or, for keyring users, in `-c` arguments, which
 * the run record keeps). Each is replaced by the variable form codex reads the same value from —
 * `env_key` for the bearer token, `env_http_headers` for a header — and the value rides in the
 * child's environment, which the model's shell does not see (`shell_environment_policy.inherit =
 * "core"` passes only `CODEX_*`, HOME, PATH, locale and terminal names, so the variables are named
 * `REVIEW_GATE_PROVIDER_SECRET_<n>`, never `CODEX_…`).
 *
 * @module
 */

type Toml = Record<string, unknown>;

function isTable(value: unknown): value is Toml {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}

/** Prefix of the variables that carry a moved secret. */
export const SECRET_VAR_PREFIX = "REVIEW_GATE_PROVIDER_SECRET_";

/**
 * Move the literal secrets of every provider table into variables (pure; the input is not changed).
 *
 * @param carried the carried config keys (lib/providers/codex/child.ts `carryCodexConfig`)
 * @returns the config without literal secrets, and the variables (name → value) that carry them
 */
export function moveProviderSecrets(carried: Toml): { carried: Toml; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const tables = carried.model_providers;
  if (!isTable(tables)) return { carried, env };
  const variable = (value: string) => {
    const name = `${SECRET_VAR_PREFIX}${Object.keys(env).length + 1}`;
    env[name] = value;
    return name;
  };
  const providers: Toml = {};
  for (const [id, table] of Object.entries(tables)) {
    if (!isTable(table)) {
      providers[id] = table;
      continue;
    }
    const { experimental_bearer_token: token, http_headers: headers, ...rest } = table;
    const out: Toml = { ...rest };
    if (typeof token === "string" && token !== "") out.env_key = variable(token);
    if (isTable(headers)) {
      const moved: Toml = isTable(rest.env_http_headers) ? { ...rest.env_http_headers } : {};
      for (const [header, value] of Object.entries(headers)) {
        moved[header] = variable(String(value));
      }
      out.env_http_headers = moved;
    }
    providers[id] = out;
  }
  return { carried: { ...carried, model_providers: providers }, env };
}
