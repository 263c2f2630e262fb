/**
 * Which branches checked out in the repository's other worktrees are their sessions' to review,
 * not this turn's (docs/design.md "Turn gate"). A branch another worktree has checked out moves
 * with that worktree's work — but only a session of that worktree whose turn started before the
 * move will ever review it: its baseline (or the point its last Stop answered for, which the next
 * session there starts from: lib/gates/turn/inherit.ts) still has the branch where this turn found
 * it. A branch with no such session — a worktree nobody runs an agent in, a session that answered
 * after the move — is this turn's to review: a commit put onto it is never silent.
 *
 * @module
 */
import { dirname, join, resolve } from "../../base/path.ts";
import { readAllSessions, type SessionState } from "../../store/sessions.ts";
import { OPEN_TURN_HOURS } from "../pre_push/open_turns.ts";
import type { Repo } from "../../git/repo.ts";

/** A branch checked out in another worktree (or its detached `HEAD`), and that worktree's root. */
export interface CheckedOut {
  /** The ref as this turn names it. */
  ref: string;
  root: string | null;
  /** The ref as a session of that worktree names it (`HEAD` for a detached one). */
  theirs: string;
}

/**
 * The branches checked out now in the worktrees whose `HEAD` files are `heads`
 * (`ref: refs/heads/<name>`), each with its worktree's root: for the main worktree the folder
 * holding the common dir, for a linked one the folder its `gitdir` file names (gitrepository-layout(5)).
 *
 * @param repo the repository (its common dir)
 * @param heads from the session's `otherWorktrees`
 */
export async function checkedOutElsewhere(
  repo: Repo,
  heads: readonly string[],
): Promise<CheckedOut[]> {
  const out: CheckedOut[] = [];
  for (const head of heads) {
    const text = await Deno.readTextFile(head).catch(() => "");
    const ref = /^ref: (refs\/heads\/\S+)\s*$/.exec(text);
    const root = await worktreeRoot(repo, head);
    if (ref) out.push({ ref: ref[1], root, theirs: ref[1] });
    else if (root !== null && DETACHED.test(text)) {
      out.push({ ref: worktreeHeadRef(root), root, theirs: "HEAD" });
    }
  }
  return out;
}

const DETACHED = /^[0-9a-f]{40}(?:[0-9a-f]{24})?\s*$/;

/** The name a turn's refs give another worktree's detached `HEAD` (no refname looks like it). */
export function worktreeHeadRef(root: string): string {
  return `HEAD of worktree ${root}`;
}

/**
 * The detached `HEAD`s of the repository's other worktrees, as refs of this turn
 * ({@linkcode worktreeHeadRef} → commit id): a commit made there moves no branch, and would pass
 * unseen.
 *
 * @param repo the repository
 * @param heads the other worktrees' `HEAD` files
 */
export async function detachedHeads(
  repo: Repo,
  heads: readonly string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const head of heads) {
    const text = await Deno.readTextFile(head).catch(() => "");
    if (!DETACHED.test(text)) continue;
    const root = await worktreeRoot(repo, head);
    if (root !== null) out[worktreeHeadRef(root)] = text.trim();
  }
  return out;
}

/**
 * The root of the worktree whose `HEAD` file is `head`: for the main worktree the folder holding
 * the common dir, for a linked one the folder its `gitdir` file names (gitrepository-layout(5));
 * `null` when it cannot be told (a bare main repository, a `gitdir` file gone).
 */
export async function worktreeRoot(repo: Repo, head: string): Promise<string | null> {
  if (resolve(dirname(head)) === resolve(repo.commonDir)) {
    return repo.commonDir.endsWith(".git") ? dirname(resolve(repo.commonDir)) : null;
  }
  const gitdir = await Deno.readTextFile(join(dirname(head), "gitdir")).catch(() => "");
  return gitdir.trim() ? dirname(resolve(gitdir.trim())) : null;
}

/**
 * The branches among `checkedOut` that a session of their worktree will review: one whose record
 * (written in the last {@linkcode OPEN_TURN_HOURS} hours) starts where the branch was at this
 * turn's baseline.
 *
 * @param at the state dir, the user's key's env, the clock, the branches, this turn's baseline refs
 *   and its own worktree root (the roots come from the worktrees' `gitdir` files, which the agent
 *   can write: one naming this worktree is never another session's)
 * @returns refnames to leave to those sessions
 */
export async function othersWillReview(
  at: {
    state: string;
    env: Record<string, string | undefined>;
    now: Date;
    checkedOut: readonly CheckedOut[];
    before: Record<string, string>;
    /** This turn's own worktree root: a `gitdir` file pointing here names no other session. */
    own: string;
  },
): Promise<string[]> {
  if (at.checkedOut.length === 0) return [];
  const since = at.now.getTime() - OPEN_TURN_HOURS * 3600 * 1000;
  const records = (await readAllSessions(at.state, at.env).catch(() => []))
    .flatMap(({ read }) => read.kind === "ok" ? [read.state] : [])
    .filter((s) => s.root !== undefined && written(s) >= since);
  return at.checkedOut.filter(({ ref, root, theirs }) =>
    root !== null && resolve(root) !== resolve(at.own) &&
    records.some((s) =>
      resolve(s.root!) === resolve(root) && startRefs(s)?.[theirs] === at.before[ref]
    )
  ).map((c) => c.ref);
}

function written(session: SessionState): number {
  const at = session.updatedAt ? Date.parse(session.updatedAt) : NaN;
  return Number.isNaN(at) ? 0 : at;
}

/** The refs where a session's next review starts: its answered point, else its open turn's start. */
function startRefs(session: SessionState): Record<string, string> | undefined {
  return session.answered?.baselineRefs ?? session.baselineRefs;
}
