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
import { jsonPieces } from "../base/json_pieces.ts";
import type { KindRenderers } from "../kinds/definition.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { COULD_NOT_RUN, type ReviewResult } from "../store/run_record.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
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
    // a warn-mode gate's run (README "Warn first"): what would have blocked, none of it blocking
    ...(record.gateMode === "warn"
      ? { gateMode: record.gateMode, wouldBlockFindings: view.wouldBlock }
      : {}),
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
    providerChoice: record.providerChoice ?? null,
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

/**
 * Render a review as its JSON envelope: the json format's `Renderer` (lib/formats/renderer.ts).
 *
 * @param input the finished review, its exit code and, on failure, the raw output
 * @param options `policy` marks blocking findings
 * @returns pretty JSON ending in a newline
 */
export function renderJson(input: RenderInput, options: RenderOptions): string {
  return envelopeText(input, options);
}

/**
 * Render a run of another answer kind as the same envelope plus the fields its kind adds: the json
 * format's `KindFrame` (lib/formats/renderer.ts).
 *
 * @param input the finished run, its exit code and, on failure, the raw output
 * @param options `policy` (the envelope's review fields are empty for another kind's answer)
 * @param render the kind's renderers: its json one gives the added fields
 * @returns pretty JSON ending in a newline
 */
export function renderKindJson(
  input: RenderInput<unknown>,
  options: RenderOptions,
  render: KindRenderers,
): string {
  const kindFields = input.answer === undefined ? {} : render.json(input.record, input.answer);
  return envelopeText(input, options, kindFields);
}

/**
 * The json format's text in pieces (lib/base/json_pieces.ts), joined the same as
 * {@linkcode renderJson} (a review) or {@linkcode renderKindJson} (another kind, when `render` is
 * given): the envelope of a 1M-line change names ~100,000 omitted hunks (~12 MB), written out
 * piece by piece, never one string.
 *
 * @param input the finished run
 * @param options `policy`
 * @param render another kind's renderers (their json one gives the added fields)
 * @returns the pieces, final newline included
 */
export function* renderJsonPieces(
  input: RenderInput<unknown>,
  options: RenderOptions,
  render?: KindRenderers,
): Generator<string> {
  const kindFields = render && input.answer !== undefined
    ? render.json(input.record, input.answer)
    : render
    ? {}
    : undefined;
  yield* jsonPieces(envelopeOf(input, options, kindFields));
  yield "\n";
}

function envelopeOf(
  input: RenderInput<unknown>,
  options: RenderOptions,
  kindFields?: Record<string, unknown>,
): Record<string, unknown> {
  return buildJsonEnvelope(input, {
    exitCode: input.exitCode,
    policy: options.policy,
    rawOutput: input.rawOutput,
    kindFields,
  });
}

function envelopeText(
  input: RenderInput<unknown>,
  options: RenderOptions,
  kindFields?: Record<string, unknown>,
): string {
  return JSON.stringify(envelopeOf(input, options, kindFields), null, 2) + "\n";
}
