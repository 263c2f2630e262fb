/**
 * The work of `review-gate review` (lib/cli/review.ts defines the command and loads this when it
 * runs): collect a change, review it with a provider, print the review, exit with the contract code
 * (0 approved or non-blocking, 1 blocking, 2 usage, 3 could not run, 130 interrupted).
 *
 * @module
 */
import type { ConfigLayer } from "../config/config.ts";
import type { RulesOptions } from "../rules/options.ts";
import { UsageError } from "../base/errors.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { parseRangeSpec } from "../git/target.ts";
import { repoPathspecs } from "../git/pathspecs.ts";
import type { Target } from "../git/types.ts";
import { AUTO_PROVIDER, PROVIDER_NAMES } from "../providers/registry.ts";
import { checkFormatShows } from "../formats/registry.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { policyOf } from "../kinds/review/policy.ts";
import {
  type ReviewDeps,
  type ReviewOptions,
  type ReviewOutcome,
  runReview,
} from "../review/run_review.ts";
import { loadRulesConfig } from "../rules/config_at.ts";
import { readAcks } from "../acks/file.ts";
import type { Ack } from "../acks/types.ts";
import { FROM_WORKTREE, resolveRulesFrom } from "../rules/source.ts";
import type { CliDeps } from "./deps.ts";
import type { ReviewAhead } from "./review_ahead.ts";
import { startProgress } from "./progress.ts";
import type { OutputFlags, OutputRequest } from "./outputs.ts";
import type { FlagDefinitions } from "./command.ts";
import type { ProviderSetting } from "../providers/registry.ts";
import type { CouncilPolicy, Severity } from "../kinds/review/types.ts";
import { writeOutputs, writeOutputText } from "./write_outputs.ts";
import { policyFlagLayer } from "./policy_flags.ts";
import { chooseKind, type KindFlagValues } from "./kind_options.ts";
import { trace } from "../base/trace.ts";
import type { ShardFlags } from "./shard_flags.ts";
import type { ShardSpec } from "../git/shards.ts";

/** `review`'s parsed flags (lib/cli/review.ts `REVIEW_FLAGS`). */
export type ReviewFlags = OutputFlags & {
  provider?: ProviderSetting;
  providers?: string;
  councilPolicy?: CouncilPolicy;
  model?: string;
  staged?: boolean;
  base?: string;
  range?: string;
  commit?: string;
  focus?: string;
  adversarial?: boolean;
  json?: boolean;
  timeout?: string;
  noCache?: boolean;
  failOn?: Severity;
  minConfidence?: string;
  planOnly?: boolean;
  maxCalls?: string;
  jobs?: string;
  background?: boolean;
  jobId?: string;
  rulesFrom?: string;
  untrusted?: boolean;
  noDefaultExcludes?: boolean;
} & ShardFlags;

/** Turn the target flags into a target; at most one may be given. */
export function targetFromFlags(
  flags: Pick<ReviewFlags, "staged" | "base" | "range" | "commit">,
): Target | undefined {
  const given = [
    flags.staged ? "--staged" : "",
    flags.base !== undefined ? "--base" : "",
    flags.range !== undefined ? "--range" : "",
    flags.commit !== undefined ? "--commit" : "",
  ].filter(Boolean);
  if (given.length > 1) {
    throw new UsageError(`Choose one target: ${given.join(", ")} cannot be combined`);
  }
  if (flags.staged) return { kind: "staged" };
  if (flags.base !== undefined) return { kind: "base", ref: flags.base };
  if (flags.range !== undefined) return parseRangeSpec(flags.range);
  if (flags.commit !== undefined) return { kind: "commit", sha: flags.commit };
  return undefined;
}

function flagLayer(flags: ReviewFlags): ConfigLayer {
  const layer: ConfigLayer = policyFlagLayer(flags);
  if (flags.provider !== undefined) {
    layer.provider = flags.provider;
    layer.council = []; // one provider asked by name: no council from the config
  }
  if (flags.model !== undefined) layer.model = flags.model;
  if (flags.providers !== undefined) {
    const names = parseProviders(flags.providers);
    if (names.length === 1) layer.provider = names[0];
    layer.council = names.length > 1 ? names : [];
  }
  if (flags.councilPolicy !== undefined) layer.council_policy = flags.councilPolicy;
  if (flags.noDefaultExcludes) layer.default_excludes = false;
  if (flags.timeout !== undefined) {
    const seconds = Number(flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new UsageError(
        `Invalid --timeout "${flags.timeout}": give a number of seconds greater than 0`,
      );
    }
    layer.timeout_seconds = seconds;
  }
  for (
    const [flag, key, value] of [
      ["--max-calls", "max_calls", flags.maxCalls],
      ["--jobs", "jobs", flags.jobs],
    ] as const
  ) {
    if (value === undefined) continue;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) {
      throw new UsageError(`Invalid ${flag} "${value}": give a whole number of 1 or more`);
    }
    layer[key] = n;
  }
  return layer;
}

/**
 * The providers of `--providers a,b[,c]`: two or three distinct names (one name is that provider
 * alone, like `--provider`).
 *
 * @throws {UsageError} an unknown name, a repeated one, or more than three
 */
export function parseProviders(value: string): string[] {
  const names = value.split(",").map((n) => n.trim()).filter((n) => n !== "");
  if (names.includes(AUTO_PROVIDER)) {
    throw new UsageError(
      `Invalid --providers "${value}": a council names its providers ("auto" picks one, not a ` +
        `council); give distinct names among ${PROVIDER_NAMES.join(", ")}, or --provider auto`,
    );
  }
  const unknown = names.filter((n) => !(PROVIDER_NAMES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0 || new Set(names).size !== names.length) {
    throw new UsageError(
      `Invalid --providers "${value}": give distinct names among ${PROVIDER_NAMES.join(", ")}`,
    );
  }
  if (names.length > 3) {
    throw new UsageError(`Invalid --providers "${value}": a council has at most 3 providers`);
  }
  return names;
}

/** `review`: plan only, or review and write the outputs; sets the exit code. */
export async function reviewAction(
  flags: ReviewFlags,
  at: {
    deps: CliDeps;
    setExit: (code: number) => void;
    outputs: (fallback: OutputRequest) => OutputRequest[];
    /** The parser's definitions of the flags (for a background job's argv). */
    definitions: FlagDefinitions;
    /** The paths the review is narrowed to, as typed (relative to `deps.cwd`); none: all of it. */
    paths?: readonly string[];
    /** The git calls started before this module loaded (lib/cli/review_ahead.ts). */
    ahead?: ReviewAhead;
  },
): Promise<void> {
  const { deps, setExit, outputs } = at;
  const shard = await shardRequested(flags);
  const requests = outputs({ format: flags.json ? "json" : "terminal" });
  const request = await reviewRequest(flags, deps, { repoAhead: at.ahead?.repo, paths: at.paths });
  if (shard && request.answerKind !== "review") {
    throw new UsageError(
      `--shard splits a code review's parts: a ${request.answerKind} review is asked in one call`,
    );
  }
  for (const { format } of requests) await checkFormatShows(format, request.answerKind);
  if (flags.planOnly) {
    setExit(
      await planOnly({ ...request, worktreeAhead: at.ahead?.worktree }, requests, deps, shard),
    );
    return;
  }
  if (shard) {
    setExit(
      await reviewShard({ ...request, worktreeAhead: at.ahead?.worktree }, shard, flags, deps),
    );
    return;
  }
  const write = async (io: CliDeps, onRunOpened?: ReviewDeps["onRunOpened"]) => {
    const outcome = await reviewOnce(
      { ...request, worktreeAhead: at.ahead?.worktree },
      io,
      onRunOpened,
    );
    trace("review: pipeline ended");
    await writeOutputs(requests, outcome, { policy: policyOf(request.config), deps: io });
    trace("review: outputs written");
    for (const warning of outcome.storeWarnings ?? []) {
      io.stderr.write(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
    }
    return outcome;
  };
  if (flags.jobId !== undefined) {
    const { runJobProcess } = await import("./background.ts");
    setExit(
      await runJobProcess(
        flags.jobId,
        request,
        (hooks) => write({ ...deps, signal: hooks.signal }, hooks.onRunOpened),
        deps,
      ),
    );
  } else if (flags.background) {
    const { startBackground } = await import("./background.ts");
    setExit(
      await startBackground(request, {
        flags: flags as unknown as Readonly<Record<string, unknown>>,
        definitions: at.definitions,
        // the paths as typed: the job runs in the same directory
        paths: at.paths ?? [],
        outputs: requests,
        json: flags.json,
        deps,
      }),
    );
  } else {
    setExit((await write(deps)).exitCode);
  }
}

/**
 * The shard `--shard i/n` asks for (README "Review across a CI matrix"), or undefined when neither
 * `--shard` nor `--shard-output` was given; lib/cli/shard_action.ts loads only then.
 *
 * @throws {UsageError} for a malformed shard or a flag a shard refuses (`--background`)
 */
async function shardRequested(flags: ReviewFlags): Promise<ShardSpec | undefined> {
  if (flags.shard === undefined && flags.shardOutput === undefined) return undefined;
  return (await import("./shard_action.ts")).shardOf(flags, {
    planOnly: flags.planOnly,
    refused: { "--background": flags.background === true },
  });
}

/**
 * What `review` was asked: the review's options before the pipeline resolves the change.
 *
 * @param at the repository around `deps.cwd`, when its resolution started already, and the paths
 *   the review is narrowed to, as typed
 */
async function reviewRequest(
  flags: ReviewFlags,
  deps: CliDeps,
  at: { repoAhead?: Promise<Repo>; paths?: readonly string[] } = {},
) {
  const { repoAhead } = at;
  const target = targetFromFlags(flags);
  const chosen = await chooseKind(flags as unknown as KindFlagValues, deps.cwd);
  if (chosen.answerKind !== "review" && flags.adversarial) {
    throw new UsageError(
      `--adversarial is a code review prompt: drop it for a ${chosen.answerKind} review`,
    );
  }
  const repo = await (repoAhead ?? resolveRepo(deps.runner, deps.cwd));
  trace("review: repository resolved");
  const paths = at.paths?.length ? await repoPathspecs(repo.root, deps.cwd, at.paths) : undefined;
  const { rules, config, notes, acks } = await rulesAndConfig(flags, deps, repo);
  trace("review: config and acks loaded");
  return {
    cwd: deps.cwd,
    repo,
    target,
    ...(paths ? { paths } : {}),
    kind: flags.adversarial ? "adversarial-review" as const : "review" as const,
    ...chosen,
    focus: flags.focus,
    config,
    rules,
    rulesNotes: notes,
    ...(acks ? { acks } : {}),
    useCache: !flags.noCache,
  };
}

/**
 * Where the rules come from, and the config and acknowledgements loaded from there: with
 * `--rules-from` the tree's `.review-gate/acks.json`; untrusted with no tree, none (the repository
 * cannot accept its own findings); else the worktree's (left to the pipeline).
 */
async function rulesAndConfig(flags: ReviewFlags, deps: CliDeps, repo: Repo) {
  const rules: RulesOptions = {
    from: flags.rulesFrom === undefined
      ? FROM_WORKTREE
      : await resolveRulesFrom(deps.runner, repo, flags.rulesFrom),
    untrusted: flags.untrusted === true,
  };
  const { config, notes } = await loadRulesConfig({
    runner: deps.runner,
    repo,
    env: deps.env,
    flags: flagLayer(flags),
    ...rules,
  });
  const acks: Ack[] | undefined = rules.from.kind === "tree"
    ? await readAcks(deps.runner, { kind: "tree", root: repo.root, rev: rules.from.tree })
    : rules.untrusted
    ? []
    : undefined;
  return { rules, config, notes, acks };
}

/** Run the review with a progress line on a terminal. */
async function reviewOnce(
  request:
    & Awaited<ReturnType<typeof reviewRequest>>
    & Pick<ReviewOptions, "worktreeAhead" | "shard">,
  deps: CliDeps,
  onRunOpened?: ReviewDeps["onRunOpened"],
): Promise<ReviewOutcome<unknown>> {
  const progress = startProgress(deps.stderr, deps.now);
  try {
    return await runReview<unknown>(request, {
      runner: deps.runner,
      env: deps.env,
      now: deps.now,
      signal: deps.signal,
      onProviderStart: progress.start,
      onRunOpened,
    });
  } finally {
    progress.stop();
  }
}

/**
 * `--plan-only`: the plan in each requested format (a plan is never shown as a review); with
 * `--shard i/n`, also what each shard will do.
 */
async function planOnly(
  request: Awaited<ReturnType<typeof reviewRequest>> & Pick<ReviewOptions, "worktreeAhead">,
  requests: readonly OutputRequest[],
  deps: CliDeps,
  shard?: ShardSpec,
): Promise<number> {
  const { checkPlanFormat, renderPlanPieces } = await import("../formats/plan.ts");
  for (const { format } of requests) checkPlanFormat(format);
  const { planReview } = await import("../review/plan_only.ts");
  const { repo, target, paths, config, rules, rulesNotes, worktreeAhead } = request;
  const planned = await planReview(
    { repo, target, paths, config, rules, rulesNotes, worktree: worktreeAhead, env: deps.env },
    deps.runner,
  );
  const failures: string[] = [];
  for (const out of requests) {
    const failure = await writeOutputText(out, renderPlanPieces(planned, out.format, shard), deps);
    if (failure) failures.push(failure);
  }
  if (failures.length > 0) throw new UsageError(failures.join("; "));
  return 0;
}

/** `--shard i/n`: review that shard's parts and write its shard result file. */
async function reviewShard(
  request: Awaited<ReturnType<typeof reviewRequest>> & Pick<ReviewOptions, "worktreeAhead">,
  shard: ShardSpec,
  flags: ReviewFlags,
  deps: CliDeps,
): Promise<number> {
  const outcome = await reviewOnce({ ...request, shard }, deps);
  for (const warning of outcome.storeWarnings ?? []) {
    deps.stderr.write(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
  }
  const { writeShardResult } = await import("./shard_action.ts");
  const denoJson = (await import("../../deno.json", { with: { type: "json" } })).default;
  const { record } = outcome;
  return await writeShardResult(outcome, {
    shard,
    output: flags.shardOutput!,
    providers: record.council?.providers ?? [record.provider],
    version: denoJson.version,
  }, deps);
}
