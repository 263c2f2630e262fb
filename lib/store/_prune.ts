/**
 * Pruning of per-session store files (anchors, session records and their locks): a file nobody
 * wrote for a long time is removed, at most once per period per folder (a `.pruned` marker's
 * modification time says when the folder was last pruned). Best effort: a file that cannot be
 * listed, read or removed stays.
 *
 * @module
 */
import { join } from "../base/path.ts";

/**
 * Remove the files of `dir` whose name ends with one of `suffixes` and whose modification time is
 * more than `afterMs` before `now` — unless the folder was pruned less than `everyMs` ago.
 *
 * @param dir the folder (not recursed into)
 * @param at the clock, the age after which a file goes (ms), the period between prunes (ms), the
 *   name endings pruned (e.g. `.json`)
 * @throws Deno.errors from writing the marker or listing the folder
 */
export async function pruneOldFiles(
  dir: string,
  at: { now: Date; afterMs: number; everyMs: number; suffixes: readonly string[] },
): Promise<void> {
  const marker = join(dir, ".pruned");
  const last = (await Deno.stat(marker).catch(() => null))?.mtime?.getTime() ?? 0;
  if (at.now.getTime() - last < at.everyMs) return;
  await Deno.writeTextFile(marker, "", { mode: 0o600 });
  await Deno.utime(marker, at.now, at.now);
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !at.suffixes.some((suffix) => entry.name.endsWith(suffix))) continue;
    const path = join(dir, entry.name);
    const mtime = (await Deno.stat(path).catch(() => null))?.mtime?.getTime();
    if (mtime !== undefined && at.now.getTime() - mtime > at.afterMs) {
      await Deno.remove(path).catch(() => {});
    }
  }
}
