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
 * A format's module loads when its renderer is asked for ({@linkcode getRenderer} is async): a
 * review loads the terminal renderer and the markdown of review.md, not the five others
 * (docs/design.md "Performance notes": code loads where it is used).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { kindOfRecord } from "../kinds/registry.ts";
import type { RunRecord } from "../store/run_record.ts";
import { FORMAT_NAMES, type FormatName } from "./names.ts";
import type { KindFrame, Renderer, RenderInput, RenderOptions, RunRenderer } from "./renderer.ts";

export type { KindFrame, Renderer, RenderInput, RenderOptions, RunRenderer } from "./renderer.ts";

/** A format's renderers: of a review, and (when it can show one) of another answer kind's run. */
interface Renderers {
  review: Renderer;
  kind?: KindFrame;
}

/** A format: whether it has a kind frame (known without loading it), and its renderers' loader. */
interface Format {
  framed: boolean;
  load: () => Promise<Renderers>;
}

/** Every format: its name → its renderers, loaded when asked for. */
const FORMATS: Record<FormatName, Format> = {
  terminal: {
    framed: true,
    load: async () => {
      const m = await import("./terminal.ts");
      return { review: m.renderTerminal, kind: m.renderKindTerminal };
    },
  },
  json: {
    framed: true,
    load: async () => {
      const m = await import("./json.ts");
      return { review: m.renderJson, kind: m.renderKindJson };
    },
  },
  markdown: {
    framed: true,
    load: async () => {
      const m = await import("./markdown.ts");
      return { review: m.renderMarkdownResult, kind: m.renderKindMarkdown };
    },
  },
  sarif: {
    framed: false,
    load: async () => ({ review: (await import("./sarif.ts")).renderSarif }),
  },
  rdjson: {
    framed: false,
    load: async () => ({ review: (await import("./rdjson.ts")).renderRdjson }),
  },
  rdjsonl: {
    framed: false,
    load: async () => ({ review: (await import("./rdjson.ts")).renderRdjsonl }),
  },
  github: {
    framed: false,
    load: async () => ({ review: (await import("./github.ts")).renderGithub }),
  },
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
 * The renderer of a format, its module loaded: it renders each run with the renderer of the run's
 * answer kind.
 *
 * @param name a format name
 * @returns the renderer (pure; it resolves once the definition of the run's answer kind has
 *   loaded: a review's run loads no other kind's code)
 * @throws {UsageError} (rejects) for an unknown name, listing the valid ones; the renderer throws a
 *   UsageError for a run of a kind this version does not know, or one the format cannot show
 */
export async function getRenderer(name: string): Promise<RunRenderer> {
  const format = formatName(name);
  const renderers = await FORMATS[format].load();
  return async (input, options) => {
    const kind = await kindOfRecord(input.record.answerKind);
    if (kind === undefined) {
      throw new UsageError(
        `Cannot show a run of the answer kind "${
          answerKindOf(input.record)
        }": this review-gate does not know it`,
      );
    }
    if (kind.render === undefined) return renderers.review(input as RenderInput, options);
    frameFor(format, kind.name);
    return renderers.kind!(input, options, kind.render);
  };
}

/**
 * The renderer of a format giving its text in pieces, joined the same as {@linkcode getRenderer}'s:
 * the json format's envelope (~12 MB for a 1M-line change, whose coverage names every omitted hunk)
 * comes piece by piece (lib/formats/json.ts `renderJsonPieces`); every other format's text is one
 * piece.
 *
 * @param name a format name
 * @throws {UsageError} (rejects) as {@linkcode getRenderer}
 */
export async function getPiecesRenderer(
  name: string,
): Promise<(input: RenderInput<unknown>, options: RenderOptions) => Promise<Iterable<string>>> {
  const render = await getRenderer(name);
  if (formatName(name) !== "json") return async (input, options) => [await render(input, options)];
  const { renderJsonPieces } = await import("./json.ts");
  return async (input, options) => {
    const kind = await kindOfRecord(input.record.answerKind);
    // an unknown kind: the renderer throws what it throws for it
    if (kind === undefined) return [await render(input, options)];
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
 * @throws UsageError (exit 2; rejects) for an unknown format, or one the kind's runs cannot be
 *   shown in
 */
export async function checkFormatShows(name: string, kindName: string): Promise<void> {
  const format = formatName(name);
  const kind = await kindOfRecord(kindName);
  if (kind?.render !== undefined) frameFor(format, kind.name);
}

/** Refuse a kind's run in a format without a frame for it (UsageError naming those that have one). */

function formatName(name: string): FormatName {
  if (!Object.hasOwn(FORMATS, name)) {
    throw new UsageError(`Unknown format "${name}": choose one of ${FORMAT_NAMES.join(", ")}`);
  }
  return name as FormatName;
}
/** Refuse a kind's run in a format without a frame for it (UsageError naming those that have one). */
function frameFor(format: FormatName, kindName: string): void {
  if (!FORMATS[format].framed) {
    const framed = FORMAT_NAMES.filter((name) => FORMATS[name].framed);
    throw new UsageError(
      `The ${format} format cannot show a "${kindName}" run: use ${framed.join(", ")}`,
    );
  }
}
