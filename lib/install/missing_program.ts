/**
 * Whether an installed hook command can still start: the absolute paths its single-quoted words
 * name (the compiled binary, or deno, `main.ts` and `hooks/turn-stop.sh`, as
 * lib/install/self_command.ts writes them) must exist. A checkout moved or deleted after
 * `install` leaves hooks that fail at every push or stop; `doctor` says so instead of "ok".
 *
 * @module
 */
import { isAbsolute } from "../base/path.ts";
import { statOrNull } from "./file_actions.ts";

/**
 * The first absolute path a hook command names in single quotes that does not exist.
 *
 * @param command the hook's shell command (a stub line or a settings `command`)
 * @returns the missing path, or `null` when every named path exists (or none is named)
 */
export async function missingProgramPath(command: string): Promise<string | null> {
  const words = command.match(/(?:'[^']*'|\\')+/g) ?? [];
  for (const word of words) {
    const value = word.replace(/'([^']*)'/g, "$1").replaceAll("\\'", "'");
    if (!isAbsolute(value) || value.startsWith("/dev/")) continue;
    if (!(await statOrNull(value).catch(() => null))) return value;
  }
  return null;
}

/**
 * The sentence `doctor` shows for a hook whose program is gone.
 *
 * @param path the missing path from {@linkcode missingProgramPath}
 * @param what what fails, e.g. "every push" or "every Claude Code turn"
 * @param reinstall the command that installs the hook again
 */
export function missingProgramText(path: string, what: string, reinstall: string): string {
  return `the hook runs "${path}", which does not exist: ${what} will fail until you run "${reinstall}" again from where review-gate is now`;
}
