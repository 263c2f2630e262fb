/**
 * Pruning of store files by age: which entries of a folder nobody wrote since a time
 * ({@linkcode oldEntries}: what `review-gate prune` goes through, lib/store/prune_state.ts), and the
 * stores' own pruning of per-session files (anchors, session records and their locks), at most once
 * per period per folder ({@linkcode pruneOldFiles}: a `.pruned` marker's modification time says when
 * the folder was last pruned). Best effort: an entry that cannot be listed, read or removed stays.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** An entry of a folder, as old as its last write. */
export interface OldEntry {
  /** The entry's name in its folder. */
  name: string;
  /** Its path (the folder joined with the name). */
  path: string;
  /** Its modification time, ms since the epoch. */
  mtimeMs: number;
  isDirectory: boolean;
}

/**
 * Whether `dir` is a folder itself, not a symlink to one: a state folder an agent replaced with a
 * link to elsewhere is never listed, so pruning never reaches outside the state dir.
 *
 * @param dir the folder
 * @returns false for a symlink, a missing path or anything but a folder
 */
export async function isOwnFolder(dir: string): Promise<boolean> {
  return (await Deno.lstat(dir).catch(() => null))?.isDirectory === true;
}

/**
 * The entries of `dir` that `match` picks and nobody wrote since `before` (their modification time
 * is earlier), in name order.
 *
 * @param dir the folder (not recursed into); a missing one, or a symlink ({@linkcode isOwnFolder}),
 *   has none
 * @param at `before` (ms since the epoch) and `match`, which picks entries by name and kind
 * @throws Deno.errors from listing the folder, other than NotFound
 */
export async function oldEntries(
  dir: string,
  at: { before: number; match: (entry: Deno.DirEntry) => boolean },
): Promise<OldEntry[]> {
  const out: OldEntry[] = [];
  if (!await isOwnFolder(dir)) return out;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!at.match(entry)) continue;
      const path = join(dir, entry.name);
      const mtimeMs = (await Deno.lstat(path).catch(() => null))?.mtime?.getTime();
      if (mtimeMs !== undefined && mtimeMs < at.before) {
        out.push({ name: entry.name, path, mtimeMs, isDirectory: entry.isDirectory });
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort((a, b) => compareCodeUnits(a.name, b.name));
}

/**
 * Remove the files of `dir` whose name ends with one of `suffixes` and whose modification time is
 * more than `afterMs` before `now` — unless the folder was pruned less than `everyMs` ago.
 *
 * @param dir the folder (not recursed into)
 * @param at the clock, the age after which a file goes (ms), the period between prunes (ms), the
 *   name endings pruned (e.g. `.json`), and `keep`: true for an old file that stays all the same
 *   (a turn no Stop answered for: lib/store/unanswered.ts)
 * @throws Deno.errors from writing the marker or listing the folder
 */
export async function pruneOldFiles(
  dir: string,
  at: {
    now: Date;
    afterMs: number;
    everyMs: number;
    suffixes: readonly string[];
    keep?: (entry: OldEntry) => Promise<boolean>;
  },
): Promise<void> {
  const marker = join(dir, ".pruned");
  const last = (await Deno.stat(marker).catch(() => null))?.mtime?.getTime() ?? 0;
  if (at.now.getTime() - last < at.everyMs) return;
  await Deno.writeTextFile(marker, "", { mode: 0o600 });
  await Deno.utime(marker, at.now, at.now);
  const old = await oldEntries(dir, {
    before: at.now.getTime() - at.afterMs,
    match: (entry) => entry.isFile && at.suffixes.some((suffix) => entry.name.endsWith(suffix)),
  });
  for (const entry of old) {
    if (await at.keep?.(entry).catch(() => true)) continue;
    await Deno.remove(entry.path).catch(() => {});
  }
}
