/**
 * The `--json` run envelope (contract for scripts): status, exit code, the answer with each finding's
 * fingerprint and acknowledgement (`findingNotes`, index for index), what was not reviewed in plain
 * words (`unreviewed`, empty when everything was), refusals and raw provider output on failure,
 * coverage, a council's providers and policy (each finding's agreement is in its note), the team's
 * rules that applied (guidelines sent, files excluded by rule), usage and cost,
 * session id and the run folder. Pure.
 *
 * @module
 */
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { COULD_NOT_RUN, type ReviewResult } from "../store/run_record.ts";
import { buildView } from "./view.ts";

/** Bytes of raw provider output kept per stream in the envelope on failure (the rest is in the transcript). */
export const RAW_OUTPUT_TAIL_BYTES = 16 * 1024;

/**
 * Build the JSON envelope of a finished review.
 *
 * @param result record + answer
 * @param options exit code of the run, the policy, and the last attempt's raw output (for failures)
 * @returns a plain object ready for `JSON.stringify`
 */
export function buildJsonEnvelope(
  result: ReviewResult<unknown>,
  options: {
    exitCode: number;
    policy: Policy;
    rawOutput?: { stdout: string; stderr: string };
    /** Fields another answer kind adds (lib/kinds/definition.ts KindRenderers.json). */
    kindFields?: Record<string, unknown>;
  },
): Record<string, unknown> {
  const { record, answer } = result;
  const answerKind = record.answerKind ?? "review";
  // the review view reads findings: another kind's answer is shown as it is, with its own fields
  const view = buildView(
    answerKind === "review" ? result as ReviewResult<ReviewAnswer> : { record },
    options.policy,
  );
  const failed = COULD_NOT_RUN.has(record.status);
  const tail = (s: string) =>
    s.length > RAW_OUTPUT_TAIL_BYTES ? s.slice(-RAW_OUTPUT_TAIL_BYTES) : s;
  return {
    status: record.status,
    exitCode: options.exitCode,
    blocking: record.blocking,
    answerKind,
    answer: answer ?? null,
    blockingFindings: view.blocking,
    acknowledgedFindings: view.acknowledged,
    findingNotes: record.findingNotes ?? null,
    unreviewed: view.unreviewed,
    ...options.kindFields,
    message: record.message ?? null,
    refusal: record.refusal ?? null,
    rawOutput: failed && options.rawOutput
      ? { stdout: tail(options.rawOutput.stdout), stderr: tail(options.rawOutput.stderr) }
      : null,
    target: record.target,
    coverage: record.coverage ?? null,
    rules: record.rules ?? null,
    provider: record.provider,
    council: record.council ?? null,
    model: record.model ?? null,
    sessionId: record.sessionId ?? null,
    usage: record.usage ?? null,
    costUsd: record.costUsd ?? null,
    cached: record.cached,
    cachedFrom: record.cachedFrom ?? null,
    durationMs: record.durationMs,
    runId: record.id,
    runDir: record.runDir,
  };
}
