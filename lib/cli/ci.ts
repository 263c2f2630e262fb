/**
 * `review-gate ci`: review the pull or merge request a CI job runs for — its base and head from the
 * CI's own variables (GitHub Actions, GitLab CI; `--base REF` otherwise) — write the requested
 * formats, and exit by policy. Never needs a TTY, never prompts.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { relative } from "node:path";
import { PROVIDER_NAMES } from "../providers/registry.ts";
import { policyOf } from "../kinds/review/policy.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { runCi } from "../ci/run_ci.ts";
import type { CliDeps } from "./deps.ts";
import { addOutputOptions, type OutputRequest, writeOutputs } from "./outputs.ts";
import { reviewedAmount } from "../git/coverage_text.ts";
import { failOnOption, minConfidenceOption, policyFlagLayer } from "./policy_flags.ts";

interface CiFlags {
  provider?: string;
  model?: string;
  base?: string;
  untrusted?: boolean;
  onError: "allow" | "block";
  onPartial: "allow" | "block";
  failOn?: string;
  minConfidence?: string;
  timeout?: string;
  cache: boolean;
}

/** The path from the CI workspace to the repository root, as a prefix (`app/`), or "". */
function workspacePrefix(env: Record<string, string | undefined>, root: string): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (!workspace) return "";
  const rel = relative(workspace, root);
  return rel === "" || rel.startsWith("..") ? "" : `${rel}/`;
}

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
      setExit(await reviewRequest(flags, requests, deps));
    });
}

/**
 * Run `ci` with its flags: review the request, write the outputs, say why a partial review fails.
 *
 * @returns the exit code
 */
async function reviewRequest(
  flags: CiFlags,
  requests: OutputRequest[],
  deps: CliDeps,
): Promise<number> {
  const layer = policyFlagLayer(flags);
  if (flags.provider !== undefined) layer.provider = flags.provider;
  if (flags.model !== undefined) layer.model = flags.model;
  if (flags.timeout !== undefined) layer.timeout_seconds = Number(flags.timeout);
  const ci = await runCi(
    {
      cwd: deps.cwd,
      flags: layer,
      base: flags.base,
      untrusted: flags.untrusted,
      onError: flags.onError,
      onPartial: flags.onPartial,
      useCache: flags.cache,
    },
    { runner: deps.runner, env: deps.env, now: deps.now, signal: deps.signal },
  );
  for (const note of ci.notes) {
    deps.stderr.write(sanitizeForTerminal(`review-gate ci: ${note}\n`));
  }
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
