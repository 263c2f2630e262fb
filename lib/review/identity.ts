/**
 * What a cached verdict depends on besides the change itself: provider, model, review kind, focus,
 * the canonical schema and prompt template (as hashes), the diff budgets and the acknowledgements. Light to import (no
 * ajv, no git, no provider adapters: prompt limits come from the provider's `meta.ts`, lib/providers/registry.ts), so the
 * gates' fast paths can compute verdict memo keys.
 *
 * @module
 */
import type { KindDefinition, PromptVariant } from "../kinds/definition.ts";
import type { Config } from "../config/config.ts";
import type { Budgets } from "../git/types.ts";
import { AUTO_PROVIDER, providerMeta } from "../providers/registry.ts";
import { sha256Hex } from "../base/sha256.ts";
import type { MemoParts } from "../store/verdict_memo.ts";
import { LOCAL_RULES, type RulesOptions } from "../rules/options.ts";
import { ruleSettingsIdentity } from "../rules/report.ts";
import { programIdentity } from "../providers/program.ts";
import { answerEnvKey } from "../providers/reviewer_env.ts";

/** Room kept for the prompt template, key list and schema text around the diff, bytes. */
const PROMPT_OVERHEAD_BYTES = 24 * 1024;

/**
 * Diff budgets for a review: the configured ones, shrunk so the whole prompt fits a provider that
 * limits prompt size (`maxPromptBytes`), and `max_calls` prompts at most.
 */
export function budgetsFor(config: Config, maxPromptBytes?: number): Budgets {
  const room = maxPromptBytes === undefined
    ? Infinity
    : Math.max(4096, maxPromptBytes - PROMPT_OVERHEAD_BYTES);
  return {
    perFileBytes: Math.min(config.budgets.file_bytes, room),
    totalBytes: Math.min(config.budgets.total_bytes, room),
    maxCalls: config.max_calls,
  };
}

/** A verdict's identity under a config, minus the target (lib/store/verdict_memo.ts `MemoParts`). */
export type VerdictIdentity = Omit<MemoParts, "from" | "to">;

/** What of an answer kind's definition a verdict's identity holds. */
export type KindIdentity = Pick<KindDefinition, "schema" | "templateText" | "parts">;

/**
 * The verdict identity of a review under a config, minus the target: its schema and prompt
 * template are those of the answer kind (default: the registry's "review").
 *
 * @param options review kind (prompt variant), focus, the digest of the acknowledgements that
 *   hold (default `"none"`), and the answer kind's definition (default: the registry's "review";
 *   a gate's fast path passes it, so as not to load the registry)
 * @throws {import("../base/errors.ts").UsageError} for an unknown provider
 * @throws {import("../providers/auto.ts").NoProviderError} for `provider: "auto"` when it finds
 *   none in `options.env`
 */
export async function verdictIdentity(
  config: Config,
  options: {
    kind: PromptVariant;
    focus?: string;
    acks?: string;
    definition?: KindIdentity;
    rules?: RulesOptions;
    /** The environment: a provider binary override (`REVIEW_GATE_<NAME>_BIN`) is part of it. */
    env?: Record<string, string | undefined>;
  },
): Promise<VerdictIdentity> {
  const kind = options.definition ?? await (await import("../kinds/registry.ts")).getKind("review");
  // `auto`: the provider it chooses now (lib/providers/auto.ts), so a verdict of another is no hit.
  // Chosen from the caller's environment only: an empty one would choose a provider no review runs
  if (config.provider === AUTO_PROVIDER && !options.env) {
    throw new Error('verdictIdentity(): provider "auto" needs the environment it chooses from');
  }
  const provider = config.provider === AUTO_PROVIDER
    ? (await (await import("../providers/auto.ts")).chooseProvider(options.env!)).provider
    : config.provider;
  // an unknown name: the registry throws its UsageError, listing the valid choices (no adapter loads)
  const meta = providerMeta(provider);
  const override = options.env?.[`REVIEW_GATE_${provider.toUpperCase()}_BIN`]?.trim();
  const name = override ? `${provider} bin=${override}` : provider;
  const program = options.env ? await programIdentity(override || provider, options.env) : null;
  const answerEnv = options.env ? await answerEnvKey(options.env, provider) : "";
  return {
    provider: (program ? `${name} prog=${program}` : name) + (answerEnv ? ` env=${answerEnv}` : ""),
    model: config.model,
    reviewKind: options.kind,
    focus: options.focus,
    schemaHash: await sha256Hex(JSON.stringify(kind.schema)),
    templateHash: await sha256Hex(kind.templateText(options.kind)),
    budgets: {
      ...budgetsFor(config, meta.maxPromptBytes ?? undefined),
      // a kind asked in one call gets a one-prompt plan: what does not fit is named, never sent
      ...(kind.parts ? {} : { maxCalls: 1 }),
    },
    acks: options.acks ?? "none",
    rules: await ruleSettingsIdentity(config, options.rules ?? LOCAL_RULES),
  };
}

/**
 * The provider as a verdict's cache key names it: the provider's name, plus the binary when it is
 * not the provider's default (a `REVIEW_GATE_*_BIN` override). A verdict from another program —
 * the bundled fake, or a stand-in an agent pointed a push at — is never a hit for a run of the
 * real CLI, nor the other way round.
 *
 * @param adapter the provider's name and default binary
 * @param bin the binary the run uses (lib/providers/registry.ts `resolveBinary`)
 * @returns e.g. `"claude"` or `"claude bin=/tmp/fake/claude"`
 */
export function providerKey(adapter: { name: string; defaultBin: string }, bin: string): string {
  return bin === adapter.defaultBin ? adapter.name : `${adapter.name} bin=${bin}`;
}

/**
 * {@linkcode providerKey} plus the identity of the program file the binary is now (real path and
 * content digest, lib/providers/program.ts) and of the environment that picks the model and where
 * its requests go (lib/providers/reviewer_env.ts `answerEnvKey`): a verdict from another program's
 * content — a `claude` an agent rewrote — or from another endpoint (`ANTHROPIC_BASE_URL` of a
 * server that approves) is never a hit.
 *
 * @param env the environment (`PATH`)
 * @param cwd directory a relative binary path is taken from
 * @returns e.g. `"claude prog=/usr/lib/claude/cli.js#3f2a9c1b0d4e5f60"`, with ` env=<16 hex>` when
 *   such a variable is set
 */
export async function programKey(
  adapter: { name: string; defaultBin: string },
  bin: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<string> {
  const answerEnv = await answerEnvKey(env, adapter.name);
  return `${providerKey(adapter, bin)} prog=${await programIdentity(bin, env, cwd)}` +
    (answerEnv ? ` env=${answerEnv}` : "");
}
