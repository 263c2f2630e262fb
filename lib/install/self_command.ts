/**
 * The shell command that runs this very review-gate, as written into hook stubs and Claude Code
 * settings (docs/design.md "Installer"). A compiled binary is named by its absolute path; a
 * `deno run` of `main.ts` becomes `'<deno>' run --allow-… '<main.ts>'`. Every word is single-quoted
 * so paths with spaces, quotes or `$` survive `sh`.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join } from "../base/path.ts";
import { UsageError } from "../base/errors.ts";
import { RUN_PERMISSIONS } from "../exec/detached.ts";

/** Permissions a hook run needs when review-gate is not compiled (the compiled binary bakes them in). */
export const HOOK_RUN_PERMISSIONS = RUN_PERMISSIONS;

/**
 * Quote one word for POSIX `sh`: wrap in single quotes, `'` becomes `'\''`.
 *
 * @param word any string (may be empty)
 * @returns the quoted word, e.g. `'/opt/my tools/review-gate'`
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Where this process runs from: both injected so tests decide. */
export interface SelfCommandOptions {
  /** `Deno.execPath()`: the deno binary, or the compiled review-gate binary. Absolute. */
  execPath: string;
  /** Absolute path of `main.ts` (only used when `execPath` is deno). */
  mainPath?: string;
  /** The npm command that started this run (lib/install/npm_launcher.ts): named instead. */
  launcher?: string;
}

/**
 * Decide the command line that starts review-gate from a hook.
 *
 * Started by the npm command: `'<launcher>'`. Compiled (`execPath` is not named `deno`):
 * `'<execPath>'`. Otherwise:
 * `'<deno>' run --allow-read --allow-write --allow-env --allow-run '<mainPath>'`.
 *
 * @param options execPath and mainPath, both absolute
 * @returns a shell command prefix; append the subcommand words (`hook pre-push "$@"`)
 * @throws {UsageError} when a path is relative, or `mainPath` is missing for a `deno run`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(selfCommand({ execPath: "/opt/bin/review-gate" }), "'/opt/bin/review-gate'");
 * ```
 */
export function selfCommand(options: SelfCommandOptions): string {
  const { execPath, mainPath, launcher } = options;
  if (launcher !== undefined && isAbsolute(launcher)) return shellQuote(launcher);
  if (!isAbsolute(execPath)) {
    throw new UsageError(
      `Cannot use the relative executable path "${execPath}" in a hook: run review-gate by an absolute path`,
    );
  }
  const name = basename(execPath).toLowerCase();
  if (name !== "deno" && name !== "deno.exe") return shellQuote(execPath);
  if (mainPath === undefined || !isAbsolute(mainPath)) {
    throw new UsageError(
      `Cannot find review-gate's "main.ts" (got "${
        mainPath ?? ""
      }"): run it from a local checkout or use the compiled binary`,
    );
  }
  return [shellQuote(execPath), "run", ...HOOK_RUN_PERMISSIONS, shellQuote(mainPath)].join(" ");
}

/**
 * The shell words that put the Stop hook script (`hooks/turn-stop.sh` beside `main.ts`: it allows
 * an unchanged turn without starting Deno) in front of the Stop hook's command.
 *
 * @param options as for {@linkcode selfCommand}
 * @returns `sh '<checkout>/hooks/turn-stop.sh'`, or `undefined` for a compiled binary (no script
 *   on disk: the Stop hook then runs the binary itself)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   stopScriptPrefix({ execPath: "/usr/bin/deno", mainPath: "/opt/rg/main.ts" }),
 *   "sh '/opt/rg/hooks/turn-stop.sh'",
 * );
 * ```
 */
export function stopScriptPrefix(options: SelfCommandOptions): string | undefined {
  return hookScript(options, "turn-stop.sh");
}

/**
 * The shell words that run the skip record's script (`hooks/pre-push-skip.sh` beside `main.ts`),
 * which review-gate's line in a hook file it does not own (husky's `.husky/pre-push`) runs when
 * `REVIEW_GATE=0` skips the review (README "Skips").
 *
 * @param options as for {@linkcode selfCommand}
 * @returns `sh '<checkout>/hooks/pre-push-skip.sh'`, or `undefined` for a compiled binary (no
 *   script on disk: the line then records no skip)
 */
export function pushSkipScript(options: SelfCommandOptions): string | undefined {
  return hookScript(options, "pre-push-skip.sh");
}

/** `sh '<dir of main.ts>/hooks/<name>'` when review-gate runs as `deno run main.ts`. */
function hookScript(options: SelfCommandOptions, name: string): string | undefined {
  const exec = basename(options.execPath).toLowerCase();
  if (exec !== "deno" && exec !== "deno.exe") return undefined;
  if (!options.mainPath || !isAbsolute(options.mainPath)) return undefined;
  return `sh ${shellQuote(join(dirname(options.mainPath), "hooks", name))}`;
}
