/**
 * The output flags every command that renders a review shares: `--format NAME` (repeatable; a
 * registered format, lib/formats/names.ts) each optionally followed by `--output FILE`, paired in
 * argv order. Writing them is lib/cli/write_outputs.ts, loaded when a command runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { UsageError } from "../base/errors.ts";
import { FORMAT_NAMES } from "../formats/names.ts";

/** One requested output: a format and where it goes (stdout when `output` is absent). */
export interface OutputRequest {
  format: string;
  output?: string;
}

/**
 * Add `--format` and `--output` to a command and pair them in argv order.
 *
 * @param command the command
 * @returns a function giving the requests once argv is parsed (`fallback` when none was given)
 * @throws {UsageError} from that function: `--output` before any `--format` or twice for one,
 *   two formats on stdout
 */
export function addOutputOptions(
  command: Command,
): (fallback: OutputRequest) => OutputRequest[] {
  const requests: OutputRequest[] = [];
  const problems: string[] = [];
  command
    .addOption(
      new Option("--format <name>", "output format; repeat for several").choices(FORMAT_NAMES),
    )
    .option("--output <file>", "write the --format just before it to this file, not stdout");
  command.on("option:format", (value: string) => requests.push({ format: value }));
  command.on("option:output", (value: string) => {
    const last = requests.at(-1);
    if (!last) problems.push(`--output ${value} must follow the --format it is for`);
    else if (last.output !== undefined) {
      problems.push(`--format ${last.format} has two --output files`);
    } else last.output = value;
  });
  return (fallback) => {
    if (problems.length > 0) throw new UsageError(problems[0]);
    const out = requests.length > 0 ? requests : [fallback];
    const onStdout = out.filter((r) => r.output === undefined).map((r) => r.format);
    if (onStdout.length > 1) {
      throw new UsageError(
        `Only one format can go to stdout (${onStdout.join(", ")}): give the others --output FILE`,
      );
    }
    return out;
  };
}
