/**
 * `review --background` and its job process: the first checks the request in the foreground (a
 * usage or config error exits 2 at once, never as a failed job), starts the job
 * (lib/jobs/start.ts) and prints its id; the second — the same `review` arguments plus the hidden
 * `--job-id` — runs the review as that job (lib/jobs/run_job.ts) and writes the review to the job's
 * log. The job re-runs the arguments the user gave, rebuilt from what the parser parsed (so a value
 * that looks like a flag stays a value).
 *
 * @module
 */
import type { Target } from "../git/types.ts";
import { narrowedLabel } from "../git/pathspecs.ts";
import { startJob } from "../jobs/start.ts";
import { runJob } from "../jobs/run_job.ts";
import { ensureStateDir } from "../store/state.ts";
import type { ReviewOptions, ReviewOutcome } from "../review/run_review.ts";
import type { CliDeps } from "./deps.ts";
import type { OutputRequest } from "./outputs.ts";
import { type FlagDefinitions, flagName } from "./command.ts";
import { AUTO_PROVIDER } from "../providers/registry.ts";

/** Options of `review` that a job never gets again, or gets rebuilt from the output requests. */
const NOT_PASSED_ON = new Set(["background", "jobId", "format", "output"]);

/**
 * The `review` arguments the user gave, rebuilt from the parsed flags, without `--background`;
 * `--format`/`--output` pairs come from the output requests, in order. A flag at its default is
 * left out (it means the same either way).
 *
 * @param flags the parsed `review` flags, by internal name
 * @param definitions their definitions (lib/cli/review.ts `REVIEW_FLAGS`)
 * @param outputs the output requests (lib/cli/outputs.ts), default none
 * @returns argv words, e.g. `["--base=main", "--no-cache", "--format=sarif", "--output=r.sarif"]`
 */
export function givenArgs(
  flags: Readonly<Record<string, unknown>>,
  definitions: FlagDefinitions,
  outputs: readonly OutputRequest[] = [],
): string[] {
  const out: string[] = [];
  for (const [key, definition] of Object.entries(definitions)) {
    const value = flags[key];
    if (NOT_PASSED_ON.has(key) || value === undefined || value === definition.default) continue;
    const flag = flagName(key);
    if (definition.kind !== "boolean") out.push(...withValue(flag, String(value)));
    else if (value === true) out.push(flag);
    else if (definition.withNegated !== false) out.push(flag.replace(/^--/, "--no-"));
  }
  for (const request of outputs) {
    out.push(`--format=${request.format}`);
    if (request.output !== undefined) out.push(...withValue("--output", request.output));
  }
  return out;
}

/** `--flag=value` (one word: a value that looks like a flag stays a value); `--flag ""` for none. */
function withValue(flag: string, value: string): string[] {
  return value === "" ? [flag, value] : [`${flag}=${value}`];
}

/** What the flags say is reviewed, until the job knows the change's label. */
export function targetHint(target: Target | undefined): string {
  switch (target?.kind) {
    case undefined:
    case "worktree":
      return "working tree";
    case "staged":
      return "staged changes";
    case "base":
      return `${target.ref}...HEAD`;
    case "range":
      return `${target.from}${target.mergeBase ? "..." : ".."}${target.to}`;
    case "commit":
      return `commit ${target.sha}`;
    case "tree":
      return target.label;
  }
}

/**
 * The provider a job names ("Started in the background: … with claude (auto)", the `jobs` table):
 * under `provider: "auto"` the one it chooses now, with how (lib/providers/choice.ts
 * `providerLabel`), the choice the job's own review makes under the same environment; a council's
 * or a merge's config as it is (lib/review/setup.ts chooses nothing for them).
 *
 * @param request the checked review request
 * @param env the environment the job starts with
 * @throws {import("../providers/auto.ts").NoProviderError} when `auto` finds none (exit 3), as the
 *   review in the foreground would: no job is started that cannot run
 */
async function jobProvider(
  request: ReviewOptions,
  env: Record<string, string | undefined>,
): Promise<string> {
  const { config } = request;
  if (config.provider !== AUTO_PROVIDER || config.council.length > 1 || request.shardResults) {
    return config.provider;
  }
  const { chooseProvider, providerLabel } = await import("../providers/auto.ts");
  const { provider, choice } = await chooseProvider(env, request.cwd);
  return providerLabel(provider, choice);
}

/**
 * Start the review as a background job and print its id.
 *
 * @param request the checked review request (lib/cli/review.ts)
 * @param at the parsed flags and their definitions, the output requests, `--json`, and the I/O
 * @returns exit code 0
 */
export async function startBackground(
  request: ReviewOptions & { repo: { commonDir: string } },
  at: {
    flags: Readonly<Record<string, unknown>>;
    definitions: FlagDefinitions;
    /** The paths the review is narrowed to, as typed (relative to the job's directory). */
    paths?: readonly string[];
    outputs: readonly OutputRequest[];
    json?: boolean;
    deps: CliDeps;
  },
): Promise<number> {
  const { deps } = at;
  const job = await startJob({
    state: await ensureStateDir(request.repo.commonDir),
    args: [
      ...givenArgs(at.flags, at.definitions, at.outputs),
      // after "--": a path that looks like a flag stays a path
      ...(at.paths?.length ? ["--", ...at.paths] : []),
    ],
    cwd: deps.cwd,
    env: deps.env,
    self: deps.self,
    target: request.paths?.length
      ? narrowedLabel(targetHint(request.target), request.paths)
      : targetHint(request.target),
    provider: await jobProvider(request, deps.env),
    answerKind: request.answerKind ?? "review",
    config: request.config,
    runner: deps.runner,
    now: deps.now,
  });
  if (at.json) {
    deps.stdout.write(JSON.stringify({ job: job.id, state: job.state, log: job.log }) + "\n");
  } else {
    deps.stdout.write(
      `${job.id}\n` +
        `Started in the background: ${
          job.answerKind === "review" ? "review" : `${job.answerKind} review`
        } ` +
        `of ${job.target} with ${job.provider}.\n` +
        `  review-gate status ${job.id} --wait   # wait for it\n` +
        `  review-gate result ${job.id}          # print the review\n` +
        `  review-gate cancel ${job.id}          # stop it\n`,
    );
  }
  return 0;
}

/**
 * Run a job's review in this process (started with `--job-id`).
 *
 * @param id the job id
 * @param request the review request (built again from the same arguments)
 * @param review runs the review with the job's signal and run hook, and prints it
 * @returns the exit code of the job process (the review's)
 */
export async function runJobProcess(
  id: string,
  request: ReviewOptions & { repo: { commonDir: string } },
  review: (deps: { signal: AbortSignal; onRunOpened: ReviewRunHook }) => Promise<
    ReviewOutcome<unknown>
  >,
  deps: CliDeps,
): Promise<number> {
  const state = await ensureStateDir(request.repo.commonDir);
  const end = await runJob({ state, id }, review, {
    runner: deps.runner,
    now: deps.now,
    signal: deps.signal,
    pid: Deno.pid,
  });
  deps.stderr.write(
    `review-gate: job ${id} ${end.job.state}${end.job.reason ? `: ${end.job.reason}` : ""}\n`,
  );
  return end.exitCode;
}

/** The run hook a job gives its review. */
type ReviewRunHook = (run: { id: string; runDir: string; label: string }) => Promise<void>;
