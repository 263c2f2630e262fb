/**
 * The command-line options of the answer kinds (lib/kinds/definition.ts `cli`): each kind that
 * takes an input brings the option naming it (compliance: `--plan <file>`) and its switches
 * (`--fail-on-missing`); `review` and `decode` add them all, so a new kind needs no change here.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { UsageError } from "../base/errors.ts";
import { type AnswerKind, getKind, listKinds } from "../kinds/registry.ts";

/** The answer kind chosen on the command line, with its input and switches. */
export interface ChosenKind {
  answerKind: AnswerKind;
  /** The input the kind's option named, loaded; `undefined` for a review. */
  kindInput?: unknown;
  /** Switches given, by name. */
  switches: ReadonlySet<string>;
}

interface KindFlag {
  kind: AnswerKind;
  option: Option;
  switches: { option: Option; name: string }[];
}

function kindFlags(): KindFlag[] {
  return listKinds().flatMap((kind) => {
    const cli = getKind(kind).cli;
    if (!cli) return [];
    return [{
      kind,
      option: new Option(cli.inputOption.flags, cli.inputOption.description),
      switches: cli.switches.map((s) => ({
        option: new Option(s.flags, s.description),
        name: s.name,
      })),
    }];
  });
}

/**
 * Add every kind's input option and switches to a command.
 *
 * @param command the `review` or `decode` command
 * @returns the command
 */
export function addKindOptions(command: Command): Command {
  for (const flag of kindFlags()) {
    command.addOption(flag.option);
    for (const s of flag.switches) command.addOption(s.option);
  }
  return command;
}

/**
 * The kind the parsed flags choose (default "review"), its input loaded.
 *
 * @param flags commander's parsed options
 * @param cwd where relative input paths are taken from
 * @throws {UsageError} two kinds' options together, a switch without its kind's option, or the
 *   kind's input cannot be loaded
 */
export async function chooseKind(flags: Record<string, unknown>, cwd: string): Promise<ChosenKind> {
  const flagsOf = kindFlags();
  const given = flagsOf.filter((f) => flags[f.option.attributeName()] !== undefined);
  if (given.length > 1) {
    throw new UsageError(
      `Choose one answer kind: ${given.map((f) => f.option.long).join(", ")} cannot be combined`,
    );
  }
  for (const flag of flagsOf) {
    for (const s of flag.switches) {
      if (flags[s.option.attributeName()] && !given.includes(flag)) {
        throw new UsageError(`${s.option.long} only applies with ${flag.option.long}`);
      }
    }
  }
  const chosen = given[0];
  if (!chosen) return { answerKind: "review", switches: new Set() };
  const value = String(flags[chosen.option.attributeName()]);
  return {
    answerKind: chosen.kind,
    kindInput: await getKind(chosen.kind).cli!.loadInput(value, cwd),
    switches: new Set(
      chosen.switches.filter((s) => flags[s.option.attributeName()] === true).map((s) => s.name),
    ),
  };
}

/** The long flags of every kind's input option, e.g. `["--plan"]` (for help and messages). */
export function kindInputFlags(): string[] {
  return kindFlags().map((f) => f.option.long ?? f.option.flags);
}
