/**
 * Whether git will really run review-gate's pre-push review (for `doctor`): not "is our marker in
 * a file" but "is it where git runs hooks from, executable, reached, and does the program it names
 * still exist". For a line in a file we do not own (husky, inline) reached means only lines that
 * provably fall through come before it (lib/install/git/placement.ts); husky 9 also needs its
 * dispatcher `.husky/_/pre-push`. Our own stub is reached by construction: a chained foreign hook
 * runs as its own process and cannot skip it.
 *
 * @module
 */
import { basename, join } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import { readTextOrNull, statOrNull } from "../file_actions.ts";
import { missingProgramPath, missingProgramText } from "../missing_program.ts";
import { huskyDirOf, resolveHooksDir } from "./hooks_dir.ts";
import { ourLineReachable } from "./placement.ts";
import { isManaged, isOurStub } from "./stub.ts";

/** The pre-push hook as git will run it. */
export interface PrePushStatus {
  /** Absolute directory git runs hooks from. */
  hooksDir: string;
  /** The file holding our stub or line (`.husky/pre-push` for husky). */
  path: string;
  /** Our stub or line is in that file. */
  installed: boolean;
  /** Installed and git will run it (false when not installed). */
  runs: boolean;
  /** One sentence: where, or why it will not run and what to do. */
  detail: string;
}

const REINSTALL = 'run "review-gate install --git" again';

/**
 * Inspect the pre-push hook git would run for the repository around `cwd`.
 *
 * @returns the status; never throws for a missing or unreadable file
 * @throws {import("../../base/errors.ts").GitError} outside a repository
 */
export async function prePushStatus(runner: Runner, cwd: string): Promise<PrePushStatus> {
  const hooksDir = await resolveHooksDir(runner, cwd);
  const husky = huskyDirOf(hooksDir);
  const path = husky ? join(husky, "pre-push") : join(hooksDir, "pre-push");
  const text = await readTextOrNull(path);
  const base = { hooksDir, path };
  if (typeof text !== "string" || !isManaged(text)) {
    return {
      ...base,
      installed: false,
      runs: false,
      detail: `not installed (git runs hooks from "${hooksDir}")`,
    };
  }
  const problem = husky
    ? await huskyProblem(hooksDir, path, text)
    : await hookFileProblem(path, text);
  const missing = problem ?? await missingProgram(text);
  return missing
    ? { ...base, installed: true, runs: false, detail: missing }
    : { ...base, installed: true, runs: true, detail: `installed and reached (${path})` };
}

async function executable(path: string): Promise<boolean> {
  const info = await statOrNull(path).catch(() => null);
  return info !== null && info.isFile && ((info.mode ?? 0) & 0o111) !== 0;
}

function unreachable(path: string, text: string, husky: boolean): string | null {
  const reach = ourLineReachable(text, { husky });
  if (!reach.present || reach.ok) return null;
  return `installed in "${path}" but may never run: line ${reach.line} ("${reach.text}") comes before review-gate's line and can end the script first; ${REINSTALL} to move the line up`;
}

async function huskyProblem(hooksDir: string, path: string, text: string): Promise<string | null> {
  if (basename(hooksDir) === "_") {
    // husky 9: git runs .husky/_/pre-push, which runs .husky/pre-push with `sh -e`.
    const dispatcher = join(hooksDir, "pre-push");
    if (!(await executable(dispatcher))) {
      return `installed in "${path}" but NOT run: husky's "${dispatcher}" is missing or not executable; run husky's install ("npx husky") to create it`;
    }
  } else if (!(await executable(path))) {
    return `installed in "${path}" but NOT run: git runs that file itself and it is not executable; chmod +x "${path}"`;
  }
  return unreachable(path, text, true);
}

async function hookFileProblem(path: string, text: string): Promise<string | null> {
  if (!(await executable(path))) {
    return `installed but not executable, so git does not run it: chmod +x "${path}"`;
  }
  // Our stub is reached by construction; a chained hook runs as its own process before it.
  return isOurStub(text) ? null : unreachable(path, text, false);
}

/**
 * The absolute paths our stub or line names (the binary, or deno and main.ts) that no longer
 * exist: the hook would then fail (the push is refused) until install runs again. In our own stub
 * the command sits in a function body, on a line without the marker.
 */
async function missingProgram(text: string): Promise<string | null> {
  const ours = isOurStub(text);
  const line =
    text.split("\n").find((l) =>
      (ours ? !l.trimStart().startsWith("#") : isManaged(l)) && /hook pre-push/.test(l)
    ) ?? "";
  const missing = await missingProgramPath(line);
  return missing ? missingProgramText(missing, "every push", "review-gate install --git") : null;
}
