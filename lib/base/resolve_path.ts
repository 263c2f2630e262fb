/**
 * A path as the file system resolves it, even where it does not exist yet: on macOS `TMPDIR`
 * (`/var/folders/…`) and `/tmp` are symlinks into `/private/…`, and a child process started in a
 * folder sees the resolved path, so a name derived from the path as spelled misses what the child
 * wrote (docs/design.md "Platforms").
 *
 * @module
 */
import { basename, dirname, join, resolve } from "./path.ts";

/**
 * Resolve `path`: the real path of its longest existing prefix (symlinks followed), with the rest
 * appended as spelled.
 *
 * @param path absolute or relative (against the process's cwd)
 * @returns an absolute path
 */
export async function resolvePath(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await Deno.realPath(absolute);
  } catch {
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    return join(await resolvePath(parent), basename(absolute));
  }
}
