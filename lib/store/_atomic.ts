/**
 * Folder-private helper: atomic file writes (write a temp file beside the target, then rename), so
 * a reader sees the old content or the new, never a half-written file.
 *
 * @module
 */

/**
 * Name of a temp file beside `path`: same directory (rename stays on one file system), unique per
 * process and call, starting with "." and ending in ".tmp" so readers can skip it.
 *
 * @param path the final path
 * @returns a sibling temp path
 */
export function tempPathFor(path: string): string {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const rand = crypto.getRandomValues(new Uint32Array(1))[0].toString(16);
  return `${dir}.${base}.${Deno.pid}-${rand}.tmp`;
}

/**
 * Write `data` to a temp file beside `path` (mode 0600), without renaming it yet.
 *
 * @param path the final path
 * @param data text or bytes
 * @returns the temp path, to rename with `Deno.rename(temp, path)`
 * @throws Deno.errors from the file system (the temp file is removed first)
 */
export async function writeTemp(path: string, data: string | Uint8Array): Promise<string> {
  const temp = tempPathFor(path);
  try {
    if (typeof data === "string") await Deno.writeTextFile(temp, data, { mode: 0o600 });
    else await Deno.writeFile(temp, data, { mode: 0o600 });
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return temp;
}

/**
 * Write `data` to `path` atomically: temp file, then rename over the target.
 *
 * @param path the final path (its directory must exist)
 * @param data text or bytes
 * @throws Deno.errors from the file system; no temp file is left behind
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = await writeTemp(path, data);
  try {
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * JSON text as the store writes it: two-space indent, final newline.
 *
 * @param value any JSON-serialisable value
 * @returns the text
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
