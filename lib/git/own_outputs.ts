/**
 * Leaving review-gate's own output files out of a working-tree snapshot (lib/git/live_tree.ts): a
 * `review --format markdown --output FILE` inside the checkout must not make FILE part of the next
 * working-tree review (README.md "Output formats"). A file qualifies only when all of these hold:
 *
 * - review-gate recorded writing it, in its own state, sealed with the per-user key
 *   (lib/store/output_writes.ts; docs/design.md "Trusted inputs": state review-gate sealed is
 *   trusted, a file merely named like an output is not);
 * - its name is one an output is given and no tool reads as its settings: its extension is one of
 *   {@linkcode OUTPUT_EXTENSIONS} and no segment of its path starts with a dot. The bytes are
 *   review-gate's, but partly the model's words (and whoever runs `review` picks the provider),
 *   so an output written as `.gitignore` could carry ignore rules that hide other files from the
 *   same snapshot's `git add -A`, and one under `.github/` or named `.envrc` would be read as
 *   configuration; such a file is reviewed as any other;
 * - it is untracked in the user's index (a tracked file overwritten by an output is a change to
 *   that file, and is reviewed);
 * - the blob `git add -A` recorded for it is byte for byte what review-gate wrote (same size and
 *   sha256): an output the user or an agent edited afterwards is reviewed again, and since the
 *   bytes compared are the ones in the snapshot's tree, no edit between the check and the
 *   snapshot can slip through.
 *
 * Every file left out is listed in coverage `excluded` ("review-gate's own output"), never
 * silently.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { git } from "./git.ts";
import type { Repo } from "./repo.ts";
import { contentSignature } from "./status_listing.ts";

/** Repo-relative path (git's `/`) → disk signature right after review-gate wrote it. */
export type OwnOutputs = Record<string, string>;

const LITERAL = { GIT_LITERAL_PATHSPECS: "1" };

/** The extensions an output file may have to be left out (compared case-insensitively). */
export const OUTPUT_EXTENSIONS: readonly string[] = [
  ".md",
  ".markdown",
  ".txt",
  ".log",
  ".json",
  ".jsonl",
  ".sarif",
  ".rdjson",
  ".rdjsonl",
];

/**
 * Whether a recorded output's repo-relative path may be left out (module doc): an output
 * extension, no dot-named segment.
 *
 * @param path repo-relative, git's `/`
 */
export function mayLeaveOut(path: string): boolean {
  if (path.split("/").some((segment) => segment.startsWith("."))) return false;
  const lower = path.toLowerCase();
  return OUTPUT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

function nulList(bytes: Uint8Array): string[] {
  return new TextDecoder().decode(bytes).split("\0").filter((s) => s !== "");
}

/**
 * The recorded outputs the index does not track, asked before `git add -A` runs on the private
 * index copy (which then still holds the user's index). One git call, none when nothing is
 * recorded.
 *
 * @param env the environment naming the private index copy (`GIT_INDEX_FILE`)
 * @param outputs the recorded outputs inside this checkout
 * @returns their paths that the index does not track
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function untrackedOutputs(
  runner: Runner,
  repo: Repo,
  env: Record<string, string>,
  outputs: OwnOutputs,
): Promise<string[]> {
  const paths = Object.keys(outputs).filter(mayLeaveOut);
  if (paths.length === 0) return [];
  const tracked = new Set(
    nulList(
      await git(runner, repo.root, ["ls-files", "-z", "--", ...paths], {
        env: { ...env, ...LITERAL },
      }),
    ),
  );
  return paths.filter((p) => !tracked.has(p));
}

/**
 * After `git add -A` on the private index: remove from it every untracked recorded output whose
 * indexed blob is exactly what review-gate wrote, so `write-tree` leaves it out.
 *
 * @param env the environment naming the private index copy (`GIT_INDEX_FILE`)
 * @param untracked from {@linkcode untrackedOutputs}
 * @param outputs the recorded signatures
 * @returns the paths left out, in path order
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function removeOwnOutputs(
  runner: Runner,
  repo: Repo,
  env: Record<string, string>,
  untracked: readonly string[],
  outputs: OwnOutputs,
): Promise<string[]> {
  if (untracked.length === 0) return [];
  const staged = nulList(
    await git(runner, repo.root, ["ls-files", "-s", "-z", "--", ...untracked], {
      env: { ...env, ...LITERAL },
    }),
  );
  const ours: string[] = [];
  for (const entry of staged) {
    // "<mode> <blob> <stage>\t<path>"
    const match = entry.match(/^100644 ([0-9a-f]+) 0\t([\s\S]+)$/);
    if (!match || outputs[match[2]] === undefined) continue;
    const bytes = await git(runner, repo.root, ["cat-file", "blob", match[1]]);
    if (await contentSignature(bytes) === outputs[match[2]]) ours.push(match[2]);
  }
  if (ours.length === 0) return [];
  await git(runner, repo.root, ["update-index", "--force-remove", "-z", "--stdin"], {
    env,
    stdin: ours.join("\0") + "\0",
  });
  return ours.sort();
}
