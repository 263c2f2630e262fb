/**
 * The repository's local refs — branches, tags, notes, the stash and replace refs, exactly the
 * names `git for-each-ref refs/heads refs/tags refs/notes refs/stash refs/replace` lists — read
 * from the files ref backend without starting git, for the read-only proof (lib/git/git_meta.ts).
 * Loose refs are the files under `<common dir>/refs/…` holding `<object id>` or `ref: <refname>`;
 * `packed-refs` holds `<object id> SP <refname>` lines, `^<object id>` peeled lines and a
 * `# pack-refs with:` header (gitrepository-layout(5), git-pack-refs(1)); a loose ref hides a
 * packed one of the same name. Loose refs are read first, then `packed-refs`, the order git's own
 * files backend reads them in (refs/files-backend.c): a concurrent `git pack-refs` moves a ref into
 * `packed-refs` before it deletes the loose file, so no ref is ever missed. A repository with the
 * reftable backend (`<common dir>/reftable/`) is not read here: the caller asks git.
 *
 * @module
 */
import { diskSignature } from "./status_listing.ts";
import { pathExists } from "../base/path_exists.ts";

/**
 * The ref namespaces read: what the proof watches (remote-tracking refs are not). `refs/replace`
 * is among them: nothing a review runs writes one, and one would change what every later git
 * command of the user's reads.
 */
export const LOCAL_REF_PREFIXES: readonly string[] = [
  "refs/heads",
  "refs/tags",
  "refs/notes",
  "refs/stash",
  "refs/replace",
];

/** Loose ref files up to this size (bytes) are read as text; larger ones are signed. */
const MAX_REF_BYTES = 4096;

/**
 * Read the local refs of the repository whose common git dir is `commonDir`.
 *
 * @param commonDir the git dir shared by all worktrees (absolute path)
 * @returns refname → object id (or `ref: <target>` for a symbolic ref, the file's text for a
 *   loose ref that holds neither), in no particular order; `null` when the repository does not use
 *   the files backend, or its refs cannot be read (then ask `git for-each-ref`)
 */
export async function readLocalRefs(commonDir: string): Promise<Map<string, string> | null> {
  try {
    if (await pathExists(`${commonDir}/reftable`)) return null;
    const refs = new Map<string, string>();
    await Promise.all(LOCAL_REF_PREFIXES.map((name) => readLoose(commonDir, name, refs)));
    const packed = await Deno.readTextFile(`${commonDir}/packed-refs`).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return "";
      throw error;
    });
    for (const [name, id] of parsePackedRefs(packed)) {
      if (isLocal(name) && !refs.has(name)) refs.set(name, id);
    }
    return refs;
  } catch {
    return null;
  }
}

/**
 * The refs a `packed-refs` file names, in file order (peeled `^` lines and comments skipped).
 *
 * @param text the file's content
 * @returns `[refname, object id]` pairs
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = "# pack-refs with: peeled fully-peeled sorted \n" +
 *   "1111111111111111111111111111111111111111 refs/tags/v1\n^2222222222222222222222222222222222222222\n";
 * assert.deepEqual(parsePackedRefs(text), [["refs/tags/v1", "1111111111111111111111111111111111111111"]]);
 * ```
 */
export function parsePackedRefs(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
    const space = line.indexOf(" ");
    if (space > 0) out.push([line.slice(space + 1), line.slice(0, space)]);
  }
  return out;
}

/** True for a refname inside one of {@linkcode LOCAL_REF_PREFIXES} (whole path components). */
function isLocal(name: string): boolean {
  return LOCAL_REF_PREFIXES.some((p) => name === p || name.startsWith(`${p}/`));
}

/**
 * Read the loose ref (or directory of loose refs) `name` into `refs`. Lock files (`*.lock`, never a
 * valid refname) are skipped; a missing name is no ref.
 */
async function readLoose(commonDir: string, name: string, refs: Map<string, string>) {
  const path = `${commonDir}/${name}`;
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (!info.isDirectory) {
    // never follow a link or open a FIFO a reviewer may have planted: a ref is a small file
    const small = info.isFile && info.size <= MAX_REF_BYTES;
    refs.set(name, small ? (await Deno.readTextFile(path)).trim() : await diskSignature(path));
    return;
  }
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (!entry.name.endsWith(".lock")) names.push(entry.name);
  }
  await Promise.all(names.map((child) => readLoose(commonDir, `${name}/${child}`, refs)));
}
