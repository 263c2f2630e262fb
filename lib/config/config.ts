/**
 * Configuration: `.review-gate.json` (JSONC) in the repository root, then
 * `$XDG_CONFIG_HOME/review-gate/config.json`, then `REVIEW_GATE_*` environment variables, then
 * flags. Precedence: flags > env > repo > user > defaults (docs/design.md "Config"). Every layer is
 * validated against `schemas/config.schema.json` by a validator generated at build time (no ajv
 * load on the hook fast paths); an error names the file or variable and the key path.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { ParseError } from "jsonc-parser";
import {
  CATEGORIES,
  type Category,
  type CouncilPolicy,
  type Severity,
} from "../vocabulary/review.ts";
import { ConfigError } from "../base/errors.ts";
import type { ProviderName } from "../providers/registry.ts";
import { configProblems, configProblemsWithHints } from "./validate.ts";
import { readRegularText } from "../base/regular_file.ts";
import { describeJsoncError } from "../base/jsonc_error.ts";

/** What a gate does when the review could not run (`on_error`) or saw only part of the change (`on_partial`). */
export type OnError = "allow" | "block";

/**
 * What a gate does with blocking findings (`gates.<name>.mode`, README "Warn first"): `block` stops
 * the push or the stop; `warn` says what it would have blocked and lets the work through.
 */
export type GateMode = "block" | "warn";

/** The effective configuration (keys as in the JSON file). */
export interface Config {
  provider: ProviderName;
  model?: string;
  timeout_seconds: number;
  max_turns: number;
  fail_on: Severity;
  min_confidence: number;
  /** Finding categories that may block. */
  categories: Category[];
  /** Whether findings the change did not introduce may block. */
  block_on_preexisting: boolean;
  /** Most findings shown; absent = all. */
  max_findings?: number;
  /** Review guidance for every change (team rules). */
  instructions?: string;
  /** Review guidance for the changes to some paths (team rules). */
  path_instructions: PathInstruction[];
  /** Globs of changed files left out by rule. */
  exclude: string[];
  /** Globs of the only changed files reviewed (empty = all); they beat the default excludes. */
  include: string[];
  /** Whether the default excludes (lockfiles, build output, …) apply. */
  default_excludes: boolean;
  cache: boolean;
  /** Most model calls of one review (chunks of the review plan). */
  max_calls: number;
  /** Most model calls of one review at once. */
  jobs: number;
  /** A council: providers asked the same plan in parallel (empty: `provider` alone). */
  council: ProviderName[];
  /** Which of a council's findings block (lib/kinds/review/council.ts). */
  council_policy: CouncilPolicy;
  budgets: { file_bytes: number; total_bytes: number; guidelines_bytes: number };
  /** Background jobs; `max_seconds` absent = twice `timeout_seconds` plus 120. */
  background?: { max_seconds?: number };
  /** Spending limit of the gates (USD per UTC day); absent: none. */
  budget?: { usd_per_day?: number };
  gates: {
    pre_push: {
      enabled: boolean;
      mode: GateMode;
      on_error: OnError;
      on_partial: OnError;
      review_tags: boolean;
      max_commits: number;
    };
    claude_stop: TurnGateSettings;
    /** The Codex Stop gate: the same turn gate behind Codex's hooks. */
    codex_stop: TurnGateSettings;
    /** The GitHub Copilot CLI Stop gate: the same turn gate behind Copilot's hooks. */
    copilot_stop: TurnGateSettings;
    /** The Qwen Code Stop gate: the same turn gate behind Qwen Code's hooks. */
    qwen_stop: TurnGateSettings;
    /** The Gemini CLI AfterAgent gate: the same turn gate behind Gemini CLI's hooks. */
    gemini_stop: TurnGateSettings;
  };
}

/** One entry of `path_instructions`. */
export interface PathInstruction {
  /** Globs (lib/rules/globs.ts). */
  paths: string[];
  instructions: string;
}

/** The settings of one turn gate (`gates.claude_stop`, `gates.codex_stop`). */
export interface TurnGateSettings {
  enabled: boolean;
  mode: GateMode;
  on_error: OnError;
  on_partial: OnError;
  max_blocks: number;
  timeout_seconds: number;
  /**
   * Review the turn's change in the background while the agent works (a hook after each tool
   * call, lib/gates/turn/work_hook.ts), so the Stop reuses the verdicts of parts already reviewed.
   */
  review_while_working: boolean;
  /** Most model calls the background reviews of one turn may start. */
  max_background_calls: number;
  /**
   * A background call's latency assumed until one of the turn's finished, seconds: a part whose
   * call was superseded waits until its edits have been quiet that long (lib/gates/turn/work_quiet.ts).
   */
  background_call_seconds: number;
}

/** Defaults (also published in the schema). */
export const DEFAULT_CONFIG: Config = {
  provider: "claude",
  timeout_seconds: 600,
  max_turns: 12,
  fail_on: "high",
  min_confidence: 0.5,
  categories: [...CATEGORIES],
  block_on_preexisting: false,
  path_instructions: [],
  exclude: [],
  include: [],
  default_excludes: true,
  cache: true,
  max_calls: 8,
  jobs: 4,
  council: [],
  council_policy: "any",
  budgets: { file_bytes: 65536, total_bytes: 400000, guidelines_bytes: 16384 },
  gates: {
    pre_push: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      review_tags: false,
      max_commits: 100,
    },
    claude_stop: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      max_blocks: 3,
      timeout_seconds: 300,
      review_while_working: true,
      max_background_calls: 16,
      background_call_seconds: 30,
    },
    codex_stop: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      max_blocks: 3,
      timeout_seconds: 300,
      review_while_working: false,
      max_background_calls: 16,
      background_call_seconds: 30,
    },
    copilot_stop: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      max_blocks: 3,
      timeout_seconds: 300,
      review_while_working: false,
      max_background_calls: 16,
      background_call_seconds: 30,
    },
    qwen_stop: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      max_blocks: 3,
      timeout_seconds: 300,
      review_while_working: false,
      max_background_calls: 16,
      background_call_seconds: 30,
    },
    gemini_stop: {
      enabled: true,
      mode: "block",
      on_error: "allow",
      on_partial: "allow",
      max_blocks: 3,
      timeout_seconds: 300,
      review_while_working: false,
      max_background_calls: 16,
      background_call_seconds: 30,
    },
  },
};

/** Name of the repository config file. */
export const REPO_CONFIG_FILE = ".review-gate.json";

/** A partial config as found in one layer. */
export type ConfigLayer = Record<string, unknown>;

/** Where each environment variable goes and how its text is read. */
const ENV_KEYS: Record<string, { key: string; type: "string" | "number" | "integer" | "boolean" }> =
  {
    REVIEW_GATE_PROVIDER: { key: "provider", type: "string" },
    REVIEW_GATE_MODEL: { key: "model", type: "string" },
    REVIEW_GATE_TIMEOUT_SECONDS: { key: "timeout_seconds", type: "number" },
    REVIEW_GATE_MAX_TURNS: { key: "max_turns", type: "integer" },
    REVIEW_GATE_FAIL_ON: { key: "fail_on", type: "string" },
    REVIEW_GATE_MIN_CONFIDENCE: { key: "min_confidence", type: "number" },
    REVIEW_GATE_CACHE: { key: "cache", type: "boolean" },
  };

/**
 * The top-level config key an environment variable sets (`REVIEW_GATE_TIMEOUT_SECONDS` →
 * `timeout_seconds`).
 *
 * @param name an environment variable's name
 * @returns the key, or `undefined` when the variable sets none
 */
export function envConfigKey(name: string): string | undefined {
  return Object.hasOwn(ENV_KEYS, name) ? ENV_KEYS[name].key : undefined;
}

/**
 * Parse one JSONC config file's text and validate it. Plain JSON is parsed natively; jsonc-parser
 * (an npm import costing ~50 ms of start-up, which the hook fast paths must not pay) is loaded only
 * for text with comments, trailing commas or errors.
 *
 * @param text file contents (JSON with comments and trailing commas; a leading UTF-8 BOM is dropped)
 * @param source file path, for messages
 * @throws {ConfigError} on a syntax error (with line and column) or a schema problem (with key path)
 */
export async function parseConfigText(text: string, source: string): Promise<ConfigLayer> {
  // A UTF-8 byte order mark (editors on Windows write one) is not JSON: drop it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    value = await parseJsoncText(text, source);
  }
  if (value === undefined && text.trim() === "") return {};
  await ensureValid(value, `config "${source}"`);
  return value as ConfigLayer;
}

async function parseJsoncText(text: string, source: string): Promise<unknown> {
  const { parse: parseJsonc } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new ConfigError(
      `Invalid config "${source}": ${
        describeJsoncError(text, errors[0])
      }. Fix the file (JSON; comments and trailing commas are allowed)`,
    );
  }
  if (value === undefined && text.trim() === "") return {};
  await ensureValid(value, `config "${source}"`);
  return value as ConfigLayer;
}

async function ensureValid(value: unknown, where: string): Promise<void> {
  const problems = await configProblemsWithHints(value);
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid ${where}: ${problems.join("; ")}. Fix it or see "review-gate schema config"`,
    );
  }
}

/**
 * Read the config layer carried by `REVIEW_GATE_*` variables.
 *
 * @throws {ConfigError} naming the variable when its value has the wrong type or is out of range
 */
export async function envLayer(env: Record<string, string | undefined>): Promise<ConfigLayer> {
  const layer: ConfigLayer = {};
  for (const [name, { key, type }] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    let value: unknown = raw;
    if (type === "number" || type === "integer") {
      value = Number(raw);
      if (!Number.isFinite(value as number) || (type === "integer" && !Number.isInteger(value))) {
        throw new ConfigError(
          `Invalid ${name}="${raw}": expected ${
            type === "integer" ? "a whole number" : "a number"
          }`,
        );
      }
    } else if (type === "boolean") {
      if (!["0", "1", "true", "false"].includes(raw)) {
        throw new ConfigError(`Invalid ${name}="${raw}": expected 1, 0, true or false`);
      }
      value = raw === "1" || raw === "true";
    }
    const problems = await configProblems({ [key]: value });
    if (problems.length > 0) {
      throw new ConfigError(`Invalid ${name}="${raw}": ${problems.join("; ")}`);
    }
    layer[key] = value;
  }
  return layer;
}

/** Deep-merge config layers, later layers winning; arrays and scalars are replaced whole. */
export function mergeLayers<T>(base: T, ...layers: ConfigLayer[]): T {
  const out = structuredClone(base) as Record<string, unknown>;
  for (const layer of layers) mergeInto(out, layer);
  return out as T;
}

function mergeInto(target: Record<string, unknown>, layer: ConfigLayer): void {
  for (const [key, value] of Object.entries(layer)) {
    if (key === "$schema" || value === undefined) continue;
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current)) mergeInto(current, value);
    else target[key] = structuredClone(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where the user config file lives: `$XDG_CONFIG_HOME/review-gate/config.json` (or ~/.config). */
export function userConfigPath(env: Record<string, string | undefined>): string | undefined {
  const base = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, ".config") : undefined);
  return base ? join(base, "review-gate", "config.json") : undefined;
}

/**
 * The user config file's path and text as they are now, for a turn's start to record
 * (lib/gates/turn/baseline.ts) and a push to compare (lib/gates/pre_push/user_config.ts).
 *
 * @returns `path` (`null` when neither XDG_CONFIG_HOME nor HOME is set) and `text` (`null` when
 *   the file is absent; an unreadable file or one that is not a regular file reads as `null` too,
 *   and {@linkcode loadConfig} then fails on it)
 */
export async function readUserConfigText(
  env: Record<string, string | undefined>,
): Promise<{ path: string | null; text: string | null }> {
  const path = userConfigPath(env) ?? null;
  if (!path) return { path, text: null };
  return { path, text: await readRegularText(path).catch(() => null) };
}

async function readLayer(path: string): Promise<ConfigLayer | undefined> {
  let text: string;
  try {
    text = await readRegularText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new ConfigError(`Cannot read config "${path}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  return await parseConfigText(text, path);
}

/** Options of {@linkcode loadConfig}. */
export interface LoadConfigOptions {
  /** Repository root; its `.review-gate.json` is read when present. */
  root?: string;
  /**
   * The repository config's text as read from elsewhere (a base commit, a turn's baseline:
   * lib/rules/config_at.ts), used instead of the file under `root`; `null` = there is none.
   */
  repoText?: { text: string; source: string } | null;
  /**
   * The user config's text as recorded elsewhere (a turn's start: lib/gates/pre_push/user_config.ts),
   * used instead of the file at {@linkcode userConfigPath}; `null` = there was none.
   */
  userText?: { text: string; source: string } | null;
  env: Record<string, string | undefined>;
  /** Flag values (already typed), highest precedence. */
  flags?: ConfigLayer;
}

/**
 * Load the effective configuration.
 *
 * @returns the merged config and the files it was read from
 * @throws {ConfigError} when any layer is invalid (names the file or variable and the key path)
 */
export async function loadConfig(
  options: LoadConfigOptions,
): Promise<{ config: Config; sources: string[] }> {
  const sources: string[] = [];
  const layers: ConfigLayer[] = [];
  const userPath = options.userText === undefined ? userConfigPath(options.env) : undefined;
  const repoPath = options.root && options.repoText === undefined
    ? join(options.root, REPO_CONFIG_FILE)
    : undefined;
  if (options.userText) {
    sources.push(options.userText.source);
    layers.push(await parseConfigText(options.userText.text, options.userText.source));
  }
  for (const path of [userPath, repoPath]) {
    if (!path) continue;
    const layer = await readLayer(path);
    if (layer) {
      sources.push(path);
      layers.push(layer);
    }
  }
  if (options.repoText) {
    sources.push(options.repoText.source);
    layers.push(await parseConfigText(options.repoText.text, options.repoText.source));
  }
  layers.push(await envLayer(options.env));
  if (options.flags) {
    await ensureValid(options.flags, "command-line options");
    layers.push(options.flags);
  }
  return { config: mergeLayers(DEFAULT_CONFIG, ...layers), sources };
}
