/**
 * `review-gate decode <file|->`: judge any JSON answer with the decoder, exactly as a provider's
 * answer is judged (parse → schema → coherence against the current repository's worktree). Prints
 * the normalised answer and exits 0, or prints the refusal lines and exits 3. This file defines the
 * command; its work, lib/cli/decode_action.ts, loads when it runs.
 *
 * @module
 */
import { KIND_NAMES, type KindName } from "../kinds/names.ts";
import { kindFlagDefinitions } from "./kind_options.ts";
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";

const BRIEF = "Judge a JSON answer with the decoder (exit 0 accepted, 3 refused)";

/** What `decode --help` prints after the description. */
const DECODE_HELP = `
File paths in findings are checked against the working tree of the repository around the current
directory (or the current directory itself outside a repository). A compliance answer needs the
plan it answers: --kind compliance --plan PLAN.md.`;

/** `decode`. */
export const decodeRoutes: CommandRoutes = {
  decode: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + DECODE_HELP },
    parameters: {
      flags: {
        kind: {
          kind: "enum",
          values: KIND_NAMES,
          default: "review",
          placeholder: "kind",
          brief: "answer kind",
        },
        json: flag("print {ok, answer | refusal} as JSON"),
        ...kindFlagDefinitions(),
      },
      positional: {
        kind: "tuple",
        parameters: [{
          placeholder: "file",
          brief: 'answer file, or "-" for stdin',
          parse: String,
        }],
      },
    },
    async func(this: CliContext, flags: { kind: KindName; json?: boolean }, file: string) {
      await (await import("./decode_action.ts")).decodeAction(
        file,
        flags,
        this.deps,
        (code) => this.setExit(code),
      );
    },
  }),
};
