/**
 * The command-line options of the answer kinds (lib/kinds/definition.ts `cli`): each kind that
 * takes an input brings the option naming it (compliance: `--plan <file>`) and its switches
 * (`--fail-on-missing`); `review` and `decode` add them all, so a new kind needs no change here.
 * They come from lib/kinds/cli.ts, so defining the flags loads none of the kinds' code.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { AnswerKind } from "../kinds/registry.ts";
import { KIND_CLIS } from "../kinds/cli.ts";
import type { KindCli } from "../kinds/definition.ts";
import { internalName } from "./command.ts";

/** The answer kind chosen on the command line, with its input and switches. */
export interface ChosenKind {
  answerKind: AnswerKind;
  /** The input the kind's option named, loaded; `undefined` for a review. */
  kindInput?: unknown;
  /** Switches given, by name. */
  switches: ReadonlySet<string>;
}

/** The parsed values of the kinds' flags, by internal name (`plan`, `failOnMissing`). */
export type KindFlagValues = Readonly<Record<string, string | boolean | undefined>>;

interface KindFlag {
  kind: AnswerKind;
  /** The input option's flag (`--plan`) and its internal name (`plan`). */
  flag: string;
  key: string;
  switches: { flag: string; key: string; name: string }[];
}

/** Every kind's command-line options, in registry order. */
function kindClis(): [AnswerKind, KindCli][] {
  return Object.entries(KIND_CLIS) as [AnswerKind, KindCli][];
}

function kindFlags(): KindFlag[] {
  return kindClis().map(([kind, cli]) => {
    const flag = cli.inputOption.flag;
    return {
      kind,
      flag,
      key: internalName(flag),
      switches: cli.switches.map((s) => ({
        flag: s.flag,
        key: internalName(s.flag),
        name: s.name,
      })),
    };
  });
}

/** A kind's input option or switch, as the parser defines it. */
export type KindFlagDefinition =
  | { kind: "parsed"; parse: StringConstructor; optional: true; placeholder: string; brief: string }
  | { kind: "boolean"; optional: true; withNegated: false; brief: string };

/**
 * The parser's definitions of every kind's input option and switches, by internal name.
 *
 * @returns e.g. `{ plan: {…}, failOnMissing: {…} }`
 */
export function kindFlagDefinitions(): Record<string, KindFlagDefinition> {
  const out: Record<string, KindFlagDefinition> = {};
  for (const [, cli] of kindClis()) {
    const { flag, placeholder, description } = cli.inputOption;
    out[internalName(flag)] = {
      kind: "parsed",
      parse: String,
      optional: true,
      placeholder,
      brief: description,
    };
    for (const s of cli.switches) {
      out[internalName(s.flag)] = {
        kind: "boolean",
        optional: true,
        withNegated: false,
        brief: s.description,
      };
    }
  }
  return out;
}

/**
 * The kind the parsed flags choose (default "review"), its input loaded.
 *
 * @param flags the parsed flags (the kinds' by internal name, among others)
 * @param cwd where relative input paths are taken from
 * @throws {UsageError} two kinds' options together, a switch without its kind's option, or the
 *   kind's input cannot be loaded
 */
export async function chooseKind(flags: KindFlagValues, cwd: string): Promise<ChosenKind> {
  const flagsOf = kindFlags();
  const given = flagsOf.filter((f) => flags[f.key] !== undefined);
  if (given.length > 1) {
    throw new UsageError(
      `Choose one answer kind: ${given.map((f) => f.flag).join(", ")} cannot be combined`,
    );
  }
  for (const flag of flagsOf) {
    for (const s of flag.switches) {
      if (flags[s.key] && !given.includes(flag)) {
        throw new UsageError(`${s.flag} only applies with ${flag.flag}`);
      }
    }
  }
  const chosen = given[0];
  if (!chosen) return { answerKind: "review", switches: new Set() };
  const value = String(flags[chosen.key]);
  return {
    answerKind: chosen.kind,
    kindInput: await KIND_CLIS[chosen.kind]!.loadInput(value, cwd),
    switches: new Set(
      chosen.switches.filter((s) => flags[s.key] === true).map((s) => s.name),
    ),
  };
}
