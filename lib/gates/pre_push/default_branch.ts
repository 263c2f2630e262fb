/**
 * A loosening the repository's config grants counts for a push only when the remote's default
 * branch has it too (README "Warn first", "Team rules" → "Where the rules are read from"). A push
 * reads `.review-gate.json` from its range's base (lib/gates/pre_push/rules.ts), and a base can be
 * any commit the remote has: a branch cut while the team's config said `gates.pre_push.mode:
 * "warn"`, an old tag, an orphan branch whose first push carried a loose config. So every key the
 * base's file sets looser than the config without it — the user's config, the environment and the
 * defaults, which stay trusted — (warn mode, the gate disabled, a higher `fail_on`, a shorter
 * timeout…: the keys of lib/rules/untrusted.ts) takes, key by key, the stricter of the base's
 * value and the default branch's. The default branch is what the remote answers for itself (`git
 * ls-remote --symref <url> HEAD`, lib/gates/pre_push/remote_refs.ts), never a local
 * `refs/remotes/<remote>/HEAD`; when it cannot be established (no answer, a `HEAD` that names no
 * branch, a tip that is not here, an invalid config there) the stricter value of the config
 * without the repository file applies. What was not applied is said in plain words.
 *
 * A base whose file loosens nothing costs nothing here: the remote is asked only for a loosening,
 * at most once per push.
 *
 * @module
 */
import { type Config, loadConfig, REPO_CONFIG_FILE } from "../../config/config.ts";
import { ConfigError, UsageError } from "../../base/errors.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { loadRulesConfig } from "../../rules/config_at.ts";
import { resolveRulesFrom } from "../../rules/source.ts";
import { stricterConfig } from "../../rules/untrusted.ts";
import type { DefaultBranch } from "./remote_refs.ts";
import { loadWithUserConfig, type PushUserConfig } from "./user_config.ts";

/** The base's config once the default branch was consulted. */
export interface DefaultBranchCheck {
  /** The config in force: the base's, with each loosening the default branch does not share undone. */
  config: Config;
  /** What was not applied and why, one line for people and the run record; `null`: all applied. */
  note: string | null;
  /** The remote was asked (a push stamp must not replay an answer resting on it). */
  asked: boolean;
}

type Json = Record<string, unknown>;

/**
 * Undo the loosenings of the base's config that the remote's default branch does not share.
 *
 * @param runner the subprocess seam
 * @param at the repository, environment and user config of the push; the range's `base` and its
 *   config (`baseConfig`: defaults, user, environment and the base's file), how to name the base,
 *   and how to ask the remote for its default branch (asked only when the base loosens something)
 * @returns the config in force and what was not applied
 * @throws {ConfigError} when the user config or environment does not load (as for the base)
 */
export async function checkDefaultBranch(
  runner: Runner,
  at: {
    repo: Repo;
    env: Record<string, string | undefined>;
    user: PushUserConfig;
    base: string;
    baseConfig: Config;
    label: string;
    ask: () => Promise<DefaultBranch>;
  },
): Promise<DefaultBranchCheck> {
  const { repo, env, user, base, baseConfig } = at;
  const withoutRepo = (await loadWithUserConfig(
    user,
    async (userText) => (await loadConfig({ env, userText })).config,
  )).config;
  const loosened = differingPaths(baseConfig, stricterConfig(baseConfig, withoutRepo));
  if (loosened.length === 0) return { config: baseConfig, note: null, asked: false };
  const answer = await at.ask();
  const fallback = (why: string): DefaultBranchCheck => {
    const config = takePaths(baseConfig, stricterConfig(baseConfig, withoutRepo), loosened);
    return {
      config,
      note: notAppliedNote(at.label, baseConfig, config, loosened, why),
      asked: true,
    };
  };
  if (!answer.ok) {
    return fallback(`the remote's default branch could not be established (${answer.reason})`);
  }
  const branch = `the remote's default branch ${answer.ref} (${answer.id.slice(0, 12)})`;
  if (answer.id === base) return { config: baseConfig, note: null, asked: true };
  let onDefault: Config;
  try {
    const from = await resolveRulesFrom(runner, repo, answer.id, `${answer.ref} on the remote`);
    onDefault = await loadWithUserConfig(user, async (userText) =>
      (await loadRulesConfig({
        runner,
        repo,
        env,
        from: { ...from, ...(from.kind === "tree" ? { attributesFromTreeOnly: true } : {}) },
        untrusted: false,
        userText,
      })).config).then((r) => r.config);
  } catch (error) {
    if (error instanceof UsageError) {
      return fallback(`${branch} is not a commit here (git fetch, then push again)`);
    }
    if (error instanceof ConfigError) {
      return fallback(`the ${REPO_CONFIG_FILE} of ${branch} is invalid: ${error.message}`);
    }
    throw error;
  }
  const config = takePaths(baseConfig, stricterConfig(baseConfig, onDefault), loosened);
  const note = differingPaths(baseConfig, config).length === 0
    ? null
    : notAppliedNote(at.label, baseConfig, config, loosened, `${branch} does not have it`);
  return { config, note, asked: true };
}

/** The one line that says which of the base's loosenings were not applied, and why (no prefix). */
function notAppliedNote(
  label: string,
  baseConfig: Config,
  config: Config,
  loosened: readonly string[],
  why: string,
): string {
  const undone = loosened.filter((path) => !same(valueAt(baseConfig, path), valueAt(config, path)));
  const set = undone.map((path) => `${path} ${JSON.stringify(valueAt(baseConfig, path))}`);
  const instead = undone.map((path) => `${path} ${JSON.stringify(valueAt(config, path))}`);
  return `the ${REPO_CONFIG_FILE} this push's rules are read from (${label}) loosens the gate: ${
    set.join(", ")
  } — not applied: ${why}; a setting that loosens the gate counts for a push only once the remote's default branch has it (applies instead: ${
    instead.join(", ")
  })`;
}

/**
 * The dotted paths of the leaves (arrays count as leaves) where `a` and `b` differ (pure).
 *
 * @returns paths such as `gates.pre_push.mode`, in key order of `a`
 */
export function differingPaths(a: unknown, b: unknown, prefix = ""): string[] {
  if (isObject(a) && isObject(b)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      out.push(...differingPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key));
    }
    return out;
  }
  return same(a, b) ? [] : [prefix];
}

/** `into` with the value of each of `paths` taken from `from` (pure; `into` is not changed). */
function takePaths(into: Config, from: Config, paths: readonly string[]): Config {
  const out = structuredClone(into) as unknown as Json;
  for (const path of paths) {
    const keys = path.split(".");
    let node: Json = out;
    for (const key of keys.slice(0, -1)) {
      if (!isObject(node[key])) node[key] = {};
      node = node[key] as Json;
    }
    node[keys[keys.length - 1]] = structuredClone(valueAt(from, path));
  }
  return out as unknown as Config;
}

function valueAt(config: Config, path: string): unknown {
  let node: unknown = config;
  for (const key of path.split(".")) node = isObject(node) ? node[key] : undefined;
  return node;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
