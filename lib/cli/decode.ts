/**
 * `review-gate decode <file|->`: judge any JSON answer with the decoder, exactly as a provider's
 * answer is judged (parse → schema → coherence against the current repository's worktree). Prints
 * the normalised answer and exits 0, or prints the refusal lines and exits 3. This file defines the
 * command; its work, lib/cli/decode_action.ts, loads when it runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { type AnswerKind, listKinds } from "../kinds/registry.ts";
import { addKindOptions } from "./kind_options.ts";
import type { CliDeps } from "./deps.ts";

/** Register `decode` on the program. */
export function registerDecode(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  const command = program.command("decode")
    .description("Judge a JSON answer with the decoder (exit 0 accepted, 3 refused)")
    .argument("<file>", 'answer file, or "-" for stdin')
    .addOption(new Option("--kind <kind>", "answer kind").choices(listKinds()).default("review"))
    .option("--json", "print {ok, answer | refusal} as JSON");
  addKindOptions(command)
    .addHelpText(
      "after",
      `
File paths in findings are checked against the working tree of the repository around the current
directory (or the current directory itself outside a repository). A compliance answer needs the
plan it answers: --kind compliance --plan PLAN.md.`,
    )
    .action(async (file: string, flags: { kind: AnswerKind; json?: boolean }) =>
      await (await import("./decode_action.ts")).decodeAction(file, flags, deps, setExit)
    );
}
