/**
 * `review-gate review`: collect a change, review it with a provider, print the review, exit with the
 * contract code (0 approved or non-blocking, 1 blocking, 2 usage, 3 could not run, 130 interrupted).
 *
 * @module
 */
import { type Command, Option } from "commander";
import type { ConfigLayer } from "../config/config.ts";
import type { RulesOptions } from "../rules/options.ts";
import { UsageError } from "../base/errors.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { parseRangeSpec } from "../git/target.ts";
import { estimateTokens, planText } from "../git/coverage_text.ts";
import type { Change, Target } from "../git/types.ts";
import { PROVIDER_NAMES } from "../providers/registry.ts";
import { checkFormatShows } from "../formats/registry.ts";
import { COUNCIL_POLICIES } from "../kinds/review/types.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { policyOf } from "../kinds/review/policy.ts";
import { type ReviewDeps, type ReviewOutcome, runReview } from "../review/run_review.ts";
import { loadRulesConfig } from "../rules/config_at.ts";
import { readAcks } from "../acks/file.ts";
import type { Ack } from "../acks/types.ts";
import type { RulesReport } from "../rules/report.ts";
import { FROM_WORKTREE, resolveRulesFrom } from "../rules/source.ts";
import { JOB_ID_OPTION } from "../jobs/start.ts";
import { runJobProcess, startBackground } from "./background.ts";
import type { CliDeps } from "./deps.ts";
import { startProgress } from "./progress.ts";
import { addOutputOptions, writeOutputs } from "./outputs.ts";
import { failOnOption, minConfidenceOption, policyFlagLayer } from "./policy_flags.ts";
import { addKindOptions, chooseKind } from "./kind_options.ts";

interface ReviewFlags {
  provider?: string;
  providers?: string;
  councilPolicy?: string;
  model?: string;
  staged?: boolean;
  base?: string;
  range?: string;
  commit?: string;
  focus?: string;
  adversarial?: boolean;
  json?: boolean;
  timeout?: string;
  cache: boolean;
  failOn?: string;
  minConfidence?: string;
  planOnly?: boolean;
  maxCalls?: string;
  jobs?: string;
  background?: boolean;
  jobId?: string;
  rulesFrom?: string;
  untrusted?: boolean;
  defaultExcludes: boolean;
}

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
  if (!flags.defaultExcludes) layer.default_excludes = false;
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

/** Register `review` on the program. */
export function registerReview(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  const command = program.command("review")
    .description("Review a change with a coding-agent CLI and print the verdict");
  const outputs = addOutputOptions(command);
  command
    .addOption(
      new Option("-p, --provider <name>", "provider CLI to ask").choices([...PROVIDER_NAMES]),
    )
    .option(
      "--providers <a,b>",
      "a council: send the same plan to these providers in parallel and mark who agreed",
    )
    .addOption(
      new Option("--council-policy <policy>", "which council findings block")
        .choices([...COUNCIL_POLICIES]),
    )
    .option("-m, --model <model>", "model name passed to the provider")
    .option("--staged", "review the staged changes (HEAD → index)")
    .option("--base <ref>", "review merge-base(<ref>, HEAD) → HEAD")
    .option("--range <A..B>", "review a commit range (A...B: from their merge-base)")
    .option("--commit <sha>", "review one commit against its first parent")
    .option("--focus <text>", "what the reviewer should focus on")
    .option("--adversarial", "use the adversarial review prompt")
    .addOption(failOnOption())
    .addOption(minConfidenceOption())
    .option("--timeout <seconds>", "limit for the provider call, in seconds")
    .option("--no-cache", "ignore cached verdicts and ask the provider again")
    .option("--max-calls <n>", "most model calls: a larger change is reviewed in up to n parts")
    .option("--jobs <n>", "most model calls at once")
    .option("--plan-only", "print the review plan (parts, sizes, tokens) without a model call")
    .option(
      "--rules-from <ref>",
      "read .review-gate.json, REVIEW.md and .gitattributes from this commit, not the worktree",
    )
    .option(
      "--untrusted",
      "the repository is not trusted: its config may only make the review stricter, its acknowledgements do not count",
    )
    .option("--no-default-excludes", "review lockfiles, build output and generated files too")
    .option("--json", "print the run envelope as JSON on stdout (same as --format json)")
    .option("--background", "run the review as a background job: print its id and return at once")
    .addOption(new Option(`${JOB_ID_OPTION} <id>`, "run as this background job").hideHelp());
  addKindOptions(command)
    .addHelpText(
      "after",
      `
Without a target flag the working tree is reviewed (tracked, staged and untracked changes) when it
has any change; otherwise there is nothing to review. With --plan PLAN.md the change is checked
against the plan's items instead (a plan-compliance review, in one model call: compliance.json +
compliance.md; its formats are terminal, json and markdown). --plan-only is another thing: it
prints the review plan (the parts a large change is reviewed in).

Formats: terminal (default), json, markdown, sarif (SARIF 2.1.0), rdjson and rdjsonl (reviewdog),
github (GitHub Actions annotations + job summary). Repeat --format for several, each with its own
--output FILE; at most one goes to stdout.

Team rules: REVIEW.md files (the root one and those above each changed file) and the config's
"instructions"/"path_instructions" are sent as review policy; "exclude"/"include" and the default
excludes leave files out by rule (named in the output). --rules-from reads them, and the config,
from a commit — the base of a pull request — so the change under review cannot rewrite them.

With --background the review runs detached (its own session, output in the job's log, --output
files written when it ends): follow it with "review-gate status [ID] --wait", print it with
"review-gate result [ID]", stop it with "review-gate cancel [ID]"; "review-gate jobs" lists them.

Exit codes: 0 approved or no blocking finding, 1 blocking findings, 2 usage or config error,
3 could not run (invalid answer, provider error, timeout), 130 interrupted.`,
    )
    .action((flags: ReviewFlags, command: Command) =>
      reviewAction(flags, { deps, setExit, outputs, command })
    );
}

/** `review`: plan only, or review and write the outputs; sets the exit code. */
async function reviewAction(
  flags: ReviewFlags,
  at: {
    deps: CliDeps;
    setExit: (code: number) => void;
    outputs: ReturnType<typeof addOutputOptions>;
    command: Command;
  },
): Promise<void> {
  const { deps, setExit, outputs } = at;
  const requests = outputs({ format: flags.json ? "json" : "terminal" });
  const request = await reviewRequest(flags, deps);
  for (const { format } of requests) checkFormatShows(format, request.answerKind);
  if (flags.planOnly) {
    const { planReview } = await import("../review/plan_only.ts");
    const { repo, target, config, rules, rulesNotes } = request;
    const planned = await planReview({ repo, target, config, rules, rulesNotes }, deps.runner);
    deps.stdout.write(planOutput(planned, flags.json === true));
    setExit(0);
    return;
  }
  const write = async (io: CliDeps, onRunOpened?: ReviewDeps["onRunOpened"]) => {
    const outcome = await reviewOnce(request, io, onRunOpened);
    await writeOutputs(requests, outcome, { policy: policyOf(request.config), deps: io });
    for (const warning of outcome.storeWarnings ?? []) {
      io.stderr.write(`review-gate: warning: ${sanitizeForTerminal(warning)}\n`);
    }
    return outcome;
  };
  if (flags.jobId !== undefined) {
    setExit(
      await runJobProcess(
        flags.jobId,
        request,
        (hooks) => write({ ...deps, signal: hooks.signal }, hooks.onRunOpened),
        deps,
      ),
    );
  } else if (flags.background) {
    setExit(
      await startBackground(request, {
        command: at.command,
        outputs: requests,
        json: flags.json,
        deps,
      }),
    );
  } else {
    setExit((await write(deps)).exitCode);
  }
}

/** What `review` was asked: the review's options before the pipeline resolves the change. */
async function reviewRequest(flags: ReviewFlags, deps: CliDeps) {
  const target = targetFromFlags(flags);
  const chosen = await chooseKind(flags as unknown as Record<string, unknown>, deps.cwd);
  if (chosen.answerKind !== "review" && flags.adversarial) {
    throw new UsageError(
      `--adversarial is a code review prompt: drop it for a ${chosen.answerKind} review`,
    );
  }
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const { rules, config, notes, acks } = await rulesAndConfig(flags, deps, repo);
  return {
    cwd: deps.cwd,
    repo,
    target,
    kind: flags.adversarial ? "adversarial-review" as const : "review" as const,
    ...chosen,
    focus: flags.focus,
    config,
    rules,
    rulesNotes: notes,
    ...(acks ? { acks } : {}),
    useCache: flags.cache,
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
  request: Awaited<ReturnType<typeof reviewRequest>>,
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

/** What `--plan-only` prints: the plan as text, or as JSON with `--json`. */
function planOutput(
  planned: { change: Change; rules: RulesReport } | null,
  json: boolean,
): string {
  const change = planned?.change;
  if (!json) {
    return change
      ? planText(change) + rulesPlanText(planned.rules)
      : "review-gate: nothing to review\n";
  }
  const plan = change
    ? {
      target: change.label,
      calls: change.chunks.length,
      parts: change.chunks.map((c, i) => ({
        part: i + 1,
        files: c.paths,
        lines: c.lines,
        bytes: c.bytes,
        estimatedTokens: estimateTokens(c.bytes),
      })),
      coverage: change.coverage,
      rules: planned.rules,
    }
    : { target: null, calls: 0, parts: [], coverage: null, rules: null };
  return JSON.stringify(plan, null, 2) + "\n";
}

/** The team's rules in the plan: guidelines that would be sent, files excluded by rule, notes. */
function rulesPlanText(rules: RulesReport): string {
  const out: string[] = [];
  const from = rules.from === "worktree" ? "" : ` (rules from ${rules.from})`;
  if (rules.guidelines.length === 0) out.push(`Guidelines${from}: none applies`);
  else out.push(`Guidelines${from}:`);
  for (const g of rules.guidelines) {
    out.push(
      `  ${JSON.stringify(g.source)} (applies to ${g.appliesTo}; ${g.bytes} B${
        g.cut ? `; cut: ${g.cut}` : ""
      })`,
    );
  }
  for (const g of rules.guidelinesLeftOut) {
    out.push(`  left out: ${JSON.stringify(g.source)} (${g.reason})`);
  }
  if (rules.excluded.length > 0) {
    out.push("Excluded by rule (never sent, not counted against the budget):");
    for (const e of rules.excluded) out.push(`  ${JSON.stringify(e.path)} (${e.rule})`);
  }
  if (rules.editedRuleFiles.length > 0) {
    out.push(`This change edits review rules: ${rules.editedRuleFiles.join(", ")}`);
  }
  for (const note of rules.notes) out.push(note);
  return sanitizeForTerminal(out.join("\n") + "\n");
}
