/**
 * The work of `review-gate decode` (lib/cli/decode.ts defines the command and loads this when it
 * runs): judge a JSON answer with the decoder as a provider's answer is judged.
 *
 * @module
 */
import { resolve } from "../base/path.ts";
import { formatRefusal } from "../answer/refusal.ts";
import { type AnswerKind, getKind } from "../kinds/registry.ts";
import { chooseKind, type KindFlagValues } from "./kind_options.ts";
import { ExitCode, UsageError } from "../base/errors.ts";
import { resolveRepo } from "../git/repo.ts";
import { worktreeView } from "../git/tree_view.ts";
import type { CliDeps } from "./deps.ts";

/**
 * `decode`: judge the answer in `file` ("-" for stdin) and print it, or its refusal; sets the exit
 * code (0 accepted, 3 refused).
 *
 * @throws {UsageError} options that do not go together, an input that cannot be read
 */
export async function decodeAction(
  file: string,
  flags: { kind: AnswerKind; json?: boolean },
  deps: CliDeps,
  setExit: (code: number) => void,
): Promise<void> {
  const chosen = await chooseKind(flags as unknown as KindFlagValues, deps.cwd);
  // an input option implies its kind (`--plan` → compliance)
  const name = chosen.answerKind === "review" ? flags.kind : chosen.answerKind;
  if (flags.kind !== "review" && flags.kind !== name) {
    throw new UsageError(`--kind ${flags.kind} does not take the input of a ${name} answer`);
  }
  const kind = await getKind(name);
  if (kind.cli && chosen.kindInput === undefined) {
    throw new UsageError(
      `A ${name} answer is judged against its input: add ${kind.cli.inputOption.flag} <${kind.cli.inputOption.placeholder}>`,
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
}
