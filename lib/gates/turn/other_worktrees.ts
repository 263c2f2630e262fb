/**
 * The repository's other worktrees' uncommitted files (docs/design.md "Turn gate"). The turn's
 * review is of its own worktree and refs; an edit the agent makes in another worktree of the
 * repository is reviewed by a session of that worktree — but where no session runs (a worktree
 * nobody starts an agent in, a subagent's), it would be nobody's: a later session there would take
 * it as its baseline. So the turn's start records a digest of each other worktree's status (the
 * paths git lists as changed or untracked, each with a signature of its content:
 * lib/git/status_listing.ts), and the Stop names, as NOT reviewed, every other worktree whose
 * status changed since and where no session of the last {@linkcode OPEN_TURN_HOURS} hours has a
 * record (whose next review would include it).
 *
 * @module
 */
import { resolve } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { listStatus } from "../../git/status_listing.ts";
import { sha256Hex } from "../../base/sha256.ts";
import { readAllSessions } from "../../store/sessions.ts";
import { OPEN_TURN_HOURS } from "../pre_push/open_turns.ts";
import { worktreeRoot } from "./busy.ts";

/** A worktree with no changed or untracked file. */
const CLEAN = "clean";

/** Most other worktrees whose status is recorded. */
export const MAX_OTHER_WORKTREES = 8;

/**
 * The status digest of each other worktree (at most {@linkcode MAX_OTHER_WORKTREES}).
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param heads the other worktrees' `HEAD` files (lib/gates/turn/refs.ts `TurnRefs.otherHeads`)
 * @returns worktree root → sha256 hex of its changed and untracked files, `"clean"` when there is
 *   none, or `"unreadable"` when git could not list it
 */
export async function otherWorktreeStates(
  runner: Runner,
  repo: Repo,
  heads: readonly string[],
): Promise<Record<string, string>> {
  const roots: string[] = [];
  for (const head of heads) {
    const root = await worktreeRoot(repo, head);
    if (root !== null) roots.push(root);
  }
  const out: Record<string, string> = {};
  await Promise.all(
    roots.slice(0, MAX_OTHER_WORKTREES).map(async (root) => {
      try {
        const listed = await listStatus(runner, root, { ignoreSubmodules: "all" });
        out[root] = Object.keys(listed.files).length === 0
          ? CLEAN
          : await sha256Hex(JSON.stringify(listed.files));
      } catch {
        out[root] = "unreadable";
      }
    }),
  );
  return out;
}

/**
 * The other worktrees whose uncommitted files changed since the turn's start and that no session
 * will review, as phrases for the Stop's answer.
 *
 * @param at the state dir, the user's key's env, the clock, the states at the start and now
 * @returns e.g. `uncommitted changes in the worktree /x/w2 (no agent session runs there)`
 */
export async function unseenInOtherWorktrees(
  at: {
    state: string;
    env: Record<string, string | undefined>;
    now: Date;
    before: Record<string, string>;
    after: Record<string, string>;
  },
): Promise<string[]> {
  // a worktree new since the start counts once it holds changes
  const changed = Object.keys(at.after).filter((root) =>
    at.before[root] !== at.after[root] &&
    !(at.before[root] === undefined && at.after[root] === CLEAN)
  );
  if (changed.length === 0) return [];
  const since = at.now.getTime() - OPEN_TURN_HOURS * 3600 * 1000;
  const roots = new Set(
    (await readAllSessions(at.state, at.env).catch(() => []))
      .flatMap(({ read }) => read.kind === "ok" ? [read.state] : [])
      .filter((s) => s.root !== undefined && Date.parse(s.updatedAt ?? "") >= since)
      .map((s) => resolve(s.root!)),
  );
  return changed.filter((root) => !roots.has(resolve(root))).sort().map((root) =>
    `uncommitted changes in the worktree ${root} (no agent session runs there: review them with "review-gate review" in it)`
  );
}
