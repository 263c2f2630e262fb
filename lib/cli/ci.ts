/**
 * `review-gate ci`: review the pull or merge request a CI job runs for — its base and head from the
 * CI's own variables (GitHub Actions, GitLab CI; `--base REF` otherwise) — write the requested
 * formats, and exit by policy. Never needs a TTY, never prompts. This file defines the command;
 * its work, lib/cli/ci_action.ts, loads when it runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { PROVIDER_NAMES } from "../providers/names.ts";
import type { CliDeps } from "./deps.ts";
import { addOutputOptions } from "./outputs.ts";
import { failOnOption, minConfidenceOption } from "./policy_flags.ts";
import type { CiFlags } from "./ci_action.ts";

/** Register `ci` on the program. */
export function registerCi(program: Command, deps: CliDeps, setExit: (code: number) => void): void {
  const command = program.command("ci")
    .description(
      "Review the pull/merge request this CI job runs for, write the formats, exit by policy",
    );
  const outputs = addOutputOptions(command);
  command
    .addOption(
      new Option("-p, --provider <name>", "provider CLI to ask").choices([...PROVIDER_NAMES]),
    )
    .option("-m, --model <model>", "model name passed to the provider")
    .option("--base <ref>", "review merge-base(<ref>, HEAD) → HEAD instead of the CI's request")
    .option("--untrusted", "treat the request as untrusted (always so for a fork's)")
    .addOption(
      new Option(
        "--on-error <what>",
        "when the review could not run: block (exit 3) or allow (exit 0)",
      ).choices(["allow", "block"]).default("block"),
    )
    .addOption(
      new Option("--on-partial <what>", "when part of the change was not reviewed").choices([
        "allow",
        "block",
      ]).default("allow"),
    )
    .addOption(failOnOption())
    .addOption(minConfidenceOption())
    .option("--timeout <seconds>", "limit for the provider call, in seconds")
    .option("--no-cache", "ignore cached verdicts and ask the provider again")
    .addHelpText(
      "after",
      `
Finds the request from GitHub Actions (pull_request, pull_request_target: GITHUB_EVENT_PATH,
GITHUB_SHA) or GitLab CI (merge request pipelines, merged results included); commits a shallow
checkout lacks are fetched from origin. Every request is judged by its base's .review-gate.json,
REVIEW.md, .gitattributes and acknowledgements, not its own edits to them. A request from a fork
is untrusted; one from a fork without secrets is reported as NOT reviewed. Default format: github under GitHub Actions, else terminal.

Exit codes: 0 reviewed and nothing blocks (or not reviewed with --on-error allow), 1 blocking
findings, 2 usage or config error, 3 could not run, 130 interrupted.`,
    )
    .action(async (flags: CiFlags) => {
      const requests = outputs({
        format: deps.env.GITHUB_ACTIONS === "true" ? "github" : "terminal",
      });
      const { reviewRequest } = await import("./ci_action.ts");
      setExit(await reviewRequest(flags, requests, deps));
    });
}
