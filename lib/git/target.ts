/**
 * Decide what a {@linkcode Target} means in a repository: the two endpoints of the diff and a human
 * label. Every resolved `from` is an object id (commit or tree); `to` is an object id, or
 * `"worktree"` / `"index"` for the live states, which `collect.ts` turns into trees through a
 * temporary index.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import { runGit, stderrTail } from "./git.ts";
import { emptyTree, type Repo } from "./repo.ts";
import type { Target } from "./types.ts";

/** The endpoints of a target. */
export interface ResolvedTarget {
  /** Tree-ish object id of the base side (may be the empty tree). */
  from: string;
  /** Tree-ish object id of the reviewed side, or a live state. */
  to: string | "worktree" | "index";
  /** "working tree", "staged changes", "main...HEAD", "a1b2c3d..e4f5a6b", "commit a1b2c3d". */
  label: string;
}

/**
 * Parse a `--range` value: `A..B` or `A...B` (the latter reviews merge-base(A, B) → B). As in git
 * (gitrevisions(7)), a side left out is HEAD: `main..` is `main..HEAD`, `..main` is `HEAD..main`,
 * `main...` is `main...HEAD`.
 *
 * @throws {UsageError} when the text has no `..`, both sides are empty, or a side starts or ends
 *   with a dot (`a....b`)
 */
export function parseRangeSpec(spec: string): Target {
  const mergeBase = spec.includes("...");
  const sep = mergeBase ? "..." : "..";
  const at = spec.indexOf(sep);
  const from = at < 0 ? "" : spec.slice(0, at);
  const to = at < 0 ? "" : spec.slice(at + sep.length);
  if (at < 0 || (from === "" && to === "") || from.endsWith(".") || to.startsWith(".")) {
    throw new UsageError(
      `Invalid range "${spec}": write it as "A..B" or "A...B" (a side left out is HEAD: "main.." is "main..HEAD")`,
    );
  }
  return { kind: "range", from: from || "HEAD", to: to || "HEAD", mergeBase };
}

/**
 * Resolve a target to its endpoints. Calls git at most twice.
 *
 * - worktree: HEAD (or the empty tree on an unborn branch) → worktree incl. untracked
 * - staged: HEAD (or the empty tree) → index
 * - base REF: merge-base(REF, HEAD) → HEAD
 * - range A..B: A → B; A...B: merge-base(A, B) → B
 * - commit SHA: first parent (or the empty tree for a root commit) → SHA
 * - tree: the two given tree-ish ids, verified
 *
 * @throws {UsageError} (exit 2) for an unknown ref or revision (on an unborn branch: that the
 *   repository, or the branch, has no commit yet), a ref starting with "-", no
 *   merge-base, or a HEAD-relative target on an unborn branch
 */
export async function resolveTarget(
  runner: Runner,
  repo: Repo,
  target: Target,
): Promise<ResolvedTarget> {
  if (repo.head !== null || (target.kind !== "commit" && target.kind !== "range")) {
    return await resolveEndpoints(runner, repo, target);
  }
  // on an unborn branch, a revision that does not resolve may be one that cannot yet: say so
  return await resolveEndpoints(runner, repo, target).catch(async (error) => {
    if (!(error instanceof UsageError)) throw error;
    throw await unbornError(runner, repo, target) ?? error;
  });
}

/** {@linkcode resolveTarget} without the unborn-branch explanation. */
async function resolveEndpoints(
  runner: Runner,
  repo: Repo,
  target: Target,
): Promise<ResolvedTarget> {
  const base = repo.head ?? emptyTree(repo);
  switch (target.kind) {
    case "worktree":
      return { from: base, to: "worktree", label: "working tree" };
    case "staged":
      return { from: base, to: "index", label: "staged changes" };
    case "base": {
      const head = requireHead(repo, `--base ${target.ref}`);
      const from = await mergeBase(runner, repo, target.ref, head);
      return { from, to: head, label: `${target.ref}...HEAD` };
    }
    case "range": {
      const [a, b] = await resolveCommits(runner, repo, [target.from, target.to]);
      const from = target.mergeBase ? await mergeBase(runner, repo, a, b) : a;
      const sep = target.mergeBase ? "..." : "..";
      return { from, to: b, label: `${target.from}${sep}${target.to}` };
    }
    case "commit": {
      checkRef(target.sha);
      const result = await runGit(runner, repo.root, [
        "rev-list",
        "--parents",
        "-n",
        "1",
        target.sha,
        "--",
      ]);
      if (result.code !== 0) throw unknownRevision(target.sha, stderrTail(result));
      const [commit, parent] = new TextDecoder().decode(result.stdout).trim().split(" ");
      return { from: parent ?? emptyTree(repo), to: commit, label: `commit ${commit.slice(0, 7)}` };
    }
    case "tree": {
      const [from, to] = await resolveObjects(runner, repo, [target.from, target.to], "tree");
      return { from, to, label: target.label };
    }
  }
}

/**
 * Why a commit or range target cannot resolve on an unborn branch, when that is why: the repository
 * has no commit at all, or the target names HEAD (`HEAD`, `@`, `HEAD~1`, an open range side), which
 * has none yet. `undefined` when another branch has commits and the target does not name HEAD (the
 * unknown-revision message stands).
 */
async function unbornError(
  runner: Runner,
  repo: Repo,
  target: Target & { kind: "commit" | "range" },
): Promise<UsageError | undefined> {
  const flag = target.kind === "commit"
    ? `--commit ${target.sha}`
    : `--range ${target.from}${target.mergeBase ? "..." : ".."}${target.to}`;
  const instead = "review the working tree (the default) or --staged instead";
  const any = await runGit(runner, repo.root, ["rev-list", "-n", "1", "--all", "--"]);
  if (any.code === 0 && any.stdout.length === 0) {
    return new UsageError(`Cannot review ${flag}: this repository has no commits yet; ${instead}`);
  }
  const refs = target.kind === "commit" ? [target.sha] : [target.from, target.to];
  if (refs.some((r) => /^(HEAD|@)(?![\w/.-])/.test(r))) {
    return new UsageError(`Cannot review ${flag}: the branch has no commit yet; ${instead}`);
  }
  return undefined;
}

function requireHead(repo: Repo, what: string): string {
  if (repo.head === null) {
    throw new UsageError(
      `Cannot review ${what}: the branch has no commit yet; review the working tree instead`,
    );
  }
  return repo.head;
}

function checkRef(ref: string): void {
  if (ref === "" || ref.startsWith("-")) {
    throw new UsageError(`Invalid revision "${ref}": name a branch, tag or commit id`);
  }
}

function unknownRevision(ref: string, stderr: string): UsageError {
  const detail = stderr.split("\n").at(-1) ?? "";
  return new UsageError(
    `Unknown revision "${ref}": check the name with "git rev-parse --verify ${ref}"${
      detail ? ` (${detail})` : ""
    }`,
  );
}

async function mergeBase(runner: Runner, repo: Repo, a: string, b: string): Promise<string> {
  checkRef(a);
  const result = await runGit(runner, repo.root, ["merge-base", a, b]);
  if (result.code === 1) {
    throw new UsageError(`No merge-base between "${a}" and "${b}": pass a range "A..B" instead`);
  }
  if (result.code !== 0) throw unknownRevision(a, stderrTail(result));
  return new TextDecoder().decode(result.stdout).trim();
}

function resolveCommits(runner: Runner, repo: Repo, refs: string[]): Promise<string[]> {
  return resolveObjects(runner, repo, refs, "commit");
}

async function resolveObjects(
  runner: Runner,
  repo: Repo,
  refs: string[],
  type: "commit" | "tree",
): Promise<string[]> {
  refs.forEach(checkRef);
  // One call; `--verify` takes a single name, so check each line instead.
  const result = await runGit(runner, repo.root, [
    "rev-parse",
    ...refs.map((r) => `${r}^{${type}}`),
    "--",
  ]);
  const ids = new TextDecoder().decode(result.stdout).trim().split("\n");
  if (result.code !== 0 || ids.length < refs.length + 1) {
    const tail = stderrTail(result);
    const bad = refs.find((r) => tail.includes(`'${r}^{${type}}'`)) ?? refs.join(", ");
    throw unknownRevision(bad, tail);
  }
  return ids.slice(0, refs.length);
}
