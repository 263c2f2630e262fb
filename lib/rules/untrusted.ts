/**
 * Untrusted-repository mode (pure): when the repository's `.review-gate.json` cannot be read from a
 * trusted side, it may only make the review stricter. {@linkcode stricterConfig} takes the config
 * without the repository's file and the config with it, and keeps, key by key, the stricter value:
 * the lower `fail_on` and `min_confidence`, `block` over `allow` for every gate's `on_*`, `block`
 * over `warn` for every gate's `mode` (README "Warn first"), the larger timeouts, turns and
 * budgets, more blocking categories, an enabled gate over a disabled one.
 * Everything else the repository sets — provider, model, cache, filters, instructions — is ignored,
 * because it could only steer or weaken the review (a provider that fails, files left out, a
 * guideline saying "approve").
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import { severityRank } from "../kinds/review/policy.ts";
import { CATEGORIES, type Severity } from "../kinds/review/types.ts";

type Json = Record<string, unknown>;
type Stricter = (trusted: unknown, repo: unknown) => unknown;

const max: Stricter = (a, b) => Math.max(a as number, b as number);
const min: Stricter = (a, b) => Math.min(a as number, b as number);
const either: Stricter = (a, b) => a === true || b === true;
const both: Stricter = (a, b) => a === true && b === true;
const block: Stricter = (a, b) => (a === "block" || b === "block" ? "block" : a);

/** The stricter choice per top-level key; keys not listed keep the trusted value. */
const TOP: Record<string, Stricter> = {
  fail_on: (a, b) => severityRank(a as Severity) >= severityRank(b as Severity) ? a : b,
  min_confidence: min,
  timeout_seconds: max,
  max_turns: max,
  block_on_preexisting: either,
  default_excludes: both,
  categories: (a, b) =>
    CATEGORIES.filter((c) => (a as string[]).includes(c) || (b as string[]).includes(c)),
};

/** The stricter choice for a key of a gate's settings (`gates.<name>.<key>`). */
function gateKey(key: string): Stricter | undefined {
  if (key.startsWith("on_") || key === "mode") return block;
  if (key === "enabled" || key === "review_tags") return either;
  if (key === "timeout_seconds" || key === "max_blocks" || key === "max_commits") return max;
  return undefined;
}

/**
 * Merge a repository's config into a trusted one so that it can only make the review stricter.
 *
 * @param trusted the config from defaults, user config, environment and flags (no repository file)
 * @param withRepo the same plus the repository's `.review-gate.json`
 * @returns the trusted config with each stricter repository value taken (module doc)
 */
export function stricterConfig(trusted: Config, withRepo: Config): Config {
  const out = structuredClone(trusted) as unknown as Json;
  const repo = withRepo as unknown as Json;
  for (const [key, pick] of Object.entries(TOP)) {
    if (key in out && key in repo) out[key] = pick(out[key], repo[key]);
  }
  const budgets = out.budgets as Json;
  for (const key of Object.keys(budgets)) {
    const value = (repo.budgets as Json)?.[key];
    if (typeof value === "number") budgets[key] = Math.max(budgets[key] as number, value);
  }
  const gates = out.gates as Record<string, Json>;
  for (const [name, settings] of Object.entries(gates)) {
    const theirs = (repo.gates as Record<string, Json> | undefined)?.[name] ?? {};
    for (const key of Object.keys(settings)) {
      const pick = gateKey(key);
      if (pick && key in theirs) settings[key] = pick(settings[key], theirs[key]);
    }
  }
  return out as unknown as Config;
}

/**
 * The keys where the repository's config differed from the trusted one and was not taken, for the
 * report (`provider`, `exclude`, `gates.pre_push.on_error`…).
 *
 * @param trusted the config without the repository file
 * @param withRepo the config with it
 * @param used the config in force
 */
export function ignoredRepoKeys(trusted: Config, withRepo: Config, used: Config): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, c: unknown, path: string) => {
    if (isObject(a) && isObject(b) && isObject(c)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        walk(a[key], b[key], c[key], path ? `${path}.${key}` : key);
      }
      return;
    }
    if (JSON.stringify(b) !== JSON.stringify(a) && JSON.stringify(b) !== JSON.stringify(c)) {
      out.push(path);
    }
  };
  walk(trusted, withRepo, used, "");
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
