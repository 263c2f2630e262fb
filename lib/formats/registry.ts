/**
 * Output formats, one line each: a format's name → its renderer (DESIGN.md "Next capabilities" →
 * Outputs). Every renderer is a pure function of the finished review: the run record, the answer
 * when there is one, the exit code and the policy. Adding a format is one new file in this folder
 * plus one line in `FORMATS`.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewResult } from "../store/run_record.ts";
import { buildJsonEnvelope } from "./json.ts";
import { renderMarkdown } from "./markdown.ts";
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
}

/** A renderer: text for one finished review, ending in a newline. */
export type Renderer = (input: RenderInput, options: RenderOptions) => string;

const FORMATS = {
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
  markdown: (input, options) => {
    if (!input.answer) {
      throw new UsageError(
        `The markdown format needs a review that produced an answer (this one is ${input.record.status})`,
      );
    }
    return renderMarkdown(input.record, input.answer, options.policy);
  },
} as const satisfies Record<string, Renderer>;

/** A format name. */
export type FormatName = keyof typeof FORMATS;

/** Every format, in registry order. */
export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

/**
 * The renderer of a format.
 *
 * @param name a format name
 * @throws {UsageError} for an unknown name, listing the valid ones
 */
export function getRenderer(name: string): Renderer {
  if (!Object.hasOwn(FORMATS, name)) {
    throw new UsageError(`Unknown format "${name}": choose one of ${FORMAT_NAMES.join(", ")}`);
  }
  return FORMATS[name as FormatName];
}
