/**
 * `review-gate review`: collect a change, review it with a provider, print the review, exit with the
 * contract code (0 approved or non-blocking, 1 blocking, 2 usage, 3 could not run, 130 interrupted).
 * This file defines the command (flags, help); its work, lib/cli/review_action.ts, loads when it
 * runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { PROVIDER_NAMES } from "../providers/names.ts";
import { COUNCIL_POLICIES } from "../kinds/review/types.ts";
import { JOB_ID_OPTION } from "../jobs/job_id_option.ts";
import type { CliDeps } from "./deps.ts";
import { addOutputOptions } from "./outputs.ts";
import { failOnOption, minConfidenceOption } from "./policy_flags.ts";
import { addKindOptions } from "./kind_options.ts";
import type { ReviewFlags } from "./review_action.ts";

/** What `review --help` prints after the options. */
const REVIEW_HELP = `
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
3 could not run (invalid answer, provider error, timeout), 130 interrupted.`;

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
    .addHelpText("after", REVIEW_HELP)
    .action(async (flags: ReviewFlags, command: Command) =>
      await (await import("./review_action.ts")).reviewAction(flags, {
        deps,
        setExit,
        outputs,
        command,
      })
    );
}
