/**
 * `review-gate ci`: review the pull or merge request a CI job runs for — its base and head from the
 * CI's own variables (GitHub Actions, GitLab CI; `--base REF` otherwise) — write the requested
 * formats, and exit by policy. Never needs a TTY, never prompts. This file defines the command;
 * its work, lib/cli/ci_action.ts, loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand, flag, text } from "./command.ts";
import { OUTPUT_FLAGS, outputRequests } from "./outputs.ts";
import { POLICY_FLAGS } from "./policy_flags.ts";
import { REVIEW_FLAGS } from "./review.ts";
import { MAX_CALLS_FLAG, SHARD_FLAGS } from "./shard_flags.ts";
import type { CiFlags } from "./ci_action.ts";

const BRIEF =
  "Review the pull/merge request this CI job runs for, write the formats, exit by policy";

/** What `ci --help` prints after the description. */
const CI_HELP = `
Finds the request from GitHub Actions (pull_request, pull_request_target: GITHUB_EVENT_PATH,
GITHUB_SHA) or GitLab CI (merge request pipelines, merged results included); commits a shallow
checkout lacks are fetched from origin. Every request is judged by its base's .review-gate.json,
REVIEW.md, .gitattributes and acknowledgements, not its own edits to them. A request from a fork
is untrusted; one from a fork without secrets is reported as NOT reviewed. Default format: github under GitHub Actions, else terminal.

Split across a CI matrix: --shard i/n --shard-output FILE reviews shard i's parts of the plan (the
same plan on every runner, dealt out by bytes) and writes them for "review-gate merge", which
renders the formats and exits as ci does; a shard never gates (exit 0 once its file is written, 3
when it cannot be). Give every shard and the merge the same review flags.

Exit codes: 0 reviewed and nothing blocks (or not reviewed with --on-error allow), 1 blocking
findings, 2 usage or config error, 3 could not run, 130 interrupted.`;

/** `ci`'s flags, by internal name (`onError` is `--on-error`); `merge` takes most of them. */
export const CI_FLAGS = {
  ...OUTPUT_FLAGS,
  provider: REVIEW_FLAGS.provider,
  model: text("model", "model name passed to the provider"),
  base: text("ref", "review merge-base(<ref>, HEAD) → HEAD instead of the CI's request"),
  untrusted: flag("treat the request as untrusted (always so for a fork's)"),
  onError: {
    kind: "enum",
    values: ["allow", "block"],
    default: "block",
    placeholder: "what",
    brief: "when the review could not run: block (exit 3) or allow (exit 0)",
  },
  onPartial: {
    kind: "enum",
    values: ["allow", "block"],
    default: "allow",
    placeholder: "what",
    brief: "when part of the change was not reviewed",
  },
  ...POLICY_FLAGS,
  timeout: text("seconds", "limit for the provider call, in seconds"),
  noCache: flag("ignore cached verdicts and ask the provider again"),
  ...MAX_CALLS_FLAG,
  ...SHARD_FLAGS,
} as const;

/** `ci`. */
export const ciRoutes: CommandRoutes = {
  ci: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + CI_HELP },
    parameters: {
      flags: CI_FLAGS,
      aliases: { p: "provider", m: "model" },
    },
    async func(this: CliContext, flags: CiFlags) {
      const requests = outputRequests(flags, this.args, {
        format: this.deps.env.GITHUB_ACTIONS === "true" ? "github" : "terminal",
      });
      const { reviewRequest } = await import("./ci_action.ts");
      this.setExit(await reviewRequest(flags, requests, this.deps));
    },
  }),
};
