/**
 * The files review-gate's own outputs wrote (`--output FILE` of `review`, `ci`, a background job)
 * inside a repository: absolute path → the file's disk signature right after the write
 * (lib/git/status_listing.ts `diskSignature`), in the state dir (`output-writes.json`,
 * newest {@linkcode MAX_ENTRIES} kept).
 *
 * Why: a review's read-only proof (lib/session/proof.ts) watches the whole worktree while the
 * provider runs. Another review-gate run in the same repository — a second background job, a
 * review started while a job runs — may write its `--output` file there meanwhile; without this
 * record that write would be taken for the provider's and fail a good review as a read-only
 * violation. A file counts as ours only while its bytes are exactly what we wrote: any other
 * change to it is still named.
 *
 * @module
 */
import { isAbsolute, join, relative } from "../base/path.ts";
import { contentSignature } from "../git/status_listing.ts";
import { readPathRecord } from "./_path_record.ts";
import { jsonText, writeStoreFile } from "./_write.ts";
import { lockFile } from "./lock.ts";

const FILE = "output-writes.json";

/** Most files remembered (the oldest are forgotten first). */
export const MAX_ENTRIES = 200;

function read(state: string): Promise<Record<string, string>> {
  return readPathRecord(join(state, FILE));
}

/**
 * Record the files an output step is about to write, before it writes them: a review whose
 * proof looks in between then already knows them.
 *
 * @param state the state dir (must exist)
 * @param files absolute path and the exact text to be written
 * @throws Deno.errors from the file system (callers treat the record as best effort)
 */
export async function stampOutputWrites(
  state: string,
  files: ReadonlyArray<{ path: string; text: string }>,
): Promise<void> {
  if (files.length === 0) return;
  const paths = files.map((f) => f.path);
  const signatures = await Promise.all(
    files.map((f) => contentSignature(new TextEncoder().encode(f.text))),
  );
  // two runs finishing at once must not drop each other's entries; a lock held too long costs
  // only the record (the proof then names the file: a false alarm, never a false pass)
  const lock = await lockFile(join(state, `${FILE}.lock`), { timeoutMs: 2000 });
  if (!lock) return;
  try {
    const known = await read(state);
    paths.forEach((path, i) => {
      delete known[path]; // re-inserted last: newest entries stay
      known[path] = signatures[i];
    });
    const entries = Object.entries(known).slice(-MAX_ENTRIES);
    await writeStoreFile(join(state, FILE), jsonText(Object.fromEntries(entries)));
  } finally {
    lock.release();
  }
}

/**
 * The recorded output files inside `root`, by repo-relative path (git's `/` separators).
 *
 * @param state the state dir
 * @param root the repository's worktree root (absolute)
 * @returns repo-relative path → disk signature after our write; `{}` when nothing is recorded
 */
export async function outputWritesUnder(
  state: string,
  root: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [path, signature] of Object.entries(await read(state))) {
    const rel = relative(root, path);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    out[rel.split("\\").join("/")] = signature;
  }
  return out;
}
