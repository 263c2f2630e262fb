/**
 * Which repository a skip record (lib/store/skips.ts) belongs to, found from what its writer could
 * see for free: the git common dir review-gate wrote, else `GIT_DIR` as git gave it to the hook,
 * else the directory the hook ran in, walked up to its `.git` (a folder, or a linked worktree's or
 * submodule's `gitdir:` file, whose `commondir` names the repository). Files only, no git process:
 * `stats` reads records of every repository the user has. A directory that no longer exists
 * belongs to none.
 *
 * @module
 */
import { readRegularText } from "../base/regular_file.ts";
import { dirname, isAbsolute, resolve } from "../base/path.ts";
import type { SkipRecord } from "./skips.ts";

/**
 * The resolved git common dir of a record's repository.
 *
 * @param record the record
 * @param cache answers by directory, shared across the records of one `stats` (filled here)
 * @returns the common dir through its symlinks, or `null` when it cannot be found
 */
export async function skipRepoOf(
  record: SkipRecord,
  cache: Map<string, Promise<string | null>> = new Map(),
): Promise<string | null> {
  const dir = typeof record.dir === "string" && isAbsolute(record.dir) ? record.dir : undefined;
  if (typeof record.repo === "string" && isAbsolute(record.repo)) return await real(record.repo);
  if (typeof record.gitDir === "string" && record.gitDir !== "") {
    if (!isAbsolute(record.gitDir) && !dir) return null;
    return await commonDirOf(resolve(dir ?? "/", record.gitDir));
  }
  if (!dir) return null;
  let answer = cache.get(dir);
  if (!answer) cache.set(dir, answer = walkUp(dir));
  return await answer;
}

/**
 * Most bytes read from a `.git` file or a `commondir` file (one path each). Both are read as
 * regular files only: a record can name any folder, and a FIFO there must not hang `stats`.
 */
const GIT_POINTER_BYTES = 64 * 1024;

/**
 * The common dir of the nearest `.git` at or above `dir`. A `.git` folder counts only when it holds
 * a `HEAD`, as git's own discovery asks: a stray empty `.git` (in the temp dir, say) is walked past.
 */
async function walkUp(dir: string): Promise<string | null> {
  for (let at = dir;; at = dirname(at)) {
    const dotGit = `${at === "/" ? "" : at}/.git`;
    const info = await Deno.lstat(dotGit).catch(() => null);
    if (info?.isDirectory && (await Deno.lstat(`${dotGit}/HEAD`).catch(() => null))?.isFile) {
      return await real(dotGit);
    }
    if (info?.isFile) {
      const text = await readRegularText(dotGit, GIT_POINTER_BYTES).catch(() => "");
      const gitdir = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
      return gitdir ? await commonDirOf(resolve(at, gitdir)) : null;
    }
    if (at === "/" || at === dirname(at)) return null;
  }
}

/** A git dir's common dir: what its `commondir` file names (relative to it), else itself. */
async function commonDirOf(gitDir: string): Promise<string | null> {
  const named = (await readRegularText(`${gitDir}/commondir`, GIT_POINTER_BYTES).catch(() => ""))
    .trim();
  return await real(named ? resolve(gitDir, named) : gitDir);
}

async function real(path: string): Promise<string | null> {
  return await Deno.realPath(path).catch(() => null);
}

/**
 * The records of one repository, read from the user's skip records.
 *
 * @param records every record (lib/store/skips.ts `readSkips`)
 * @param commonDir the repository's git common dir (resolved here through its symlinks)
 * @returns the records whose repository it is, in file order
 */
export async function skipsOfRepo(
  records: readonly SkipRecord[],
  commonDir: string,
): Promise<SkipRecord[]> {
  const target = await real(commonDir) ?? commonDir;
  const cache = new Map<string, Promise<string | null>>();
  const repos = await Promise.all(records.map((r) => skipRepoOf(r, cache)));
  return records.filter((_, i) => repos[i] === target);
}
