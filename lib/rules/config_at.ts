/**
 * Loading the configuration from the side the rules are read from (lib/rules/source.ts): with a
 * tree (a pull request's base, a turn's baseline, `--rules-from REF`), the repository's
 * `.review-gate.json` is the one in that tree — the worktree's, edited by the change under review,
 * is not read at all; from the worktree it is the file on disk. In untrusted mode with no tree to
 * read from, the repository's file may only make the review stricter (lib/rules/untrusted.ts), and
 * an invalid one is ignored with a note instead of failing the review. User config, environment and
 * flags are read as always.
 *
 * @module
 */
import {
  type Config,
  type ConfigLayer,
  loadConfig,
  type LoadConfigOptions,
  REPO_CONFIG_FILE,
} from "../config/config.ts";
import { ConfigError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import { readRuleFiles, type RulesFrom } from "./source.ts";
import { ignoredRepoKeys, stricterConfig } from "./untrusted.ts";

/** Options of {@linkcode loadRulesConfig}. */
export interface RulesConfigOptions {
  runner: Runner;
  repo: Repo;
  env: Record<string, string | undefined>;
  /** Flag values, highest precedence. */
  flags?: ConfigLayer;
  from: RulesFrom;
  /** Untrusted repository: its config may only make the review stricter (when read from the worktree). */
  untrusted: boolean;
  /** The user config's text to use instead of the file (lib/config/config.ts `LoadConfigOptions`). */
  userText?: LoadConfigOptions["userText"];
}

/** The config in force and how it was read. */
export interface RulesConfig {
  config: Config;
  /** Files and places it was read from (`base a1b2c3d:.review-gate.json`). */
  sources: string[];
  /** What was ignored and why, one line each (for the run's rules report). */
  notes: string[];
}

/**
 * Load the config from the rules' side.
 *
 * @throws {ConfigError} an invalid user config, environment variable or flag; an invalid
 *   repository config unless in untrusted mode
 * @throws {import("../base/errors.ts").GitError} when the tree cannot be read
 */
export async function loadRulesConfig(options: RulesConfigOptions): Promise<RulesConfig> {
  const { runner, repo, env, flags, from, userText } = options;
  if (from.kind === "tree") {
    const files = await readRuleFiles(runner, repo, from, [REPO_CONFIG_FILE]);
    const file = files.get(REPO_CONFIG_FILE);
    const source = `${from.label}:${REPO_CONFIG_FILE}`;
    const loaded = await loadConfig({
      root: repo.root,
      env,
      flags,
      userText,
      repoText: file ? { text: file.text, source } : null,
    });
    return { ...loaded, notes: [] };
  }
  if (!options.untrusted) {
    return { ...await loadConfig({ root: repo.root, env, flags, userText }), notes: [] };
  }
  const trusted = await loadConfig({ env, flags, userText });
  let withRepo;
  try {
    withRepo = await loadConfig({ root: repo.root, env, flags, userText });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      ...trusted,
      notes: [`untrusted: the repository's ${REPO_CONFIG_FILE} was ignored: ${error.message}`],
    };
  }
  const config = stricterConfig(trusted.config, withRepo.config);
  const ignored = ignoredRepoKeys(trusted.config, withRepo.config, config);
  return {
    config,
    sources: withRepo.sources,
    notes: ignored.length > 0
      ? [
        `untrusted: the repository's ${REPO_CONFIG_FILE} may only make the review stricter; ignored: ${
          ignored.join(", ")
        }`,
      ]
      : [],
  };
}
