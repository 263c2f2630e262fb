/**
 * Jobs as text (pure): the `jobs` table, one job's `status`, and the line `review --background`
 * prints. Text from the record that came from elsewhere (target labels, reasons) is cleaned for the
 * terminal.
 *
 * @module
 */
import { secondsText } from "../base/duration.ts";
import { sanitizeForTerminal as clean } from "../formats/sanitize.ts";
import { couldNotRun } from "../formats/view.ts";
import type { JobRecord } from "../store/jobs.ts";
import { workerLabel, workerOf, workerTallyText } from "./worker_job.ts";

/**
 * A short age: `42s`, `5m`, `3h`, `2d`.
 *
 * @param ms milliseconds (negative counts as 0)
 */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/**
 * A finished job's outcome in words: a status that gave no verdict says "not reviewed", a review
 * only part of the change reached says "partially reviewed" (README, first rule).
 */
function finishedVerdict(job: JobRecord, blocking: string): string {
  if (job.status !== undefined && couldNotRun({ status: job.status })) {
    return `not reviewed (${job.status})`;
  }
  return `${job.status}${job.blocking ? blocking : ""}${
    job.partial ? ", only partially reviewed" : ""
  }`;
}

/**
 * What the job's review said, or what stopped it: the table's VERDICT column. A session's
 * background worker gives no verdict of its own (the turn's Stop does, README.md "Review while
 * working"): a finished one shows what it did.
 */
export function jobVerdict(job: JobRecord): string {
  const work = workerOf(job);
  switch (job.state) {
    case "finished":
      if (work) return `no verdict (background: ${workerTallyText(work)})`;
      return finishedVerdict(job, " (blocking)");
    case "failed":
      return "not reviewed";
    case "cancelled":
      return "not reviewed";
    default:
      return "…";
  }
}

function kindLabel(job: JobRecord): string {
  return job.answerKind === "review" ? "review" : `${job.answerKind} review`;
}

/**
 * The `jobs` table: id, state, verdict, age, provider, target; newest last.
 *
 * @param jobs the (refreshed) jobs
 * @param now the clock reading
 * @returns lines ending in a newline; a sentence when there are none
 */
export function renderJobsTable(jobs: readonly JobRecord[], now: Date): string {
  if (jobs.length === 0) {
    return "No background jobs. Start one with: review-gate review --background\n";
  }
  const rows = [
    ["ID", "STATE", "VERDICT", "AGE", "PROVIDER", "TARGET"],
    ...jobs.map((job) => [
      job.id,
      job.state,
      jobVerdict(job),
      formatAge(now.getTime() - Date.parse(job.createdAt)),
      job.provider,
      clean(`${job.target}${job.answerKind === "review" ? "" : ` (${job.answerKind})`}`),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((cell, i) => i === r.length - 1 ? cell : cell.padEnd(widths[i]))
      .join("  ")
  ).join("\n") + "\n";
}

/**
 * One job's status, several lines.
 *
 * @param job the refreshed job
 * @param now the clock reading
 */
export function renderJobStatus(job: JobRecord, now: Date): string {
  const since = (iso: string | undefined) => iso ? formatAge(now.getTime() - Date.parse(iso)) : "?";
  // rounded as `result` prints the review's time (lib/formats/terminal.ts), past a minute in minutes
  const tookMs = job.finishedAt
    ? Date.parse(job.finishedAt) - Date.parse(job.startedAt ?? job.createdAt)
    : undefined;
  const took = tookMs === undefined
    ? undefined
    : tookMs < 60_000
    ? secondsText(tookMs)
    : formatAge(tookMs);
  const work = workerOf(job);
  const out: string[] = [];
  switch (job.state) {
    case "queued":
      out.push(`Job ${job.id}: queued ${since(job.createdAt)} ago`);
      break;
    case "running":
      out.push(`Job ${job.id}: running for ${since(job.startedAt ?? job.createdAt)}`);
      break;
    case "finished":
      if (work) {
        out.push(
          `Job ${job.id}: finished after ${took} — ${clean(workerLabel(work))}: ${
            workerTallyText(work)
          }`,
        );
        break;
      }
      out.push(
        `Job ${job.id}: finished after ${took} — ${
          finishedVerdict(job, ", blocking").replace(/^not reviewed/, "NOT reviewed")
        } (exit ${job.exitCode})`,
      );
      break;
    default:
      out.push(`Job ${job.id}: ${job.state}${took ? ` after ${took}` : ""} — NOT reviewed`);
  }
  if (work && job.state !== "finished") out.push(`  ${clean(workerLabel(work))}`);
  out.push(`  ${kindLabel(job)} of ${clean(job.target)} with ${job.provider}`);
  if (job.reason) {
    out.push(`  ${work && job.state === "finished" ? "ended: " : ""}${clean(job.reason)}`);
  }
  if (job.process && !["finished", "failed", "cancelled"].includes(job.state)) {
    out.push(`  process: pid ${job.process.pid}`);
  }
  if (job.runDir) out.push(`  run folder: ${job.runDir}`);
  out.push(`  log: ${job.log}`);
  if (work) {
    out.push("  no verdict of its own: the turn's Stop gives it (see it with: review-gate show)");
  } else if (job.state === "finished") {
    out.push(`  see the review: review-gate result ${job.id}`);
  }
  return out.join("\n") + "\n";
}
