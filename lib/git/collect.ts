/**
 * Collect a {@linkcode Change} from git: resolve the target, turn live states into trees through a
 * temporary index (never the user's), list files with `diff-tree -z --raw --numstat` and take the
 * patch with one `diff-tree -p`, split per file and cut to the budgets.
 *
 * Git calls for a worktree target: `add -A` + `write-tree` (temp index), then the listing, the
 * patch and `diff-files` (submodules with uncommitted changes) in parallel: 5 in all (plus
 * `rev-parse` in {@linkcode resolveRepo}), and one `git status` per dirty submodule.
 *
 * Submodules are never reviewed through the diff (a gitlink's patch is one `Subproject commit`
 * line): a changed gitlink, and for worktree targets a submodule with uncommitted changes (up to
 * {@linkcode MAX_DIRTY_SUBMODULES}), are listed in coverage `omitted` as "submodule" and make
 * coverage "partial"; the agent can read them with its own tools. A change of only a submodule is
 * therefore still a change to review.
 *
 * The fingerprint is the sha256 hex of the target kind, a NUL, and the raw `-z` listing (modes,
 * blob ids and paths of both sides of every changed file), then, when a submodule has uncommitted
 * changes, its path and the status and content hashes of its changed files. It changes exactly
 * when a changed file's content, mode or path changes, binary files included, and does not depend
 * on the budgets.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { sha256Hex } from "../base/sha256.ts";
import { planBudget } from "./budget.ts";
import { changedLinesByPath } from "./changed_lines.ts";
import { parseRawNumstat, splitPatch } from "./diff_parse.ts";
import { git, gitFailure, runGit } from "./git.ts";
import { listStatus } from "./status_listing.ts";
import { snapshotIndexTree, snapshotWorktreeTree } from "./live_tree.ts";
import type { Repo } from "./repo.ts";
import { resolveTarget } from "./target.ts";
import { gitTreeView, worktreeView } from "./tree_view.ts";
import type { Budgets, Change, ChangedFile, Coverage, Target } from "./types.ts";

/** Options of {@linkcode collectChange}. */
export interface CollectOptions {
  repo: Repo;
  target: Target;
  /** Byte limits on the diff text. */
  budgets: Budgets;
}

/** Most submodules with uncommitted changes listed (and fingerprinted) per change. */
export const MAX_DIRTY_SUBMODULES = 20;

/** Patch bytes read at most (64 MiB); files past it are omitted as "total-budget". */
const PATCH_CAP = 64 * 1024 * 1024;

const PATCH_ARGS = [
  "-p",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--unified=3",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * Collect the change a target describes.
 *
 * @param runner the subprocess seam
 * @param options repository, target and budgets (bytes)
 * @returns the change: files in git's path order, the included patches as UTF-8 text (CRLF kept),
 *   coverage naming every omitted file, fingerprint, and a view of the reviewed tree (the worktree
 *   on disk for "worktree", else the git tree) that knows the lines the change added or edited
 * @throws {import("../base/errors.ts").UsageError} for an unknown ref or revision
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function collectChange(runner: Runner, options: CollectOptions): Promise<Change> {
  const { repo, target, budgets } = options;
  const resolved = await resolveTarget(runner, repo, target);
  const toTree = resolved.to === "worktree"
    ? await snapshotWorktreeTree(runner, repo)
    : resolved.to === "index"
    ? await snapshotIndexTree(runner, repo)
    : resolved.to;
  const range = [resolved.from, toTree];
  const patchArgs = ["diff-tree", "-r", "-M", ...PATCH_ARGS, ...range];
  const [raw, patch, dirty] = await Promise.all([
    git(runner, repo.root, ["diff-tree", "-r", "-z", "-M", "--raw", "--numstat", ...range]),
    runGit(runner, repo.root, patchArgs, { maxOutputBytes: PATCH_CAP }),
    resolved.to === "worktree" ? collectDirtySubmodules(runner, repo.root) : [],
  ]);
  if (patch.code !== 0) throw gitFailure(patchArgs, patch);
  const entries = parseRawNumstat(raw);
  let chunks = splitPatch(patch.stdout);
  // Past PATCH_CAP the output was cut: the last section is incomplete and later ones are missing.
  if (patch.truncated) chunks = chunks.slice(0, -1);
  if (patch.truncated ? chunks.length > entries.length : chunks.length !== entries.length) {
    throw new Error(`Patch has ${chunks.length} file sections for ${entries.length} changed files`);
  }
  const plan = planBudget(
    entries.map((e, i) => ({
      path: e.path,
      binary: e.binary,
      submodule: e.gitlink,
      size: chunks[i]?.length ?? 0,
    })),
    budgets,
  );
  entries.forEach((e, i) => {
    if (i >= chunks.length && !plan.reasons[i]) {
      plan.reasons[i] = "total-budget";
      plan.coverage.omitted.push({ path: e.path, reason: "total-budget" });
      plan.coverage.status = "partial";
    }
  });
  const decoder = new TextDecoder();
  const files: ChangedFile[] = entries.map(({ gitlink: _, ...e }, i) => {
    const reason = plan.reasons[i];
    return reason ? { ...e, omitted: reason } : { ...e };
  });
  addDirtySubmodules(files, plan.coverage, dirty);
  const diff = chunks.filter((_, i) => !plan.reasons[i]).map((c) => decoder.decode(c)).join("");
  const deleted = new Set(
    entries.flatMap((e) =>
      e.status === "deleted" ? [e.path] : e.status === "renamed" && e.oldPath ? [e.oldPath] : []
    ),
  );
  const changed = changedLinesByPath(entries, chunks);
  const tree = resolved.to === "worktree"
    ? worktreeView(repo.root, { deleted, changed })
    : gitTreeView(runner, repo.root, { deleted, changed, tree: toTree });
  return {
    target,
    label: resolved.label,
    root: repo.root,
    from: resolved.from,
    to: resolved.to,
    toTree,
    files,
    diff,
    coverage: plan.coverage,
    fingerprint: await fingerprintOf(target.kind, raw, dirty.map((d) => d.signature).join("\0")),
    tree,
  };
}

/**
 * List the submodules with uncommitted changes that the diff does not show as omitted files (their
 * inside is not reviewed): coverage becomes partial and names each.
 */
function addDirtySubmodules(
  files: ChangedFile[],
  coverage: Coverage,
  dirty: readonly { path: string }[],
): void {
  const listed = new Set(files.map((f) => f.path));
  for (const { path } of dirty) {
    if (listed.has(path)) continue;
    files.push({
      path,
      status: "modified",
      binary: false,
      additions: 0,
      deletions: 0,
      omitted: "submodule",
    });
    coverage.omitted.push({ path, reason: "submodule" });
    coverage.status = "partial";
  }
}

/**
 * sha256 hex of `kind`, a NUL byte, and the raw listing bytes; then, when `extra` is not empty, a
 * NUL and `extra` (the signature of uncommitted submodule changes).
 */
export async function fingerprintOf(kind: string, raw: Uint8Array, extra = ""): Promise<string> {
  return await sha256Hex(extra === "" ? [`${kind}\0`, raw] : [`${kind}\0`, raw, "\0", extra]);
}

/** A submodule with uncommitted changes and a signature of them. */
interface DirtySubmodule {
  path: string;
  /** Path, submodule HEAD, and every changed file's status entry and content hash. */
  signature: string;
}

/**
 * Submodules of the worktree at `root` with uncommitted changes (modified, staged or untracked
 * files inside), in path order, at most {@linkcode MAX_DIRTY_SUBMODULES}. `git diff-files
 * --ignore-submodules=none` names the gitlinks whose checkout differs from the index; one
 * `git status` per such submodule tells whether it has uncommitted changes (a moved submodule HEAD
 * alone is already a changed gitlink in the listing) and yields their signature.
 */
async function collectDirtySubmodules(runner: Runner, root: string): Promise<DirtySubmodule[]> {
  const out = await git(runner, root, ["diff-files", "-z", "--ignore-submodules=none"]);
  const tokens = new TextDecoder().decode(out).split("\0");
  const paths: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    // ":<mode index> <mode worktree> <id> <id> <status>" NUL "<path>" (git-diff-files(1) raw format)
    if (tokens[i].startsWith(":160000 ")) paths.push(tokens[i + 1]);
  }
  const found = await Promise.all(
    paths.slice(0, MAX_DIRTY_SUBMODULES).map(async (path) => {
      const inner = await listStatus(runner, `${root}/${path}`, { ignoreSubmodules: "all" })
        .catch(() => null);
      if (inner === null || Object.keys(inner.files).length === 0) return null;
      const entries = Object.entries(inner.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return { path, signature: JSON.stringify([path, inner.head, entries]) };
    }),
  );
  return found.filter((d): d is DirtySubmodule => d !== null);
}
