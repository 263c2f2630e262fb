/**
 * The output flags every command that renders a review shares: `--format NAME` (repeatable; a
 * registered format, lib/formats/names.ts) each optionally followed by `--output FILE`, paired in
 * argv order. Writing them is lib/cli/write_outputs.ts, loaded when a command runs.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { FORMAT_NAMES, type FormatName } from "../formats/names.ts";

/** One requested output: a format and where it goes (stdout when `output` is absent). */
export interface OutputRequest {
  format: string;
  output?: string;
}

/** `--format` and `--output` as the parser gives them: every value, in argv order. */
export type OutputFlags = {
  format?: readonly FormatName[];
  output?: readonly string[];
};

/** The parser's definitions of `--format` and `--output` (both repeatable). */
export const OUTPUT_FLAGS = {
  format: {
    kind: "enum",
    values: FORMAT_NAMES,
    variadic: true,
    optional: true,
    placeholder: "name",
    brief: "output format; repeat for several",
  },
  output: {
    kind: "parsed",
    parse: String,
    variadic: true,
    optional: true,
    placeholder: "file",
    brief: "write the --format just before it to this file, not stdout",
  },
} as const;

/**
 * Which of `--format` and `--output` came first, second, …: the parser keeps each flag's values in
 * argv order but not the order between the two flags. Before `--`, a word naming a flag is always
 * that flag for the parser (never another flag's value), so the words tell the order exactly.
 */
function flagOrder(args: readonly string[]): ("format" | "output")[] {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).flatMap((arg) => {
    const name = /^--(format|output)(=|$)/.exec(arg)?.[1];
    return name === "format" || name === "output" ? [name] : [];
  });
}

/**
 * Pair the parsed `--format`/`--output` values in argv order.
 *
 * @param flags the parsed values (any command's format names: `review`'s, `eval`'s)
 * @param args the argv they were parsed from
 * @param fallback the request when no `--format` was given
 * @param json `--json` was given (JSON on stdout): with `--format`s that all have an `--output` it
 *   is one more request, never dropped; with a `--format` on stdout it is refused
 * @throws {UsageError} `--output` before any `--format` or twice for one, two formats on stdout
 *   (`--json` counting as `--format json`)
 */
export function outputRequests(
  flags: { format?: readonly string[]; output?: readonly string[] },
  args: readonly string[],
  fallback: OutputRequest,
  json = false,
): OutputRequest[] {
  const formats = [...flags.format ?? []];
  const outputs = [...flags.output ?? []];
  const requests: OutputRequest[] = [];
  for (const name of flagOrder(args)) {
    if (name === "format") {
      requests.push({ format: formats.shift() ?? "" });
      continue;
    }
    const value = outputs.shift() ?? "";
    const last = requests.at(-1);
    if (!last) throw new UsageError(`--output ${value} must follow the --format it is for`);
    if (last.output !== undefined) {
      throw new UsageError(`--format ${last.format} has two --output files`);
    }
    last.output = value;
  }
  const out = requests.length > 0 ? requests : [fallback];
  if (json && requests.length > 0) {
    const stdout = requests.find((r) => r.output === undefined);
    if (stdout && stdout.format !== "json") {
      throw new UsageError(
        `--json prints the review as JSON on stdout, where --format ${stdout.format} goes too: ` +
          `drop --json, or give --format ${stdout.format} an --output FILE`,
      );
    }
    if (!stdout) out.push({ format: "json" });
  }
  const onStdout = out.filter((r) => r.output === undefined).map((r) => r.format);
  if (onStdout.length > 1) {
    throw new UsageError(
      `Only one format can go to stdout (${onStdout.join(", ")}): give the others --output FILE`,
    );
  }
  return out;
}
