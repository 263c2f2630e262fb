/**
 * File changes the installers plan, show (`--dry-run`) and apply. Planning is separate from
 * applying so a dry run prints exactly what a real run does. Writes are atomic: a temp file in the
 * same directory, then rename. A rename keeps a file's bytes, mode and symlink-ness as they are.
 *
 * @module
 */
import { dirname } from "node:path";
import { renderLineDiff } from "./_line_diff.ts";

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
  | { op: "remove"; path: string; before: string | null; why: string };

/**
 * Render planned actions for `--dry-run` (and as the summary of a real run).
 *
 * @param actions the plan
 * @returns lines ending in a newline; `"nothing to change\n"` for an empty plan
 */
export function renderActions(actions: readonly FileAction[]): string {
  if (actions.length === 0) return "nothing to change\n";
  const out: string[] = [];
  for (const a of actions) {
    switch (a.op) {
      case "mkdir":
        out.push(`create directory ${a.path}`);
        break;
      case "write": {
        const verb = a.before === null ? "create" : "update";
        out.push(`${verb} ${a.path} (mode ${a.mode.toString(8)}): ${a.why}`);
        out.push(indent(renderLineDiff(a.before ?? "", a.text)));
        break;
      }
      case "rename":
        out.push(`rename ${a.from} -> ${a.to}: ${a.why}`);
        break;
      case "remove":
        out.push(`remove ${a.path}: ${a.why}`);
        break;
    }
  }
  return out.join("\n").replace(/\n+$/, "") + "\n";
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
        await writeAtomic(a.path, a.text, a.mode);
        break;
      case "rename":
        await Deno.rename(a.from, a.to);
        break;
      case "remove":
        await Deno.remove(a.path);
        break;
    }
  }
}

/**
 * Write a file atomically: temp file beside it, chmod, then rename over the target.
 *
 * @param path target file
 * @param text UTF-8 content
 * @param mode permission bits
 */
export async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const temp = await Deno.makeTempFile({ dir: dirname(path), prefix: ".review-gate-" });
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
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

/** Read a text file; `null` when it does not exist; `undefined` when it exists but cannot be read. */
export async function readTextOrNull(path: string): Promise<string | null | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return (await lstatOrNull(path)) ? undefined : null;
    return undefined;
  }
}
