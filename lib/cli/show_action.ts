/**
 * The work of `review-gate show`, loaded when it runs (lib/cli/show.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { loadConfig } from "../config/config.ts";
import { checkFormatShows } from "../formats/registry.ts";
import { kindOfRecord } from "../kinds/registry.ts";
import { policyOf } from "../kinds/review/policy.ts";
import { exitCodeFor } from "../review/exit_code.ts";
import { findRun } from "../store/find_run.ts";
import { readAnswer } from "../store/run_dir.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";
import { type OutputFlags, outputRequests } from "./outputs.ts";
import { writeOutputs } from "./write_outputs.ts";

/** `show`'s parsed flags. */
export type ShowFlags = OutputFlags & { json?: boolean };

/**
 * Render a stored run in every requested format.
 *
 * @param id the run id or a unique part of it; `undefined` for the newest finished run
 * @param flags `--format`/`--output` (default: the terminal), `--json`
 * @param at the CLI's I/O and argv (the order of `--format` and `--output`)
 * @returns the run's exit code
 * @throws {import("../base/errors.ts").UsageError} no such run, a format the run's kind has no
 *   renderer for, an output that cannot be written
 */
export async function show(
  id: string | undefined,
  flags: ShowFlags,
  at: { deps: CliDeps; args: readonly string[] },
): Promise<number> {
  const { deps } = at;
  const requests = outputRequests(
    flags,
    at.args,
    { format: flags.json ? "json" : "terminal" },
    flags.json === true,
  );
  const { state, root } = await openJobState(deps);
  const { record, runDir } = await findRun(state, id);
  const answerKind = record.answerKind ?? "review";
  for (const { format } of requests) await checkFormatShows(format, answerKind);
  const kind = await kindOfRecord(record.answerKind);
  const answer = kind ? await readAnswer(runDir, kind.files.answer) : undefined;
  const exitCode = exitCodeFor(record.status, record.blocking);
  const { config } = await loadConfig({ root, env: deps.env });
  await writeOutputs(requests, { record, answer, exitCode }, { policy: policyOf(config), deps });
  return exitCode;
}
