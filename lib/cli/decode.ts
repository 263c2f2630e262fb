/**
 * `review-gate decode <file|->`: judge any JSON answer with the decoder, exactly as a provider's
 * answer is judged (parse → schema → coherence against the current repository's worktree). Prints
 * the normalised answer and exits 0, or prints the refusal lines and exits 3.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { resolve } from "node:path";
import { formatRefusal } from "../answer/refusal.ts";
import { type AnswerKind, getKind, listKinds } from "../kinds/registry.ts";
import { addKindOptions, chooseKind } from "./kind_options.ts";
import { ExitCode, UsageError } from "../base/errors.ts";
import { resolveRepo } from "../git/repo.ts";
import { worktreeView } from "../git/tree_view.ts";
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
    .action(async (file: string, flags: { kind: AnswerKind; json?: boolean }) => {
      const chosen = await chooseKind(flags as unknown as Record<string, unknown>, deps.cwd);
      // an input option implies its kind (`--plan` → compliance)
      const name = chosen.answerKind === "review" ? flags.kind : chosen.answerKind;
      if (flags.kind !== "review" && flags.kind !== name) {
        throw new UsageError(`--kind ${flags.kind} does not take the input of a ${name} answer`);
      }
      const kind = getKind(name);
      if (kind.cli && chosen.kindInput === undefined) {
        throw new UsageError(
          `A ${name} answer is judged against its input: add ${kind.cli.inputOption.flags}`,
        );
      }
      let bytes: Uint8Array;
      if (file === "-") bytes = await deps.readStdin();
      else {
        try {
          bytes = await Deno.readFile(resolve(deps.cwd, file));
        } catch (error) {
          throw new UsageError(`Cannot read "${file}": ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
      const root = await resolveRepo(deps.runner, deps.cwd).then(
        (r) => r.root,
        () => resolve(deps.cwd),
      );
      const { decode } = await import("../answer/decoder.ts");
      const text = new TextDecoder().decode(bytes);
      const decision = await decode(
        kind.decoder(chosen.kindInput),
        { text },
        worktreeView(root, { deleted: new Set() }),
      );
      if (flags.json) {
        deps.stdout.write(JSON.stringify(decision, null, 2) + "\n");
      } else if (decision.ok) {
        deps.stdout.write(JSON.stringify(decision.answer, null, 2) + "\n");
        for (const note of decision.notes) deps.stderr.write(`note: ${note}\n`);
      } else {
        deps.stdout.write(`Refused:\n${formatRefusal(decision.refusal)}\n`);
      }
      setExit(decision.ok ? ExitCode.ok : ExitCode.couldNotRun);
    });
}
