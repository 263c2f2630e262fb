/**
 * `review-gate review`: collect a change, review it with a provider, print the review, exit with the
 * contract code (0 approved or non-blocking, 1 blocking, 2 usage, 3 could not run, 130 interrupted).
 * This file defines the command (flags, help); its work, lib/cli/review_action.ts, loads when it
 * runs.
 *
 * @module
 */
import { PROVIDER_SETTINGS } from "../providers/registry.ts";
import { COUNCIL_POLICIES } from "../kinds/review/types.ts";
import { JOB_ID_OPTION } from "../jobs/job_id_option.ts";
import {
  type CliContext,
  type CommandRoutes,
  defineCommand,
  flag,
  internalName,
  text,
} from "./command.ts";
import { OUTPUT_FLAGS, outputRequests } from "./outputs.ts";
import { POLICY_FLAGS } from "./policy_flags.ts";
import { kindFlagDefinitions } from "./kind_options.ts";
import type { ReviewFlags } from "./review_action.ts";
import { SHARD_FLAGS } from "./shard_flags.ts";
import { trace } from "../base/trace.ts";

/** What `review --help` prints after the options. */
const REVIEW_HELP = `
Without a target flag the working tree is reviewed (tracked, staged and untracked changes) when it
has any change; otherwise there is nothing to review. PATH… narrows the review to those paths, as
"git diff -- PATH…" does (relative to the current directory; globs as git's): the change's label,
coverage and every output say the review was narrowed; the rest of the change is not reviewed.
With --plan PLAN.md the change is checked against the plan's items instead (a plan-compliance
review, in one model call: compliance.json + compliance.md; its formats are terminal, json and
markdown). --plan-only is another thing: it prints the review plan (the parts a large change is
reviewed in).

Formats: terminal (default), json, markdown, sarif (SARIF 2.1.0), rdjson and rdjsonl (reviewdog),
github (GitHub Actions annotations + job summary). Repeat --format for several, each with its own
--output FILE; at most one goes to stdout.

Team rules: REVIEW.md files (the root one and those above each changed file) and the config's
"instructions"/"path_instructions" are sent as review policy; "exclude"/"include" and the default
excludes leave files out by rule (named in the output). --rules-from reads them, and the config,
from a commit — the base of a pull request — so the change under review cannot rewrite them.

With --shard i/n --shard-output FILE only shard i of n's parts of the plan are reviewed and written
to FILE for "review-gate merge" (see "review-gate ci"); --plan-only --shard i/n prints what each
shard will do.

With --background the review runs detached (its own session, output in the job's log, --output
files written when it ends): follow it with "review-gate status [ID] --wait", print it with
"review-gate result [ID]", stop it with "review-gate cancel [ID]"; "review-gate jobs" lists them.

Exit codes: 0 approved or no blocking finding, 1 blocking findings, 2 usage or config error,
3 could not run (invalid answer, provider error, timeout), 130 interrupted.`;

const BRIEF = "Review a change with a coding-agent CLI and print the verdict";

/** `review`'s flags, by internal name (`noCache` is `--no-cache`), in help order. */
export const REVIEW_FLAGS = {
  ...OUTPUT_FLAGS,
  provider: {
    kind: "enum",
    values: PROVIDER_SETTINGS,
    optional: true,
    placeholder: "name",
    brief: "provider CLI to ask (auto: the first installed and signed in)",
  },
  providers: text(
    "a,b",
    "a council: send the same plan to these providers in parallel and mark who agreed",
  ),
  councilPolicy: {
    kind: "enum",
    values: COUNCIL_POLICIES,
    optional: true,
    placeholder: "policy",
    brief: "which council findings block",
  },
  model: text("model", "model name passed to the provider"),
  staged: flag("review the staged changes (HEAD → index)"),
  base: text("ref", "review merge-base(<ref>, HEAD) → HEAD"),
  range: text("A..B", "review a commit range (A...B: from their merge-base)"),
  commit: text("sha", "review one commit against its first parent"),
  focus: text("text", "what the reviewer should focus on"),
  adversarial: flag("use the adversarial review prompt"),
  ...POLICY_FLAGS,
  timeout: text("seconds", "limit for the provider call, in seconds"),
  noCache: flag("ignore cached verdicts and ask the provider again"),
  maxCalls: text("n", "most model calls: a larger change is reviewed in up to n parts"),
  jobs: text("n", "most model calls at once"),
  planOnly: flag("print the review plan (parts, sizes, tokens) without a model call"),
  ...SHARD_FLAGS,
  rulesFrom: text(
    "ref",
    "read .review-gate.json, REVIEW.md and .gitattributes from this commit, not the worktree",
  ),
  untrusted: flag(
    "the repository is not trusted: its config may only make the review stricter, its acknowledgements do not count",
  ),
  noDefaultExcludes: flag("review lockfiles, build output and generated files too"),
  json: flag("print the run envelope as JSON on stdout (same as --format json)"),
  background: flag("run the review as a background job: print its id and return at once"),
  [internalName(JOB_ID_OPTION) as "jobId"]: {
    ...text("id", "run as this background job"),
    hidden: true,
  },
  ...kindFlagDefinitions(),
} as const;

/** `review`. */
export const reviewRoutes: CommandRoutes = {
  review: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + REVIEW_HELP },
    parameters: {
      flags: REVIEW_FLAGS,
      aliases: { p: "provider", m: "model" },
      positional: {
        kind: "array",
        parameter: {
          placeholder: "path",
          brief: "narrow the review to these paths (as git diff -- PATH…)",
          parse: String,
        },
      },
    },
    async func(this: CliContext, flags: ReviewFlags, ...paths: string[]) {
      trace("review: command parsed");
      // the review's first git calls run while its code loads (lib/cli/review_ahead.ts)
      const ahead = (await import("./review_ahead.ts")).reviewAhead(flags, this.deps);
      await ahead.started(); // its git add runs while the review's code loads
      trace("review: ahead started");
      try {
        const { reviewAction } = await import("./review_action.ts");
        trace("review: review_action.ts loaded");
        await reviewAction(flags, {
          deps: this.deps,
          setExit: (code) => this.setExit(code),
          // --background --json prints the job's id as JSON, not the review
          outputs: (fallback) =>
            outputRequests(
              flags,
              this.args,
              fallback,
              flags.json === true && !flags.background && flags.jobId === undefined,
            ),
          definitions: REVIEW_FLAGS,
          paths,
          ahead,
        });
      } finally {
        await ahead.settled(); // no git child started ahead outlives the command
      }
    },
  }),
};
