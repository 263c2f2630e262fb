/**
 * Output formats, one line each: a format's name → its renderer (DESIGN.md "Next capabilities" →
 * Outputs). Every renderer is a pure function of the finished review: the run record, the answer
 * when there is one, the exit code and the policy. Adding a format is one new file in this folder
 * plus one line in `REVIEW_FORMATS`.
 *
 * Renderers are chosen by the run's answer kind: `review` runs (plain and adversarial) have every
 * format; another kind (a plan-compliance review) plugs its own renderers in with one line in
 * `KIND_FORMATS`, and a format it lacks is refused with a clear message, never rendered as a review.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewResult, RunRecord } from "../store/run_record.ts";
import { renderGithub } from "./github.ts";
import { buildJsonEnvelope } from "./json.ts";
import { renderMarkdownResult } from "./markdown.ts";
import { renderRdjson, renderRdjsonl } from "./rdjson.ts";
import { renderSarif } from "./sarif.ts";
import type { Paint } from "./style.ts";
import { renderTerminal } from "./terminal.ts";

/** What a renderer is given: the finished review and how it ended. */
export interface RenderInput extends ReviewResult {
  /** The run's exit code (lib/review/exit_code.ts). */
  exitCode: number;
  /** The last attempt's raw output, for runs that could not run. */
  rawOutput?: { stdout: string; stderr: string };
}

/** How to render. */
export interface RenderOptions {
  /** Marks blocking findings. */
  policy: Policy;
  /** Colours for terminal output; plain text when absent. */
  paint?: Paint;
  /**
   * Prefix that makes repository-relative paths relative to the CI workspace (GitHub workflow
   * commands), e.g. `app/` for a repository checked out in a sub-folder; default none.
   */
  pathPrefix?: string;
}

/** A renderer: text for one finished review, ending in a newline. */
export type Renderer = (input: RenderInput, options: RenderOptions) => string;

/** The renderers of the `review` answer kind. */
const REVIEW_FORMATS = {
  terminal: (input, options) => renderTerminal(input, options),
  json: (input, options) =>
    JSON.stringify(
      buildJsonEnvelope(input, {
        exitCode: input.exitCode,
        policy: options.policy,
        rawOutput: input.rawOutput,
      }),
      null,
      2,
    ) + "\n",
  markdown: (input, options) => renderMarkdownResult(input, options.policy),
  sarif: (input, options) => renderSarif(input, options.policy),
  rdjson: (input, options) => renderRdjson(input, options.policy),
  rdjsonl: (input, options) => renderRdjsonl(input, options.policy),
  github: (input, options) =>
    renderGithub(input, { policy: options.policy, pathPrefix: options.pathPrefix }),
} as const satisfies Record<string, Renderer>;

/** A format name. */
export type FormatName = keyof typeof REVIEW_FORMATS;

/** Every format, in registry order. */
export const FORMAT_NAMES = Object.keys(REVIEW_FORMATS) as FormatName[];

/** Renderers by answer kind: one line per kind. */
const KIND_FORMATS: Record<string, Partial<Record<FormatName, Renderer>>> = {
  review: REVIEW_FORMATS,
};

/**
 * The answer kind of a run: `review` for review runs (`reviewKind` "review" or
 * "adversarial-review"), else the run's own kind name.
 */
export function answerKindOf(record: Pick<RunRecord, "reviewKind">): string {
  return record.reviewKind === "adversarial-review" ? "review" : record.reviewKind;
}

/**
 * The renderer of a format: it renders each run with the renderer of the run's answer kind.
 *
 * @param name a format name
 * @throws {UsageError} for an unknown name, listing the valid ones; the renderer throws a
 *   UsageError for a run whose kind has no such format
 */
export function getRenderer(name: string): Renderer {
  if (!Object.hasOwn(REVIEW_FORMATS, name)) {
    throw new UsageError(`Unknown format "${name}": choose one of ${FORMAT_NAMES.join(", ")}`);
  }
  const format = name as FormatName;
  return (input, options) => {
    const kind = answerKindOf(input.record);
    const render = KIND_FORMATS[kind]?.[format];
    if (!render) {
      throw new UsageError(`The ${format} format cannot show a "${kind}" run`);
    }
    return render(input, options);
  };
}
