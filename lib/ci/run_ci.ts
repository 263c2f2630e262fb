/**
 * `review-gate ci`, the pipeline (docs/design.md "Output formats"; issue "CI mode"): switch
 * git to CI hardening (no global or system config), find the pull/merge request from the CI's own
 * variables (or `--base`), resolve what to review, read the team's rules (`.review-gate.json`,
 * `REVIEW.md`, `.gitattributes`) from the trusted side — the base commit — for every request, so a
 * change cannot rewrite the rules it is judged by (lib/rules/config_at.ts), and the
 * acknowledgements from there too (a request cannot accept its own findings), review it as the `ci`
 * gate (the ledger, the daily budget) and decide the exit code by policy. A request from a fork is
 * untrusted; one that got no secrets is not sent to any provider: it is stored and shown as NOT
 * reviewed, saying why. Never prompts.
 *
 * The same run, split across a CI matrix (README "Review across a CI matrix"): `--shard i/n`
 * reviews shard `i`'s parts of the plan (`shard`), and `review-gate merge` reviews the request the
 * same way with the parts' answers taken from the shards' result files (`shardResults`: no model
 * call, gate `ci-merge` in the ledger), exiting by the same policy.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { readAcks } from "../acks/file.ts";
import type { Ack } from "../acks/types.ts";
import type { Config, ConfigLayer } from "../config/config.ts";
import { enableCiGitHardening, gitText } from "../git/git.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { COULD_NOT_RUN } from "../store/run_record.ts";
import { loadRulesConfig } from "../rules/config_at.ts";
import type { RulesOptions } from "../rules/options.ts";
import { resolveRulesFrom } from "../rules/source.ts";
import { type ReviewDeps, type ReviewOutcome, runReview } from "../review/run_review.ts";
import type { ShardInput } from "../review/shard_file.ts";
import type { ShardSpec } from "../git/shards.ts";
import { type CiContext, detectCi } from "./context.ts";
import { type CiTarget, resolveCiTarget } from "./target.ts";

/** What a CI run is asked to do. */
export interface CiOptions {
  cwd: string;
  /** Config set by flags (highest precedence). */
  flags: ConfigLayer;
  /** Review HEAD against this ref (merge base → HEAD) instead of the CI's request. */
  base?: string;
  /** Treat the request as untrusted even when it is not from a fork. */
  untrusted?: boolean;
  /** Exit code when the review could not run: `block` → 3, `allow` → 0 (with NOT reviewed). */
  onError: "allow" | "block";
  /** Exit code when only part of the change reached the model: `block` → 1, `allow` → as usual. */
  onPartial: "allow" | "block";
  useCache: boolean;
  /** Review only this shard's parts of the plan (`--shard i/n`). */
  shard?: ShardSpec;
  /** `merge`: the parts' answers from these shard result files, no model call. */
  shardResults?: ShardInput;
}

/** A finished CI run. */
export interface CiOutcome {
  outcome: ReviewOutcome;
  /** The exit code by policy. */
  exitCode: number;
  /** What was reviewed and how it was found, one line each (for stderr). */
  notes: string[];
  repo: Repo;
  /** The config the review ran with. */
  config: Config;
}

function readEvent(path: string): unknown {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

/** The target of a CI run and what it knows about the request. */
async function planCi(
  options: CiOptions,
  deps: ReviewDeps,
  repo: Repo,
): Promise<{ ci: CiTarget; untrusted: boolean; notAsked?: string; notes: string[] }> {
  if (options.base !== undefined) {
    const trusted = await gitText(deps.runner, repo.root, [
      "rev-parse",
      "--verify",
      "--quiet",
      `${options.base}^{commit}`,
    ])
      .catch(() => {
        throw new UsageError(`Unknown --base "${options.base}": no such commit or branch here`);
      });
    return {
      ci: { target: { kind: "base", ref: options.base }, trusted, notes: [] },
      untrusted: options.untrusted === true,
      notes: [`reviewing HEAD against --base ${options.base}`],
    };
  }
  const ctx: CiContext = detectCi(deps.env, readEvent);
  if (ctx.kind === "other") {
    throw new UsageError(
      `ci found no pull or merge request to review (${ctx.reason}); give --base REF to review HEAD against a branch`,
    );
  }
  const ci = await resolveCiTarget(deps.runner, repo, ctx);
  const untrusted = options.untrusted === true || ctx.fork;
  const notes = [
    `${ctx.ci === "github" ? "GitHub Actions" : "GitLab CI"}: ${ctx.label}${
      ctx.fork ? " from a fork" : ""
    }${untrusted ? " (untrusted: rules and acknowledgements from the base)" : ""}`,
    ...ci.notes,
  ];
  const notAsked = ctx.noSecrets
    ? `this ${ctx.label} comes from a fork, and CI gives a fork's pipeline no secrets: no provider could be asked. Review it locally, or from a pipeline with secrets that runs it deliberately`
    : undefined;
  return { ci, untrusted, ...(notAsked ? { notAsked } : {}), notes };
}

/**
 * Run CI mode.
 *
 * @throws {UsageError} no request found and no `--base`, commits not in the clone, an unknown base
 * @throws what {@linkcode runReview} throws (git, config, store errors)
 */
export async function runCi(options: CiOptions, deps: ReviewDeps): Promise<CiOutcome> {
  await enableCiGitHardening(deps.runner);
  const repo = await resolveRepo(deps.runner, options.cwd);
  const plan = await planCi(options, deps, repo);
  // The request's own rule files must not set the policy it is judged by: read them from the base.
  const rules: RulesOptions = {
    from: await resolveRulesFrom(
      deps.runner,
      repo,
      plan.ci.trusted,
      `base commit ${plan.ci.trusted.slice(0, 12)}`,
    ),
    untrusted: plan.untrusted,
  };
  const { config, notes: rulesNotes } = await loadRulesConfig({
    runner: deps.runner,
    repo,
    env: deps.env,
    flags: options.flags,
    ...rules,
  });
  plan.notes.push(
    `rules from the base ${
      plan.ci.trusted.slice(0, 12)
    }: its .review-gate.json, REVIEW.md, .gitattributes and acknowledgements (the request's edits to them are reviewed as code)`,
  );
  const acks: Ack[] = await readAcks(deps.runner, {
    kind: "tree",
    root: repo.root,
    rev: plan.ci.trusted,
  });
  const outcome = await runReview(
    {
      cwd: repo.root,
      repo,
      target: plan.ci.target,
      kind: "review",
      config,
      useCache: options.useCache,
      gate: options.shardResults ? "ci-merge" : "ci",
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.shardResults ? { shardResults: options.shardResults } : {}),
      rules,
      rulesNotes,
      acks,
      // "block" is already how a failed part ends a CI review; given, a partial verdict is also
      // recorded as blocking (the ledger counts the block the job's exit code makes)
      ...(options.onPartial === "block" ? { onPartial: "block" as const } : {}),
      ...(plan.notAsked ? { notAsked: plan.notAsked } : {}),
    },
    deps,
  );
  // a merge's part that no shard's answer covers is "not-reviewed" like a fork's request: the
  // review could not run (on_error), never the pass a change with nothing to show is
  const fromShards = options.shardResults !== undefined && (outcome.change?.chunks.length ?? 0) > 0;
  return {
    outcome,
    exitCode: ciExitCode(outcome, options, plan.notAsked !== undefined || fromShards),
    notes: plan.notes,
    repo,
    config,
  };
}

/**
 * The exit code of a CI run by policy: 1 when findings block (or, with `onPartial: block`, when
 * part of the change was not reviewed); for a review that gave no verdict 3 with `onError: block`,
 * else 0 (every format says NOT reviewed); 130 when interrupted.
 */
export function ciExitCode(
  outcome: Pick<ReviewOutcome, "record" | "exitCode">,
  policy: Pick<CiOptions, "onError" | "onPartial">,
  notAsked = false,
): number {
  const { record } = outcome;
  if (record.status === "interrupted") return 130;
  if (record.status === "not-reviewed" && !notAsked) return policy.onPartial === "block" ? 3 : 0;
  if (COULD_NOT_RUN.has(record.status)) return policy.onError === "block" ? 3 : 0;
  if (record.blocking) return 1;
  if (record.coverage?.status === "partial" && policy.onPartial === "block") return 1;
  return 0;
}
