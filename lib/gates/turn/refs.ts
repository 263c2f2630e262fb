/**
 * The turn's refs (docs/design.md "Turn gate"): a turn can commit a change and then leave the
 * worktree as
 * it was — commit then `git branch side` + `git reset --hard`, `git commit --amend` then restore
 * the file, commit then `git checkout HEAD~ -- file` — so the worktree alone would pass it in
 * silence while a ref holds it, ready to push or to bring back. The baseline records every ref
 * (`git show-ref --head`: `HEAD`, branches, tags, `refs/stash`, notes, any `refs/<name>/…` such as
 * `refs/wip/x`) and the `HEAD` files of the repository's other worktrees at the session's first
 * start: a branch one of them has checked out is left to a session there whose turn started
 * before the move (lib/gates/turn/busy.ts), else it is this turn's; a worktree the session adds is
 * its own;
 * the stop lists every ref that moved and added commits no baseline ref reached (a rewind, a
 * deleted ref or a new name for an old commit add nothing) — except remote-tracking refs
 * (`refs/remotes/*`, and `refs/prefetch/*` that `git maintenance` fetches into): a fetch moves them
 * with other people's commits, and what a push sends is the pre-push gate's to review. A moved
 * `refs/stash` counts with every stash entry the turn added (its reflog down to the baseline's
 * entry) and, for each, the index and untracked-files commits `git stash -u` records beside it:
 * `git stash pop` brings all of them back. It reviews the file versions that ref's tip
 * holds and neither the baseline tree, the worktree's tree nor any baseline ref's tree has — only
 * those files, from the baseline tree (lib/gates/turn/ref_versions.ts): committing part of the
 * turn's work, or committing it beside the user's uncommitted edits (the old `HEAD` holds the files
 * as committed), costs no second review, and the model never reads what the worktree still has as
 * deleted (lib/gates/turn/stop.ts).
 *
 * @module
 */
import { join, resolve } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import { git, gitText, runGit } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import { detachedHeads } from "./busy.ts";

/** The refs as the turn's start (or a stop) saw them. */
export interface TurnRefs {
  /** `git show-ref --head`'s stdout as text (what the stop stamp hashes). */
  listing: string;
  /** refname (or `HEAD`, or another worktree's detached `HEAD`: busy.ts `worktreeHeadRef`) → id. */
  refs: Record<string, string>;
  /** The `HEAD` files of the repository's other worktrees (absolute paths). */
  otherHeads: string[];
}

/** At most this many distinct moved trees are reviewed; the rest are named as not reviewed. */
export const MAX_REF_PARTS = 4;

/** The `show-ref` arguments whose output the stamp and `hooks/turn-stop.sh` compare. */
export const SHOW_REF_ARGS: readonly string[] = ["show-ref", "--head"];

/** Refs whose moves are not the turn's to review: remote-tracking refs, and maintenance prefetch. */
const NOT_THE_TURNS = /^refs\/(?:remotes|prefetch)\//;

/** The ref `git stash` moves; its entries are its reflog. */
const STASH_REF = "refs/stash";

/** At most this many stash entries a turn added are looked at (the rest are named). */
const MAX_STASH_ENTRIES = 16;

/**
 * Read the refs: one `show-ref` (exit 1 when there is no ref at all), and where the other
 * worktrees' `HEAD` files are.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @throws {import("../../base/errors.ts").GitError} when git fails
 */
export async function readTurnRefs(runner: Runner, repo: Repo): Promise<TurnRefs> {
  const [shown, otherHeads] = await Promise.all([
    git(runner, repo.root, SHOW_REF_ARGS, { okCodes: [1] }),
    otherWorktreeHeads(repo),
  ]);
  const listing = new TextDecoder().decode(shown);
  const refs: Record<string, string> = {};
  for (const line of listing.split("\n")) {
    const at = line.indexOf(" ");
    if (at > 0) refs[line.slice(at + 1)] = line.slice(0, at);
  }
  // another worktree's detached HEAD moves with commits made there (lib/gates/turn/busy.ts)
  Object.assign(refs, await detachedHeads(repo, otherHeads));
  return { listing, refs, otherHeads };
}

/**
 * The `HEAD` files of the repository's other worktrees (gitrepository-layout(5): the main
 * worktree's `<common dir>/HEAD`, each linked one's `<common dir>/worktrees/<id>/HEAD`), read
 * without git: every git that runs review-gate keeps them there.
 */
async function otherWorktreeHeads(repo: Repo): Promise<string[]> {
  const heads = [join(repo.commonDir, "HEAD")];
  try {
    for await (const entry of Deno.readDir(join(repo.commonDir, "worktrees"))) {
      if (entry.isDirectory) heads.push(join(repo.commonDir, "worktrees", entry.name, "HEAD"));
    }
  } catch {
    // no linked worktree
  }
  const own = resolve(repo.gitDir, "HEAD");
  return heads.filter((head) => resolve(head) !== own).sort();
}

/**
 * What a moved ref holds that no known tree has: reviewed as baseline tree → `tree`, the baseline
 * tree with `paths` as the ref's tip has them (lib/gates/turn/ref_versions.ts).
 */
export interface RefPart {
  /** The refs whose tips hold these versions, e.g. `refs/heads/side`. */
  refs: string[];
  /** The tree reviewed: the baseline tree with `paths` as the tips have them. */
  tree: string;
  /** The paths whose versions at the tips neither the baseline, the worktree nor a baseline ref has. */
  paths: string[];
}

/**
 * What the refs that moved since the baseline added that no tree the turn started with or ends
 * with shows: a file version neither the baseline tree, the worktree's tree nor any baseline ref's
 * tree has at that path.
 *
 * @param runner the subprocess seam
 * @param at the repository; the refs at the baseline and now; the branches another worktree's
 *   session will review (lib/gates/turn/busy.ts); the baseline and current worktree trees
 * @returns the parts to review (at most {@linkcode MAX_REF_PARTS}) and phrases for what could not
 *   be reviewed (a ref past the limit, an object that is not a commit)
 */
export async function movedRefParts(
  runner: Runner,
  at: {
    repo: Repo;
    before: Record<string, string>;
    now: Record<string, string>;
    busy: readonly string[];
    baseline: string;
    current: string;
  },
): Promise<{ parts: RefPart[]; unseen: string[] }> {
  const known = [...new Set(Object.values(at.before))];
  const byId = new Map<string, string[]>();
  const unseen: string[] = [];
  const add = (id: string, ref: string) => byId.set(id, [...(byId.get(id) ?? []), ref]);
  for (const [ref, id] of Object.entries(at.now)) {
    if (at.before[ref] === id || at.busy.includes(ref) || NOT_THE_TURNS.test(ref)) continue;
    if (ref !== STASH_REF) {
      add(id, ref);
      continue;
    }
    const stash = await stashTips(runner, at.repo, { tip: id, before: at.before[STASH_REF] });
    for (const tip of stash.tips) add(tip.id, tip.name);
    unseen.push(...stash.unseen);
  }
  const byTip = new Map<string, string[]>();
  for (const [id, refs] of byId) {
    const tree = await addedTree(runner, at.repo, id, known);
    if (tree === null) continue;
    if (tree === undefined) {
      unseen.push(`${refs.join(", ")} (moved to an object that is not a commit)`);
    } else if (tree !== at.current && tree !== at.baseline) {
      byTip.set(tree, [...(byTip.get(tree) ?? []), ...refs]);
    }
  }
  const parts = byTip.size === 0 ? [] : await unknownParts(runner, { ...at, known, byTip });
  for (const part of parts.slice(MAX_REF_PARTS)) {
    unseen.push(
      `${part.refs.join(", ")} (commits not in the worktree, past ${MAX_REF_PARTS} refs)`,
    );
  }
  return { parts: parts.slice(0, MAX_REF_PARTS), unseen };
}

/**
 * The parts of the tips in `byTip` (tip tree → refs) that hold unknown versions, one per distinct
 * reviewed tree (two tips that differ only in known versions are one part).
 */
async function unknownParts(
  runner: Runner,
  at: {
    repo: Repo;
    baseline: string;
    current: string;
    known: readonly string[];
    byTip: ReadonlyMap<string, string[]>;
  },
): Promise<RefPart[]> {
  const { baselineRefTrees, restrictedTree, unknownVersions } = await import(
    "./ref_versions.ts"
  );
  const known = [at.baseline, at.current, ...await baselineRefTrees(runner, at.repo, at.known)];
  const byTree = new Map<string, RefPart>();
  for (const [tip, refs] of at.byTip) {
    const versions = await unknownVersions(runner, at.repo, { tip, known });
    if (versions.length === 0) continue;
    const tree = await restrictedTree(runner, at.repo, { baseline: at.baseline, versions });
    const part = byTree.get(tree);
    if (part) part.refs.push(...refs);
    else byTree.set(tree, { refs: [...refs], tree, paths: versions.map((v) => v.path) });
  }
  return [...byTree.values()];
}

/**
 * The tree of the commit `id` names (a tag is peeled) when it adds a commit no `known` id
 * reaches; `null` when it adds none; `undefined` when `id` names no commit.
 */
async function addedTree(
  runner: Runner,
  repo: Repo,
  id: string,
  known: readonly string[],
): Promise<string | null | undefined> {
  const peeled = await runGit(runner, repo.root, ["rev-parse", "--verify", "-q", `${id}^{commit}`]);
  if (peeled.code !== 0) return undefined;
  const commit = new TextDecoder().decode(peeled.stdout).trim();
  // `--not` reads ids from stdin: any number of baseline refs fits; an id that is gone is skipped
  const added = await git(runner, repo.root, [
    "rev-list",
    "-n",
    "1",
    commit,
    "--ignore-missing",
    "--stdin",
  ], { stdin: new TextEncoder().encode(known.map((k) => `^${k}\n`).join("")) });
  if (new TextDecoder().decode(added).trim() === "") return null;
  return await gitText(runner, repo.root, ["rev-parse", `${commit}^{tree}`]);
}

/**
 * The commits a moved `refs/stash` brings back: each stash entry the turn added — the reflog of
 * `refs/stash`, newest first, down to (not including) the baseline's entry, at most
 * {@linkcode MAX_STASH_ENTRIES} — and, per entry, its index commit (second parent) and the
 * untracked files `git stash -u` keeps in a third parent (git-stash(1) "Discussion").
 *
 * @param runner the subprocess seam
 * @param at the repository, the stash's tip now and at the baseline
 * @returns tips named like `stash@{0}` (`stash@{0} (index)`, `stash@{0} (untracked files)`), and
 *   phrases for entries past the limit
 * @throws {import("../../base/errors.ts").GitError} when git cannot list the reflog
 */
export async function stashTips(
  runner: Runner,
  repo: Repo,
  at: { tip: string; before?: string },
): Promise<{ tips: { id: string; name: string }[]; unseen: string[] }> {
  // `%H %P` per reflog entry; a stash whose reflog is gone still has its tip
  const listed = await runGit(runner, repo.root, [
    "log",
    "-g",
    "--no-decorate",
    "--format=%H %P",
    "-n",
    String(MAX_STASH_ENTRIES + 1),
    STASH_REF,
    "--",
  ]);
  const lines = listed.code === 0
    ? new TextDecoder().decode(listed.stdout).split("\n").filter((l) => l.trim() !== "")
    : [];
  const entries = lines.length > 0 ? lines.map((l) => l.trim().split(" ")) : [[at.tip]];
  const tips: { id: string; name: string }[] = [];
  const unseen: string[] = [];
  for (const [n, [id, , index, untracked]] of entries.entries()) {
    if (id === at.before) break;
    if (n === MAX_STASH_ENTRIES) {
      unseen.push(`stash entries past stash@{${MAX_STASH_ENTRIES - 1}} (not looked at)`);
      break;
    }
    tips.push({ id, name: `stash@{${n}}` });
    if (index) tips.push({ id: index, name: `stash@{${n}} (index)` });
    if (untracked) tips.push({ id: untracked, name: `stash@{${n}} (untracked files)` });
  }
  return { tips, unseen };
}
