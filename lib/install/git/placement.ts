/**
 * Where review-gate's one line goes in a shell hook file it does not own (pure): husky's
 * `.husky/pre-push`, or a foreign `pre-push` that cannot be renamed and chained because it finds
 * itself through `$0`. A line appended at the end can be skipped by anything above it — `exit 0`,
 * `exec`, a final `|| exit`, a failing command under `sh -e`, a function or sourced file that
 * exits — and deciding which shell code always falls through needs a shell parser we could not
 * trust. So the line goes **before any command of the user's**: right after the prefix of lines
 * that provably fall through — the shebang, blank lines, comments (a `#` comment never continues
 * onto the next line) and husky's own `. "$(dirname -- "$0")/_/husky.sh"` line (husky ≤ 8 re-runs
 * the file from there, so a line above it would run twice). Our line buffers stdin (git's ref
 * lines) and gives the rest of the file the same bytes, so a user command that reads stdin (say
 * `git lfs pre-push`) still sees them. A file whose interpreter is not a POSIX-family shell is
 * refused with the reason. {@linkcode ourLineReachable} is the same rule read back, for `doctor`.
 *
 * @module
 */
import { isManaged } from "./stub.ts";

/** Interpreters that run our POSIX sh line as written. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "posh", "yash"]);

/** husky ≤ 8's line that sources husky.sh (`--` optional, quotes as husky's templates write them). */
const HUSKY_SOURCE = /^\s*\.\s+"?\$\(dirname\s+(?:--\s+)?"?\$0"?\)\/_\/husky\.sh"?\s*$/;

/** Marker line of a file review-gate created (so uninstall may delete it again). */
export const CREATED_LINE = "# managed-by: review-gate: file created by review-gate install";

/** Options of the placement functions. */
export interface PlacementOptions {
  /** The file is husky's `.husky/pre-push` (its `husky.sh` source line may be in the prefix). */
  husky: boolean;
}

/** Where our line goes, or why it cannot go anywhere safe. */
export type Placement = { ok: true; index: number } | { ok: false; reason: string };

/**
 * The interpreter a shebang names, `env` and its options skipped: `#!/usr/bin/env -S bash -e` →
 * `bash`.
 *
 * @param firstLine the file's first line
 * @returns the interpreter's base name, or `null` when the line is not a shebang
 */
export function shebangInterpreter(firstLine: string): string | null {
  const match = /^#!\s*(.*)$/.exec(firstLine.replace(/\r$/, ""));
  if (!match) return null;
  const words = match[1].trim().split(/\s+/).filter((w) => w !== "");
  let i = 0;
  const base = (w: string | undefined) => (w ?? "").split("/").pop() ?? "";
  if (base(words[i]) === "env") {
    i++;
    while (words[i]?.startsWith("-")) i++;
  }
  return base(words[i]) || null;
}

/** True for a line that cannot end or divert the script: blank, a comment, husky's source line. */
function fallsThrough(line: string, options: PlacementOptions): boolean {
  const trimmed = line.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return true;
  return options.husky && HUSKY_SOURCE.test(line);
}

/**
 * Where our line goes in a hook file's text: after the shebang, blank lines, comments and husky's
 * source line, before the first other line.
 *
 * @param text the file's text without any line of ours
 * @param options whether the file is husky's
 * @returns the index in `text.split("\n")` to insert at, or the reason the file cannot take a
 *   shell line (its shebang names another interpreter)
 */
export function placeOurLine(text: string, options: PlacementOptions): Placement {
  const lines = text.split("\n");
  const interpreter = shebangInterpreter(lines[0]);
  if (interpreter !== null && !SHELLS.has(interpreter)) {
    return {
      ok: false,
      reason: `it is a "${interpreter}" script ("${
        lines[0]
      }"), not a shell script, so a shell line cannot go in it`,
    };
  }
  let index = interpreter === null ? 0 : 1;
  while (index < lines.length && fallsThrough(lines[index], options)) {
    // A trailing "" after the final newline is the end of the file, not a line.
    if (index === lines.length - 1 && lines[index] === "") break;
    index++;
  }
  return { ok: true, index };
}

/**
 * Insert our line where {@linkcode placeOurLine} says, after removing any older line of ours (so a
 * line an older release appended at the end moves up).
 *
 * @param current the file's text, or `null` when the file does not exist (it is created with a
 *   shebang and {@linkcode CREATED_LINE})
 * @param line our line, without its newline
 * @returns the new text, or why the file cannot take it
 */
export function insertOurLine(
  current: string | null,
  line: string,
  options: PlacementOptions,
): { ok: true; text: string } | { ok: false; reason: string } {
  if (current === null) return { ok: true, text: `#!/bin/sh\n${CREATED_LINE}\n${line}\n` };
  const { text } = removeOurLines(current, { keepCreatedMarker: true });
  const place = placeOurLine(text, options);
  if (!place.ok) return place;
  const lines = text.split("\n");
  if (place.index === lines.length) {
    // No final newline after the last prefix line: ours goes after a "\n" and ends without one,
    // so removing it restores the bytes.
    return { ok: true, text: `${text}\n${line}` };
  }
  lines.splice(place.index, 0, line);
  return { ok: true, text: lines.join("\n") };
}

/**
 * Remove our lines from a hook file's text.
 *
 * @param current the file's text
 * @param options `keepCreatedMarker` keeps {@linkcode CREATED_LINE} (used on reinstall)
 * @returns `text` without our lines; `deleteFile` when we created the file and nothing but its
 *   shebang is left; how many lines were removed
 */
export function removeOurLines(
  current: string,
  options: { keepCreatedMarker?: boolean } = {},
): { text: string; deleteFile: boolean; removed: number } {
  const lines = current.split("\n");
  const created = lines.includes(CREATED_LINE);
  let removed = 0;
  const kept = lines.filter((l) => {
    if (l === CREATED_LINE && options.keepCreatedMarker) return true;
    if (!isManaged(l)) return true;
    removed++;
    return false;
  });
  const text = kept.join("\n");
  const rest = kept.filter((l) => l.trim() !== "" && l !== "#!/bin/sh" && l !== CREATED_LINE);
  return { text, deleteFile: created && !options.keepCreatedMarker && rest.length === 0, removed };
}

/**
 * Whether our line in a hook file is provably reached: only lines that fall through come before
 * it (the rule of {@linkcode placeOurLine}).
 *
 * @param text the file's text
 * @returns `present: false` when no line of ours is there; else `ok`, or the first line that may
 *   end the script before ours (1-based `line` and its text)
 */
export function ourLineReachable(
  text: string,
  options: PlacementOptions,
): { present: false } | { present: true; ok: true } | {
  present: true;
  ok: false;
  line: number;
  text: string;
} {
  const lines = text.split("\n");
  const ours = lines.findIndex((l) => isManaged(l) && l !== CREATED_LINE);
  if (ours < 0) return { present: false };
  const start = shebangInterpreter(lines[0]) === null ? 0 : 1;
  for (let i = start; i < ours; i++) {
    if (!fallsThrough(lines[i], options) && lines[i] !== CREATED_LINE) {
      return { present: true, ok: false, line: i + 1, text: lines[i].trim() };
    }
  }
  return { present: true, ok: true };
}

/**
 * True when a hook finds itself through `$0` (its name or directory): renaming it to chain it would
 * change what it does (husky 4 and similar dispatchers run the hook named like the file).
 *
 * @param text the hook's text
 */
export function refersToOwnPath(text: string): boolean {
  return /\$\{?0\}?|\$\{?BASH_SOURCE/.test(text);
}

/**
 * True when the file is a script a shell line can go in (its shebang names a POSIX-family shell,
 * or it has none).
 */
export function isShellScript(text: string): boolean {
  const interpreter = shebangInterpreter(text.split("\n")[0]);
  return interpreter === null || SHELLS.has(interpreter);
}
