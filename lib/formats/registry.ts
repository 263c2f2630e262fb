/**
 * Output formats, one line each: a format's name → its renderer (docs/design.md "Output formats").
 * Every renderer is a pure function of the finished review: the run record, the answer
 * when there is one, the exit code and the policy. Adding a format is one new file in this folder
 * plus one line in `REVIEW_FORMATS` and its name in lib/formats/names.ts (what the command line
 * offers without loading a renderer; the compiler checks that the two agree).
 *
 * Renderers are chosen by the run's answer kind (`answerKind`, lib/kinds/registry.ts): `review`
 * runs (plain and adversarial) have every format; another kind brings its own renderers in its
 * definition (lib/kinds/definition.ts), which the formats in `KIND_FRAMES` draw inside the same
 * frame as a review's; a format without a frame refuses such a run with a clear message, never
 * renders it as a review.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { KindRenderers } from "../kinds/definition.ts";
import { kindOfRecord } from "../kinds/registry.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { ReviewResult, RunRecord } from "../store/run_record.ts";
import { renderGithub } from "./github.ts";
import { buildJsonEnvelope } from "./json.ts";
import { renderKindMarkdown, renderMarkdownResult } from "./markdown.ts";
import { renderRdjson, renderRdjsonl } from "./rdjson.ts";
import { renderSarif } from "./sarif.ts";
import { FORMAT_NAMES, type FormatName } from "./names.ts";
import type { Paint } from "./style.ts";
import { renderKindTerminal, renderTerminal } from "./terminal.ts";

/**
 * What a renderer is given: the finished review and how it ended. `A` is the answer's type: a
 * review answer for the review renderers; any kind's for {@linkcode getRenderer}'s.
 */
export interface RenderInput<A = ReviewAnswer> extends ReviewResult<A> {
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

/** A renderer of a run of any answer kind (what {@linkcode getRenderer} returns). */
export type RunRenderer = (input: RenderInput<unknown>, options: RenderOptions) => string;

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
} as const satisfies Record<FormatName, Renderer>;

/** A format name (lib/formats/names.ts). */
export type { FormatName };

/** Every format, in registry order (lib/formats/names.ts). */
export { FORMAT_NAMES };

/** The frame of each format that can show another kind's run, around the kind's own renderers. */
const KIND_FRAMES: Partial<
  Record<
    FormatName,
    (render: KindRenderers, input: RenderInput<unknown>, options: RenderOptions) => string
  >
> = {
  terminal: (render, input, options) =>
    renderKindTerminal(
      input,
      (context) => render.terminal(input.record, input.answer, context),
      { paint: options.paint },
    ),
  json: (render, input, options) =>
    JSON.stringify(
      buildJsonEnvelope(input, {
        exitCode: input.exitCode,
        policy: options.policy,
        rawOutput: input.rawOutput,
        kindFields: input.answer === undefined ? {} : render.json(input.record, input.answer),
      }),
      null,
      2,
    ) + "\n",
  markdown: (render, input) => {
    if (input.answer === undefined) {
      throw new UsageError(
        `The markdown format needs a review that produced an answer (this one is ${input.record.status})`,
      );
    }
    return renderKindMarkdown(input.record, render.markdown(input.record, input.answer));
  },
};

/** The answer kind of a run: its `answerKind`; records from before kinds existed are reviews. */
export function answerKindOf(record: Pick<RunRecord, "answerKind">): string {
  return record.answerKind ?? "review";
}

/**
 * The renderer of a format: it renders each run with the renderer of the run's answer kind.
 *
 * @param name a format name
 * @throws {UsageError} for an unknown name, listing the valid ones; the renderer throws a
 *   UsageError for a run of a kind this version does not know, or one the format cannot show
 */
export function getRenderer(name: string): RunRenderer {
  const format = formatName(name);
  return (input, options) => {
    const kind = kindOfRecord(input.record.answerKind);
    if (kind === undefined) {
      throw new UsageError(
        `Cannot show a run of the answer kind "${
          answerKindOf(input.record)
        }": this review-gate does not know it`,
      );
    }
    if (kind.render === undefined) return REVIEW_FORMATS[format](input as RenderInput, options);
    return frameFor(format, kind.name)(kind.render, input, options);
  };
}

/**
 * Refuse, before anything runs, an output format that cannot show a run of this answer kind (a
 * `--format sarif` on a `--plan` review), so no model call is made for an output that cannot be
 * written and no background job is started that can only fail.
 *
 * @param name a `--format` value
 * @param kindName the run's answer kind, e.g. `"compliance"`
 * @throws UsageError (exit 2) for an unknown format, or one the kind's runs cannot be shown in
 */
export function checkFormatShows(name: string, kindName: string): void {
  const format = formatName(name);
  const kind = kindOfRecord(kindName);
  if (kind?.render !== undefined) frameFor(format, kind.name);
}

function formatName(name: string): FormatName {
  if (!Object.hasOwn(REVIEW_FORMATS, name)) {
    throw new UsageError(`Unknown format "${name}": choose one of ${FORMAT_NAMES.join(", ")}`);
  }
  return name as FormatName;
}

function frameFor(format: FormatName, kindName: string) {
  const frame = KIND_FRAMES[format];
  if (frame === undefined) {
    throw new UsageError(
      `The ${format} format cannot show a "${kindName}" run: use ${
        Object.keys(KIND_FRAMES).join(", ")
      }`,
    );
  }
  return frame;
}
