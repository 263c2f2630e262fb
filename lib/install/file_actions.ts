/**
 * File changes the installers plan, show (`--dry-run`) and apply. Planning is separate from
 * applying so a dry run prints exactly what a real run does. Writes are atomic (lib/base/atomic_write.ts):
 * a temp file in the same directory, then rename. A rename keeps a file's bytes, mode and symlink-ness as they are.
 * A write to a symlink edits the link's target in place (the temp file goes beside the target) and
 * keeps the link; no write ever creates a world-writable file. Install records the directories it
 * created ({@linkcode recordCreatedDirs}) so uninstall removes them again once they are empty
 * ({@linkcode planCreatedDirRemovals}).
 *
 * @module
 */
import { dirname, join } from "../base/path.ts";
import { writeFileAtomic } from "../base/atomic_write.ts";
import { countLineChanges, renderLineDiff } from "./line_diff.ts";
import { readRegularText } from "../base/regular_file.ts";
import { shellQuote } from "./self_command.ts";

/** One planned change to the file system. */
export type FileAction =
  | { op: "mkdir"; path: string }
  | {
    op: "write";
    path: string;
    text: string;
    /** Permission bits, e.g. 0o755. */
    mode: number;
    /** The current text, `null` for a new file (for the diff). */
    before: string | null;
    /** Why, in a few words. */
    why: string;
  }
  | { op: "rename"; from: string; to: string; why: string }
  | { op: "remove"; path: string; before: string | null; why: string }
  /** Remove a directory install created, only when it is empty (else left alone). */
  | { op: "rmdir"; path: string; why: string };

/**
 * How much of each file change {@linkcode renderActions} shows: `true` the change line by line
 * (`--diff`), `"counts"` one line per file with the lines it adds and removes (`--dry-run`),
 * `false` one line per file and the command that shows it (a real run).
 */
export type ActionDetail = boolean | "counts";

/**
 * Render planned actions: each file's change as a diff, as one line with its line counts, or (a
 * real run) as one line per file and the command that shows it, not its content.
 *
 * @param actions the plan
 * @param options `diff` (default true): how much of each change to show ({@linkcode ActionDetail})
 * @returns lines ending in a newline; `"nothing to change\n"` for an empty plan
 */
export function renderActions(
  actions: readonly FileAction[],
  options: { diff?: ActionDetail } = {},
): string {
  if (actions.length === 0) return "nothing to change\n";
  const detail = options.diff ?? true;
  const out: string[] = [];
  for (const a of actions) {
    switch (a.op) {
      case "mkdir":
        out.push(`create directory ${a.path}`);
        break;
      case "write": {
        const verb = a.before === null ? "create" : "update";
        const head = `${verb} ${a.path} (mode ${a.mode.toString(8)}): ${a.why}`;
        if (detail === "counts") out.push(`${head}; ${lineCounts(a.before ?? "", a.text)}`);
        else {
          out.push(head);
          out.push(
            detail === false
              ? `    see it: cat ${shellQuote(a.path)}`
              : indent(renderLineDiff(a.before ?? "", a.text)),
          );
        }
        break;
      }
      case "rename":
        out.push(`rename ${a.from} -> ${a.to}: ${a.why}`);
        break;
      case "remove":
        out.push(
          `remove ${a.path}: ${a.why}${
            detail === "counts" && a.before !== null ? `; ${lineCounts(a.before, "")}` : ""
          }`,
        );
        break;
      case "rmdir":
        out.push(`remove directory ${a.path}: ${a.why}`);
        break;
    }
  }
  return out.join("\n").replace(/\n+$/, "") + "\n";
}

/** `+3/-1 lines`: what a change adds and removes. */
function lineCounts(before: string, after: string): string {
  const { added, removed } = countLineChanges(before, after);
  return `+${added}/-${removed} line${added + removed === 1 ? "" : "s"}`;
}

function indent(text: string): string {
  return text.split("\n").filter((l) => l !== "").map((l) => `    ${l}`).join("\n");
}

/**
 * Apply planned actions in order.
 *
 * @param actions the plan from a `plan…()` function
 * @throws {Deno.errors.PermissionDenied} and other file-system errors as they come
 */
export async function applyActions(actions: readonly FileAction[]): Promise<void> {
  for (const a of actions) {
    switch (a.op) {
      case "mkdir":
        await Deno.mkdir(a.path, { recursive: true });
        break;
      case "write":
        await writeFileAtomic(a.path, a.text, { mode: a.mode });
        break;
      case "rename":
        await Deno.rename(a.from, a.to);
        break;
      case "remove":
        await Deno.remove(a.path);
        break;
      case "rmdir":
        if (await isEmptyDir(a.path)) await Deno.remove(a.path);
        break;
    }
  }
}

async function isEmptyDir(path: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(path)) return false;
    return true;
  } catch {
    return false;
  }
}

/** `Deno.lstat`, or `null` when the path does not exist. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** `Deno.stat` (follows symlinks), or `null` when the path or a link's target does not exist. */
export async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * The permission bits of the file at `path`, following a symlink to its target.
 *
 * @param fallback used when the path (or the link's target) does not exist
 * @returns `mode & 0o7777`
 */
export async function fileMode(path: string, fallback: number): Promise<number> {
  const info = await statOrNull(path);
  return info ? (info.mode ?? fallback) & 0o7777 : fallback;
}

/** Read a text file; `null` when it does not exist; `undefined` when it exists but cannot be read. */
export async function readTextOrNull(path: string): Promise<string | null | undefined> {
  try {
    return await readRegularText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return (await lstatOrNull(path)) ? undefined : null;
    return undefined;
  }
}

/** Where install records what it created: `<git common dir>/review-gate/installed.json`. */
export function installStatePath(commonDir: string): string {
  return join(commonDir, "review-gate", "installed.json");
}

async function readCreatedDirs(statePath: string): Promise<string[]> {
  try {
    const value = JSON.parse(await readRegularText(statePath));
    const dirs = value?.created_dirs;
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return []; // missing or unreadable: nothing is known to be ours
  }
}

async function writeCreatedDirs(statePath: string, dirs: string[]): Promise<void> {
  if (dirs.length === 0) {
    await Deno.remove(statePath).catch(() => {});
    return;
  }
  await Deno.mkdir(dirname(statePath), { recursive: true, mode: 0o700 });
  await writeFileAtomic(statePath, JSON.stringify({ created_dirs: dirs }, null, 2) + "\n", {
    mode: 0o644,
  });
}

/**
 * Remember the directories an applied install plan created (its `mkdir` actions), so uninstall may
 * remove them once empty. A no-op when the plan created none.
 *
 * @param statePath from {@linkcode installStatePath}
 * @param actions the applied plan
 */
export async function recordCreatedDirs(
  statePath: string,
  actions: readonly FileAction[],
): Promise<void> {
  const created = actions.flatMap((a) => a.op === "mkdir" ? [a.path] : []);
  if (created.length === 0) return;
  const known = await readCreatedDirs(statePath);
  await writeCreatedDirs(statePath, [...new Set([...known, ...created])]);
}

/**
 * `rmdir` actions for recorded directories that will be empty once `actions` (an uninstall plan)
 * are applied: every entry left in them is a file the plan removes. Deepest directories first.
 *
 * @param statePath from {@linkcode installStatePath}
 * @param actions the uninstall plan
 * @returns the actions to append to the plan
 */
export async function planCreatedDirRemovals(
  statePath: string,
  actions: readonly FileAction[],
): Promise<FileAction[]> {
  const removed = new Set(actions.flatMap((a) => a.op === "remove" ? [a.path] : []));
  const dirs = (await readCreatedDirs(statePath)).sort((a, b) => b.length - a.length);
  const out: FileAction[] = [];
  const going = new Set<string>();
  for (const dir of dirs) {
    const info = await lstatOrNull(dir);
    if (!info?.isDirectory) continue;
    let empty = true;
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (!removed.has(path) && !going.has(path)) {
        empty = false;
        break;
      }
    }
    if (!empty) continue;
    going.add(dir);
    out.push({ op: "rmdir", path: dir, why: "created by review-gate install, now empty" });
  }
  return out;
}

/**
 * Forget recorded directories that no longer exist (after an uninstall was applied).
 *
 * @param statePath from {@linkcode installStatePath}
 */
export async function pruneCreatedDirs(statePath: string): Promise<void> {
  const known = await readCreatedDirs(statePath);
  if (known.length === 0) return;
  const left: string[] = [];
  for (const dir of known) if (await lstatOrNull(dir)) left.push(dir);
  if (left.length !== known.length) await writeCreatedDirs(statePath, left);
}
