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
 * change to it is still named. A working-tree review leaves such files out of the change
 * (lib/git/own_outputs.ts), so `review --output FILE` does not make FILE part of the next review.
 *
 * The record is sealed with the per-user key (lib/store/sealed.ts): it makes a review look at less,
 * so only state review-gate sealed may say what it wrote (docs/design.md "Trusted inputs"). A
 * record that does not verify — written or edited by anyone else — reads as empty: the files are
 * then reviewed and named, a false alarm at most, never a false pass.
 *
 * @module
 */
import { isAbsolute, join, relative } from "../base/path.ts";
import { contentSignature } from "../git/status_listing.ts";
import { openSealed, sealJson } from "./sealed.ts";
import { writeStoreFile } from "./_write.ts";
import { lockFile } from "./lock.ts";
import { stateDir } from "./state.ts";

const FILE = "output-writes.json";

/** The environment the per-user key is found with (`XDG_STATE_HOME`, `HOME`). */
type KeyEnv = Record<string, string | undefined>;

/** Most files remembered (the oldest are forgotten first). */
export const MAX_ENTRIES = 200;

function purpose(state: string): string {
  return `output writes ${state}`;
}

async function read(state: string, env?: KeyEnv): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(state, FILE));
  } catch {
    return {};
  }
  const opened = await openSealed(text, purpose(state), env);
  const value = opened.ok ? opened.value : null;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] =>
      typeof entry[1] === "string"
    ),
  );
}

/**
 * Record the files an output step is about to write, before it writes them: a review whose
 * proof looks in between then already knows them.
 *
 * @param state the state dir (must exist)
 * @param files absolute path and the exact text to be written
 * @param env where the per-user key is (default the process's environment)
 * @throws Deno.errors from the file system, Error when there is no key to seal with (callers
 *   treat the record as best effort)
 */
export async function stampOutputWrites(
  state: string,
  files: ReadonlyArray<{ path: string; text: string }>,
  env?: KeyEnv,
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
    const known = await read(state, env);
    paths.forEach((path, i) => {
      delete known[path]; // re-inserted last: newest entries stay
      known[path] = signatures[i];
    });
    const entries = Object.entries(known).slice(-MAX_ENTRIES);
    await writeStoreFile(
      join(state, FILE),
      await sealJson(Object.fromEntries(entries), purpose(state), env),
    );
  } finally {
    lock.release();
  }
}

/**
 * The recorded output files inside `root`, by repo-relative path (git's `/` separators).
 *
 * @param state the state dir
 * @param root the repository's worktree root (absolute)
 * @param env where the per-user key is (default the process's environment)
 * @returns repo-relative path → disk signature after our write; `{}` when nothing is recorded or
 *   the record does not verify
 */
export async function outputWritesUnder(
  state: string,
  root: string,
  env?: KeyEnv,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [path, signature] of Object.entries(await read(state, env))) {
    const rel = relative(root, path);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    out[rel.split("\\").join("/")] = signature;
  }
  return out;
}

/**
 * The recorded output files of a repository's checkout, as a working-tree snapshot's `ownOutputs`
 * wants them (lib/git/live_tree.ts `snapshotWorktree`).
 *
 * @param repo the repository's git common dir and worktree root (absolute)
 * @param env where the per-user key is
 * @returns a function giving repo-relative path → disk signature (`{}` when none or unverified)
 */
export function ownOutputsOf(
  repo: { commonDir: string; root: string },
  env?: KeyEnv,
): () => Promise<Record<string, string>> {
  return () => outputWritesUnder(stateDir(repo.commonDir), repo.root, env);
}
