/**
 * Output formats, one line each: a format's name → its renderers (docs/design.md "Output formats").
 * Every renderer has the one signature of lib/formats/renderer.ts: a pure function of the finished
 * review (the run record, the answer when there is one, the exit code) and the render options (the
 * policy, colours, a path prefix), each format reading the options it has a use for. Adding a
 * format is one new file in this folder plus one line in `FORMATS` and its name in
 * lib/formats/names.ts (what the command line offers without loading a renderer; the compiler
 * checks that the two agree).
 *
 * Renderers are chosen by the run's answer kind (`answerKind`, lib/kinds/registry.ts): `review`
 * runs (plain and adversarial) have every format (`review`); another kind brings its own renderers
 * in its definition (lib/kinds/definition.ts), which a format's `kind` frame draws inside the same
 * frame as a review's; a format without a frame refuses such a run with a clear message, never
 * renders it as a review.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { kindOfRecord } from "../kinds/registry.ts";
import type { RunRecord } from "../store/run_record.ts";
import { renderGithub } from "./github.ts";
import { renderJson, renderJsonPieces, renderKindJson } from "./json.ts";
import { renderKindMarkdown, renderMarkdownResult } from "./markdown.ts";
import { FORMAT_NAMES, type FormatName } from "./names.ts";
import { renderRdjson, renderRdjsonl } from "./rdjson.ts";
import type { KindFrame, Renderer, RenderInput, RenderOptions, RunRenderer } from "./renderer.ts";
import { renderSarif } from "./sarif.ts";
import { renderKindTerminal, renderTerminal } from "./terminal.ts";

export type { KindFrame, Renderer, RenderInput, RenderOptions, RunRenderer } from "./renderer.ts";

/** A format's renderers: of a review, and (when it can show one) of another answer kind's run. */
interface Format {
  review: Renderer;
  kind?: KindFrame;
}

/** Every format: its name → its renderers. */
const FORMATS: Record<FormatName, Format> = {
  terminal: { review: renderTerminal, kind: renderKindTerminal },
  json: { review: renderJson, kind: renderKindJson },
  markdown: { review: renderMarkdownResult, kind: renderKindMarkdown },
  sarif: { review: renderSarif },
  rdjson: { review: renderRdjson },
  rdjsonl: { review: renderRdjsonl },
  github: { review: renderGithub },
};

/** A format name (lib/formats/names.ts). */
export type { FormatName };

/** Every format, in registry order (lib/formats/names.ts). */
export { FORMAT_NAMES };

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
    if (kind.render === undefined) return FORMATS[format].review(input as RenderInput, options);
    return frameFor(format, kind.name)(input, options, kind.render);
  };
}

/**
 * The renderer of a format giving its text in pieces, joined the same as {@linkcode getRenderer}'s:
 * the json format's envelope (~12 MB for a 1M-line change, whose coverage names every omitted hunk)
 * comes piece by piece (lib/formats/json.ts `renderJsonPieces`); every other format's text is one
 * piece.
 *
 * @param name a format name
 * @throws {UsageError} as {@linkcode getRenderer}
 */
export function getPiecesRenderer(
  name: string,
): (input: RenderInput<unknown>, options: RenderOptions) => Iterable<string> {
  const render = getRenderer(name);
  if (formatName(name) !== "json") return (input, options) => [render(input, options)];
  return (input, options) => {
    const kind = kindOfRecord(input.record.answerKind);
    // an unknown kind: the renderer throws what it throws for it
    if (kind === undefined) return [render(input, options)];
    return renderJsonPieces(input, options, kind.render);
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
  if (!Object.hasOwn(FORMATS, name)) {
    throw new UsageError(`Unknown format "${name}": choose one of ${FORMAT_NAMES.join(", ")}`);
  }
  return name as FormatName;
}

function frameFor(format: FormatName, kindName: string): KindFrame {
  const frame = FORMATS[format].kind;
  if (frame === undefined) {
    const framed = FORMAT_NAMES.filter((name) => FORMATS[name].kind !== undefined);
    throw new UsageError(
      `The ${format} format cannot show a "${kindName}" run: use ${framed.join(", ")}`,
    );
  }
  return frame;
}
