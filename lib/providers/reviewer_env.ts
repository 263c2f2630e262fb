/**
 * The environment that decides which model answers a review and where its requests go, across
 * providers (docs/design.md "Trusted inputs"): the providers' own variables (each provider's
 * `reviewerVars` in its folder's `meta.ts`: `ANTHROPIC_*`, `OPENAI_*`, `CODEX_*`, `MISTRAL_*`,
 * `VIBE_*`…), the cloud credentials a provider may use (`AWS_*`,
 * `GOOGLE_*`, `CLOUD_ML_*`, `VERTEX_*`, `AZURE_*`), Claude Code's config folder and cloud switches
 * (`CLAUDE_CONFIG_DIR`, `CLAUDE_CODE_USE_*`), the proxies and CA bundles, and review-gate's own
 * settings and program overrides (`REVIEW_GATE_*` — not the bundled fake's test knobs
 * `REVIEW_GATE_FAKE_*`, nor the per-call `REVIEW_GATE_PUSH_STAMP`, `REVIEW_GATE_DEBUG`). A gate that
 * must not take a reviewer the agent under review chose compares these, by digest: values are
 * never stored (some are keys).
 *
 * Pure but for hashing, and reading the provider's own config for a cache key.
 *
 * @module
 */
import { sha256Hex } from "../base/sha256.ts";
import { carriedConfig, providerMetas } from "./registry.ts";
import { notAnswerKey } from "./child_env.ts";

/** Variables that pick any provider's model or endpoint: clouds, proxies, CA bundles, ours. */
const COMMON_REVIEWER_VAR =
  "(AWS|GOOGLE|CLOUD_ML|VERTEX|AZURE)_\\w+|(HTTPS?|ALL|NO)_PROXY|SSL_CERT_(FILE|DIR)|NODE_EXTRA_CA_CERTS|REVIEW_GATE_\\w+";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const REVIEWER_VAR = new RegExp(
  `^(${
    [
      COMMON_REVIEWER_VAR,
      ...providerMetas().flatMap(({ reviewerVars }) => [
        ...(reviewerVars.names ?? []).map(escape),
        ...reviewerVars.prefixes.map((prefix) => `${escape(prefix)}\\w+`),
      ]),
    ].join("|")
  })$`,
  "i",
);
const NOT_REVIEWER = /^REVIEW_GATE_(FAKE_\w+|PUSH_STAMP|DEBUG|CONTRACT_\w+|TEST_\w+)$/;

/**
 * Whether an environment variable is one that changes the reviewer's answer.
 *
 * @param name the variable's name
 */
export function isReviewerVar(name: string): boolean {
  return REVIEWER_VAR.test(name) && !NOT_REVIEWER.test(name);
}

/**
 * The digests of the reviewer variables set in `env`.
 *
 * @param env an environment
 * @returns name → sha256 hex of its value, names sorted
 */
export async function reviewerVarDigests(
  env: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  const names = Object.keys(env).filter((n) => env[n] !== undefined && isReviewerVar(n)).sort();
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await sha256Hex(env[name]!);
  return out;
}

/**
 * A digest of the reviewer variables that pick the model and where requests go (endpoints,
 * regions, projects, proxies, cloud switches) — and, given the provider, of what its child carries
 * from the user's provider config (Claude Code's settings `env` and helpers, Codex's carried
 * `config.toml` keys) — for a verdict's cache key: review-gate's own
 * `REVIEW_GATE_*` settings (policy, or program overrides already in the key) and secrets (a
 * rotated key changes no answer) are left out.
 *
 * @param env an environment
 * @param provider the provider whose carried config counts (none: only the variables)
 * @returns sha256 hex (16 digits) of the names and values' digests, or `""` when none is set
 */
export async function answerEnvKey(
  env: Record<string, string | undefined>,
  provider?: string,
): Promise<string> {
  const digests = Object.entries(await reviewerVarDigests(env))
    .filter(([name]) => !notAnswerKey(name));
  const carried = provider ? await carriedKey(env, provider) : null;
  if (digests.length === 0 && carried === null) return "";
  return (await sha256Hex(JSON.stringify(carried === null ? digests : [digests, carried])))
    .slice(0, 16);
}

/**
 * What the provider's review child carries from the user's own config that picks the model or
 * where requests go (its `CarriedConfig.answerKey`: Claude Code's settings `env` and credential
 * helpers' commands, Codex's carried `config.toml` keys) as JSON; `null` when nothing is carried.
 */
async function carriedKey(
  env: Record<string, string | undefined>,
  provider: string,
): Promise<string | null> {
  return await (await carriedConfig(provider))?.answerKey(env) ?? null;
}
