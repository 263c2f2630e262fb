/**
 * The line `ack`, `gate enable|disable` and `install`/`uninstall` print after writing a file the
 * turn gates guard (lib/gates/turn/guard.ts): review-gate cannot tell the user's own command from
 * an agent's, so an agent session's next Stop blocks on the change until a prompt names it. The
 * line says which word(s) to put in that prompt.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "../base/path.ts";
import { guardedFiles, hooksDirOf } from "../gates/turn/guard_files.ts";
import { guardedTreePath, namesIt } from "../gates/turn/guard.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";

/**
 * The note for the guarded files a command wrote.
 *
 * @param words what to name per file, each a word a prompt can use (the file's path, as shown)
 * @returns one line without a final newline, or `null` when nothing guarded was written
 */
export function gateChangeNote(words: readonly string[]): string | null {
  const unique = [...new Set(words)].map((w) => `"${w}"`);
  if (unique.length === 0) return null;
  const named = unique.length === 1
    ? unique[0]
    : `${unique.slice(0, -1).join(", ")} and ${unique.at(-1)}`;
  const what = unique.length === 1 ? "this" : "these";
  const change = unique.length === 1 ? "a change" : "changes";
  return `note: an agent session's next Stop treats ${what} as ${change} to its gate; ask for ${
    unique.length === 1 ? "it" : "them"
  } by name (${named}, with a verb such as "change" or "ack") in your next prompt to it so the ${
    unique.length === 1 ? "change applies" : "changes apply"
  }`;
}

/**
 * The words that name, in a prompt, each of the written files the turn gates guard: the path
 * (repo-relative inside the repository) when it names it, else the guard's own word for it.
 *
 * @param paths absolute paths written, renamed or removed
 * @returns one word per guarded path not already named by an earlier word (none for the rest)
 */
export async function guardedWords(
  runner: Runner,
  at: { repo: Repo; env: Record<string, string | undefined> },
  paths: readonly string[],
): Promise<string[]> {
  const { repo, env } = at;
  const hooksDir = await hooksDirOf(runner, repo);
  const outside = guardedFiles(repo, env, hooksDir);
  const hooksRel = hooksDir ? relative(repo.root, hooksDir) : null;
  const inside = hooksRel && !hooksRel.startsWith("..") && !isAbsolute(hooksRel) ? hooksRel : null;
  const words: string[] = [];
  for (const path of paths.map((p) => resolve(p))) {
    const rel = relative(repo.root, path);
    const within = !rel.startsWith("..") && !isAbsolute(rel);
    const shown = within ? rel.split("\\").join("/") : path;
    const guarded = outside.find((f) => resolve(f.path) === path) ??
      (within ? guardedTreePath(shown, inside) : null);
    // a word already given that names this file too (pre-push for its chained hook) is enough
    if (!guarded || words.some((w) => namesIt(w, guarded.names))) continue;
    words.push(namesIt(shown, guarded.names) ? shown : guarded.names[0]);
  }
  return words;
}
