/**
 * Planning review-gate's one line in a hook file it does not own (husky's `.husky/pre-push`, or a
 * foreign `pre-push` that finds itself through `$0` and so cannot be renamed and chained): where the
 * line goes is lib/install/git/placement.ts; a file that cannot take it safely is refused with the
 * reason. Removing the line gives back the file's bytes.
 *
 * @module
 */
import { UsageError } from "../../base/errors.ts";
import { type FileAction, fileMode, lstatOrNull } from "../file_actions.ts";
import { insertOurLine, removeOurLines } from "./placement.ts";
import { renderHookLine } from "./stub.ts";

/** What a line plan gives the installer. */
export interface LinePlan {
  actions: FileAction[];
  notes: string[];
}

/**
 * Read a hook file as UTF-8 text, refusing bytes that are not (a lossy decode would change them
 * when the file is written back).
 *
 * @returns the text, or `null` when the file does not exist
 * @throws {UsageError} when the file cannot be read or is not UTF-8 text
 */
export async function readHookText(path: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && !(await lstatOrNull(path))) return null;
    throw new UsageError(
      `Cannot read "${path}" (${
        (error as Error).message
      }): fix its permissions and run install again`,
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `"${path}" is not UTF-8 text, so review-gate cannot add its line without changing other bytes`,
    );
  }
}

/**
 * Plan adding (or moving up, or refreshing) our line in `file`.
 *
 * @param file the hook file (may not exist: it is created with a shebang and a marker)
 * @param options the command our line runs, and `skip`, what it runs instead under
 *   `REVIEW_GATE=0` (lib/install/git/stub.ts `renderHookLine`); `husky` when the file is
 *   `.husky/pre-push`
 * @returns the write action (none when the file already holds exactly our line in place)
 * @throws {UsageError} when the file is not a shell script or not UTF-8 text, with what to do
 */
export async function planLineInstall(
  file: string,
  options: { command: string; skip?: string; husky: boolean },
): Promise<LinePlan> {
  const current = await readHookText(file);
  const inserted = insertOurLine(current, renderHookLine(options.command, options.skip), options);
  if (!inserted.ok) {
    throw new UsageError(
      `Cannot add review-gate's line to "${file}": ${inserted.reason}. Call review-gate from it yourself, first thing, with git's arguments and stdin (${options.command} hook pre-push "$@"), or replace it with a shell script`,
    );
  }
  if (inserted.text === current) return { actions: [], notes: ["The line is already there."] };
  const info = await lstatOrNull(file);
  const mode = info ? await fileMode(file, 0o755) : 0o755; // a symlink's target's mode
  const why = current === null
    ? "hook file with review-gate's line"
    : "review-gate's line before the file's first command";
  return {
    actions: [{ op: "write", path: file, text: inserted.text, mode, before: current, why }],
    notes: [],
  };
}

/**
 * Plan removing our lines from `file` (deleting it when review-gate created it and nothing else
 * is in it).
 *
 * @returns the action (none when no line of ours is there)
 * @throws {UsageError} when the file exists but cannot be read as UTF-8 text
 */
export async function planLineUninstall(file: string): Promise<LinePlan> {
  const current = await readHookText(file);
  const none = { actions: [], notes: [`No review-gate line in "${file}".`] };
  if (current === null) return none;
  const { text, deleteFile, removed } = removeOurLines(current);
  if (removed === 0) return none;
  const action: FileAction = deleteFile
    ? { op: "remove", path: file, before: current, why: "created by review-gate install" }
    : {
      op: "write",
      path: file,
      text,
      mode: await fileMode(file, 0o644),
      before: current,
      why: "remove review-gate's line",
    };
  return { actions: [action], notes: [] };
}
