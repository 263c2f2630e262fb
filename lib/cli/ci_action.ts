/**
 * The work of `review-gate ci` (lib/cli/ci.ts defines the command and loads this when it runs):
 * review the pull or merge request a CI job runs for, write the requested formats, exit by policy
 * — or, with `--shard i/n`, review that shard's parts and write its shard result file
 * (lib/cli/shard_action.ts). `review-gate merge` (lib/cli/merge_action.ts) shares the flags and
 * the writing of the formats.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { UsageError } from "../base/errors.ts";
import type { ConfigLayer } from "../config/config.ts";
import { relative } from "../base/path.ts";
import { policyOf } from "../kinds/review/policy.ts";
import { sanitizeForTerminal, sanitizeLine } from "../formats/sanitize.ts";
import { type CiOutcome, runCi } from "../ci/run_ci.ts";
import type { CliDeps } from "./deps.ts";
import type { OutputFlags, OutputRequest } from "./outputs.ts";
import type { ProviderSetting } from "../providers/registry.ts";
import type { Severity } from "../kinds/review/types.ts";
import { writeOutputs } from "./write_outputs.ts";
import { reviewedAmount } from "../git/coverage_text.ts";
import { policyFlagLayer } from "./policy_flags.ts";
import type { ShardFlags } from "./shard_flags.ts";
import { shardOf, writeShardResult } from "./shard_action.ts";

/** `ci`'s parsed flags. */
export type CiFlags = OutputFlags & {
  provider?: ProviderSetting;
  model?: string;
  base?: string;
  untrusted?: boolean;
  onError: "allow" | "block";
  onPartial: "allow" | "block";
  failOn?: Severity;
  minConfidence?: string;
  timeout?: string;
  noCache?: boolean;
  maxCalls?: string;
} & ShardFlags;

/** The path from the CI workspace to the repository root, as a prefix (`app/`), or "". */
function workspacePrefix(env: Record<string, string | undefined>, root: string): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (!workspace) return "";
  const rel = relative(workspace, root);
  return rel === "" || rel.startsWith("..") ? "" : `${rel}/`;
}

/**
 * Run `ci` with its flags: review the request, write the outputs, say why a partial review fails.
 *
 * @returns the exit code
 */
export async function reviewRequest(
  flags: CiFlags,
  requests: OutputRequest[],
  deps: CliDeps,
): Promise<number> {
  const shard = shardOf(flags);
  const ci = await runCi(
    {
      cwd: deps.cwd,
      flags: ciFlagLayer(flags),
      base: flags.base,
      untrusted: flags.untrusted,
      onError: flags.onError,
      onPartial: flags.onPartial,
      useCache: !flags.noCache,
      ...(shard ? { shard } : {}),
    },
    { runner: deps.runner, env: deps.env, now: deps.now, signal: deps.signal },
  );
  for (const note of ci.notes) {
    deps.stderr.write(`review-gate ci: ${sanitizeLine(note)}\n`);
  }
  if (shard) {
    const { record } = ci.outcome;
    return await writeShardResult(ci.outcome, {
      shard,
      output: flags.shardOutput!,
      providers: record.council?.providers ?? [record.provider],
      version: denoJson.version,
    }, deps);
  }
  return await writeCiOutputs(ci, { flags, requests, deps });
}

/**
 * The config layer of `ci`'s (and `merge`'s) flags.
 *
 * @throws {UsageError} a `--max-calls` that is not a whole number of 1 or more
 */
export function ciFlagLayer(flags: Omit<CiFlags, "onError" | "onPartial">): ConfigLayer {
  const layer = policyFlagLayer(flags);
  if (flags.provider !== undefined) layer.provider = flags.provider;
  if (flags.model !== undefined) layer.model = flags.model;
  if (flags.timeout !== undefined) layer.timeout_seconds = Number(flags.timeout);
  if (flags.maxCalls !== undefined) {
    const n = Number(flags.maxCalls);
    if (!Number.isInteger(n) || n < 1) {
      throw new UsageError(
        `Invalid --max-calls "${flags.maxCalls}": give a whole number of 1 or more`,
      );
    }
    layer.max_calls = n;
  }
  return layer;
}

/**
 * Write a CI run's formats and say why a partial review fails.
 *
 * @returns the exit code by policy
 */
export async function writeCiOutputs(
  ci: CiOutcome,
  at: { flags: Pick<CiFlags, "onPartial">; requests: OutputRequest[]; deps: CliDeps },
): Promise<number> {
  const { flags, requests, deps } = at;
  await writeOutputs(requests, { ...ci.outcome, exitCode: ci.exitCode }, {
    policy: policyOf(ci.config),
    deps,
    pathPrefix: workspacePrefix(deps.env, ci.repo.root),
  });
  for (const warning of ci.outcome.storeWarnings ?? []) {
    deps.stderr.write(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
  }
  const { record } = ci.outcome;
  if (
    ci.exitCode === 1 && flags.onPartial === "block" && record.coverage?.status === "partial"
  ) {
    deps.stderr.write(
      `review-gate ci: failing (exit 1) because --on-partial is "block" and the change was only partially reviewed: ${
        reviewedAmount(record.coverage)
      }\n`,
    );
  }
  return ci.exitCode;
}
