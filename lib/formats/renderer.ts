/**
 * The one signature of every output format (docs/design.md "Output formats"): a pure function of
 * the finished review and how to render it, giving text that ends in a newline. A format that can
 * also show another answer kind's run has a frame with the same two arguments plus that kind's own
 * renderers (lib/kinds/definition.ts). lib/formats/registry.ts maps each format's name to the two.
 *
 * @module
 */
import type { KindRenderers } from "../kinds/definition.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { ReviewResult } from "../store/run_record.ts";
import type { Paint } from "./style.ts";

/**
 * What a renderer is given: the finished review and how it ended. `A` is the answer's type: a
 * review answer for the review renderers; any kind's for a {@linkcode KindFrame}.
 */
export interface RenderInput<A = ReviewAnswer> extends ReviewResult<A> {
  /** The run's exit code (lib/review/exit_code.ts). */
  exitCode: number;
  /** The last attempt's raw output, for runs that could not run. */
  rawOutput?: { stdout: string; stderr: string };
}

/** How to render; a format reads the options it has a use for. */
export interface RenderOptions {
  /** Marks blocking findings. */
  policy: Policy;
  /** Colours (the terminal format); plain text when absent. */
  paint?: Paint;
  /**
   * Prefix that makes repository-relative paths relative to the CI workspace (the github format's
   * workflow commands), e.g. `app/` for a repository checked out in a sub-folder; default none.
   */
  pathPrefix?: string;
}

/** A renderer: text for one finished review, ending in a newline. */
export type Renderer = (input: RenderInput, options: RenderOptions) => string;

/**
 * A format's frame around another answer kind's own renderers: the same text a {@linkcode Renderer}
 * gives, for a run of that kind.
 *
 * @throws {UsageError} when the frame cannot show this run (e.g. markdown of a run with no answer)
 */
export type KindFrame = (
  input: RenderInput<unknown>,
  options: RenderOptions,
  render: KindRenderers,
) => string;

/**
 * A renderer of a run of any answer kind (what lib/formats/registry.ts `getRenderer` returns):
 * asynchronous, since it loads the definition of the run's kind (lib/kinds/registry.ts).
 */
export type RunRenderer = (input: RenderInput<unknown>, options: RenderOptions) => Promise<string>;
