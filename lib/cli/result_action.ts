/**
 * The work of `review-gate result`, loaded when it runs (lib/cli/result.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { ExitCode, UsageError } from "../base/errors.ts";
import { loadConfig } from "../config/config.ts";
import { getRenderer } from "../formats/registry.ts";
import { sanitizeForTerminal as clean } from "../formats/sanitize.ts";
import { choosePaint } from "../formats/style.ts";
import { findJob } from "../jobs/find.ts";
import { kindOfRecord } from "../kinds/registry.ts";
import { policyOf } from "../kinds/review/policy.ts";
import { exitCodeFor } from "../review/exit_code.ts";
import type { JobRecord, WorkerTally } from "../store/jobs.ts";
import { readAnswer, readRunRecord } from "../store/run_dir.ts";
import { RUNNING_STATUS, type RunRecord } from "../store/run_record.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";
import { workerLabel, workerOf, workerTallyText } from "../jobs/worker_job.ts";

/**
 * A session's background worker has no verdict of its own (README.md "Review while working"): the
 * turn's Stop gives it. Said, and exit 3 — no verdict is never a pass (docs/design.md "Statuses and
 * exit codes").
 */
function printWorker(
  job: JobRecord,
  work: WorkerTally,
  json: boolean | undefined,
  deps: CliDeps,
): number {
  const code = ExitCode.couldNotRun;
  const message = `job ${job.id} is the ${workerLabel(work)} (${job.state}` +
    `${job.reason ? `: ${job.reason}` : ""}; ${workerTallyText(work)}): it has no verdict of its ` +
    `own — the turn's Stop gives it (see it with "review-gate show")`;
  deps.stdout.write(
    json
      ? JSON.stringify({
        status: "no-verdict",
        exitCode: code,
        job: job.id,
        state: job.state,
        sessionId: work.sessionId,
        calls: work.calls ?? null,
        answered: work.answered ?? null,
        reason: job.reason,
      }) + "\n"
      : `review-gate: ${clean(message)}\n`,
  );
  return code;
}

/** Print a finished job's review; returns the review's exit code. */
async function printReview(
  job: JobRecord,
  at: { root: string; json?: boolean },
  deps: CliDeps,
): Promise<number> {
  // a finished record with no status gave no verdict: never the 0 of a pass
  const exitCode = job.exitCode ??
    (job.status ? exitCodeFor(job.status, job.blocking ?? false) : ExitCode.couldNotRun);
  const stored = job.runDir ? await readRunRecord(job.runDir) : null;
  if (!stored || stored.status === RUNNING_STATUS) {
    // no run folder: the review ended before one existed (nothing to review, interrupted early)
    deps.stdout.write(
      at.json
        ? JSON.stringify({ status: job.status, exitCode, job: job.id, target: job.target }) + "\n"
        : `review-gate: ${
          job.status === "nothing-to-review"
            ? "nothing to review"
            : job.status ?? "NOT reviewed: the job recorded no status"
        } (${clean(job.target)})\n`,
    );
    return exitCode;
  }
  const record = stored as RunRecord;
  const kind = await kindOfRecord(record.answerKind);
  const answer = kind ? await readAnswer(record.runDir, kind.files.answer) : undefined;
  const { config } = await loadConfig({ root: at.root, env: deps.env });
  const render = await getRenderer(at.json ? "json" : "terminal");
  deps.stdout.write(
    await render(
      { record, answer, exitCode },
      { policy: policyOf(config), paint: choosePaint(deps.stdout.isTerminal, deps.env) },
    ),
  );
  return exitCode;
}

export async function result(
  id: string | undefined,
  flags: { json?: boolean },
  deps: CliDeps,
): Promise<number> {
  const { state, root, io } = await openJobState(deps);
  const job = await findJob(state, id, io);
  const work = workerOf(job);
  if (work && job.state !== "queued" && job.state !== "running") {
    return printWorker(job, work, flags.json, deps);
  }
  switch (job.state) {
    case "queued":
    case "running":
      throw new UsageError(
        `Job ${job.id} is still ${job.state}: wait for it with "review-gate status ${job.id} --wait"`,
      );
    case "finished":
      return await printReview(job, { root, json: flags.json }, deps);
    default: {
      const code = job.state === "cancelled" ? ExitCode.interrupted : ExitCode.couldNotRun;
      const text = `review-gate: NOT reviewed — job ${job.id} ${job.state}: ${job.reason ?? ""}`;
      deps.stdout.write(
        flags.json
          ? JSON.stringify({ status: job.state, exitCode: code, job: job.id, reason: job.reason }) +
            "\n"
          : `${clean(text)}\n${job.runDir ? `Run folder: ${job.runDir}\n` : ""}`,
      );
      return code;
    }
  }
}
