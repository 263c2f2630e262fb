/**
 * The file versions a moved ref's tip holds that the turn's review has not seen
 * (lib/gates/turn/refs.ts): a version is known when the baseline tree, the current worktree's tree
 * or the tree of any ref as it was at the baseline has it at that path (the old `HEAD` holds the
 * committed version of a file the user had edited and not committed when the turn started, so
 * committing the turn's work beside that edit adds nothing to review). A part reviews only the
 * unknown versions: baseline tree → the baseline tree with those paths as the tip has them, so the
 * model never reads what the worktree still has as deleted.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { withPrivateTempDir } from "../../exec/tmpdir.ts";
import { git, gitText } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";

/** One path of a tip tree whose version no known tree has. */
export interface UnknownVersion {
  path: string;
  /** The tip's mode (`000000` when the tip has no file there: a deletion). */
  mode: string;
  /** The tip's object id (all zeros for a deletion). */
  oid: string;
}

const decoder = new TextDecoder();

/**
 * The distinct trees of the refs as they were at the baseline (a tag is peeled; an id that is gone
 * or names no tree-ish is skipped), in one `cat-file --batch-check`.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param ids the baseline refs' object ids
 */
export async function baselineRefTrees(
  runner: Runner,
  repo: Repo,
  ids: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(ids)].filter((id) => /^[0-9a-f]+$/.test(id));
  if (unique.length === 0) return [];
  const out = await git(runner, repo.root, [
    "cat-file",
    "--batch-check=%(objectname) %(objecttype)",
  ], { stdin: unique.map((id) => `${id}^{tree}\n`).join("") });
  const trees = decoder.decode(out).split("\n").flatMap((line) => {
    const [id, type] = line.split(" ");
    return type === "tree" ? [id] : [];
  });
  return [...new Set(trees)];
}

/**
 * The paths at which `tip` differs from every `known` tree (mode or content; a file the tip lacks
 * that every known tree has is a deletion), with the tip's version: one combined diff (`git diff
 * -c <tip> <known>…` lists a path only when it differs from all of them).
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param at the tip's tree and the known trees (the baseline and worktree trees among them)
 * @throws {import("../../base/errors.ts").GitError} when git fails
 */
export async function unknownVersions(
  runner: Runner,
  repo: Repo,
  at: { tip: string; known: readonly string[] },
): Promise<UnknownVersion[]> {
  const known = [...new Set(at.known)];
  // two trees at least: with one, `diff` is an ordinary two-sided diff of another format
  if (known.length === 1) known.push(known[0]);
  const out = await git(runner, repo.root, [
    "diff",
    "--no-renames",
    "--no-relative",
    "--ignore-submodules=none",
    "--no-ext-diff",
    "--no-textconv",
    "--raw",
    "--no-abbrev",
    "-z",
    "-c",
    at.tip,
    ...known,
  ]);
  return parseCombinedRaw(decoder.decode(out));
}

/**
 * Parse `diff --raw -z -c` output: per path, `::<modes> <ids> <status>` NUL `<path>` NUL, the
 * parents' modes and ids first and the result's (the tip's) last.
 */
function parseCombinedRaw(text: string): UnknownVersion[] {
  const fields = text.split("\0");
  const versions: UnknownVersion[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const header = fields[i];
    const parents = /^:*/.exec(header)![0].length;
    const words = header.slice(parents).split(" ");
    if (parents === 0 || words.length < 2 * parents + 3) continue;
    versions.push({ path: fields[i + 1], mode: words[parents], oid: words[2 * parents + 1] });
  }
  return versions;
}

/**
 * The baseline tree with `versions` as the tip has them (deletions removed), written through a
 * private index (`read-tree`, `update-index --index-info`, `write-tree`): what a moved ref's part
 * reviews, so its diff from the baseline holds only the unknown versions.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param at the baseline tree and the versions to put in it
 * @returns the new tree's id
 * @throws {import("../../base/errors.ts").GitError} when git fails
 */
export async function restrictedTree(
  runner: Runner,
  repo: Repo,
  at: { baseline: string; versions: readonly UnknownVersion[] },
): Promise<string> {
  return await withPrivateTempDir(async (dir) => {
    const env = { GIT_INDEX_FILE: `${dir}/index` };
    await git(runner, repo.root, ["read-tree", at.baseline], { env });
    const zero = "0".repeat(at.baseline.length);
    const lines = at.versions.map((v) =>
      /^0+$/.test(v.mode) ? `0 ${zero}\t${v.path}\0` : `${v.mode} ${v.oid}\t${v.path}\0`
    );
    await git(runner, repo.root, ["update-index", "-z", "--replace", "--index-info"], {
      env,
      stdin: lines.join(""),
    });
    return await gitText(runner, repo.root, ["write-tree"], { env });
  }, { prefix: "review-gate-refs-" });
}
