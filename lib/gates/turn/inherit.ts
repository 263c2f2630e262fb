/**
 * Where a session's first turn starts when other sessions worked in the same worktree before it
 * (docs/design.md "Turn gate", README "Claude Code Stop"). The baseline moves forward only past
 * work a Stop answered for — per worktree, not per session: an agent CLI killed mid-turn (its Stop
 * never ran), a turn whose Stop blocked last, writes that landed after a Stop answered, all leave
 * work no Stop answered for, and a new session in that worktree must not take it as its baseline
 * unseen. So the first prompt of a session starts from the earliest of: the start of every turn
 * still open in this worktree (a verified session record of another session that no Stop answered
 * for) and the newest point a Stop answered for here (its `answered`) — whichever is older. Work
 * whose record is gone or does not verify while the session's anchor still names this worktree is
 * unknown: the new session's Stop names it as not reviewed. The window is the push gate's
 * {@linkcode OPEN_TURN_HOURS}: a record no hook wrote for that long no longer counts — work that
 * lands that long after a session's last hook is the user's (README "Not protected").
 *
 * When the new session's Stop answers for the work, it reviewed everything since that start: the
 * open turns it took over (those no hook wrote since) and the unknown ones get that answer as
 * their own `answered`, so neither the push gate nor the next session counts them open again.
 *
 * @module
 */
import { resolve } from "../../base/path.ts";
import { anchoredHere, OPEN_TURN_HOURS } from "../pre_push/open_turns.ts";
import {
  type InheritedTurn,
  readAllSessions,
  type SessionRead,
  type SessionState,
  type TurnStart,
  turnStartOf,
  writeSessionState,
} from "../../store/sessions.ts";
import type { Repo } from "../../git/repo.ts";

/** What a session's first prompt takes from the other sessions of its worktree. */
export interface WorktreeStart {
  /** The start to take instead of the worktree now; absent when no other session counts. */
  start?: TurnStart;
  /** The open or unknown turns whose work the new session's Stop answers for. */
  inherited: InheritedTurn[];
  /** Names of sessions anchored here whose record is gone or does not verify. */
  lost: string[];
}

/**
 * The start a session's first turn takes over from the other sessions of this worktree
 * (see the module doc).
 *
 * @param repo the repository and worktree of the prompt
 * @param at the new session's file name, where the user's key and anchors are, the prompt's clock
 * @returns what to inherit; nothing when no other session of this worktree counts
 * @throws Deno.errors from listing `sessions/` other than NotFound
 */
export async function worktreeStart(
  repo: Repo,
  at: { own: string; state: string; env: Record<string, string | undefined>; now: Date },
): Promise<WorktreeStart> {
  const since = at.now.getTime() - OPEN_TURN_HOURS * 3600 * 1000;
  const root = resolve(repo.root);
  const anchored = new Set(await anchoredHere(repo, at.env, since));
  const records = await readAllSessions(at.state, at.env);
  const open: { name: string; session: SessionState }[] = [];
  let answered: TurnStart | undefined;
  const lost: string[] = [];
  const seen = new Set<string>();
  for (const { name, read } of records) {
    if (name === at.own) continue;
    seen.add(name);
    if (read.kind !== "ok") {
      if (anchored.has(name) && read.kind === "unverified") lost.push(name);
      continue;
    }
    const session = read.state;
    if (!isHere(session, { name, root, anchored }) || !writtenSince(session, since)) continue;
    if (session.answered?.baselineTree) {
      if (!answered || timeOf(session.answered) > timeOf(answered)) answered = session.answered;
    } else if (session.baselineTree) {
      open.push({ name, session });
    } else if (session.lostBefore || session.guard) {
      lost.push(name); // a turn started whose worktree could not be recorded
    }
  }
  for (const name of anchored) {
    if (name !== at.own && !seen.has(name)) lost.push(name);
  }
  const starts = [
    ...open.map((o) => turnStartOf(o.session, false)),
    ...(answered ? [answered] : []),
  ];
  const start = starts.sort((a, b) => timeOf(a) - timeOf(b))[0];
  const inherited: InheritedTurn[] = [
    ...open.map((o) => ({ name: o.name, updatedAt: o.session.updatedAt ?? null })),
    ...lost.map((name) => ({ name, updatedAt: null })),
  ];
  return { ...(start ? { start: turnStartOf(start, false) } : {}), inherited, lost: lost.sort() };
}

/**
 * Give the turns a session took over the answer its Stop just gave (see the module doc): an open
 * record no hook wrote since it was taken over gets `answered`; an unknown one (gone, or not
 * verified) is replaced by a record holding only that answer. A record some hook wrote since is
 * left to its own session. Best effort: a write that fails leaves that turn open (stricter).
 *
 * @param state the state dir
 * @param at the turns taken over, the answer (what the Stop saw) and the clock
 */
export async function answerInherited(
  state: string,
  at: { inherited: readonly InheritedTurn[]; answered: TurnStart; now: Date },
): Promise<void> {
  if (at.inherited.length === 0) return;
  const byName = new Map<string, SessionRead>();
  for (const { name, read } of await readAllSessions(state).catch(() => [])) {
    byName.set(name, read);
  }
  for (const turn of at.inherited) {
    const read = byName.get(turn.name);
    const sessionId = turn.name.replace(/\.json$/, "");
    let value: SessionState;
    if (read?.kind === "ok") {
      if ((read.state.updatedAt ?? null) !== turn.updatedAt || read.state.answered) continue;
      value = { ...read.state, answered: at.answered };
    } else if (turn.updatedAt === null) {
      value = { consecutiveBlocks: 0, answered: at.answered, updatedAt: at.now.toISOString() };
    } else continue;
    // the file name is the id itself or `sha256-<hex>`, and writes go back under the same name
    await writeSessionState(state, { sessionId, value, fileName: turn.name }).catch(() => {});
  }
}

/** Whether a record is a session of this worktree: it says so, or its anchor does. */
function isHere(
  session: SessionState,
  at: { name: string; root: string; anchored: ReadonlySet<string> },
): boolean {
  if (session.root !== undefined) return resolve(session.root) === at.root;
  return at.anchored.has(at.name);
}

function writtenSince(session: SessionState, since: number): boolean {
  const written = session.updatedAt ? Date.parse(session.updatedAt) : NaN;
  return Number.isNaN(written) || written >= since;
}

/** When a start was recorded (ms; a start with no time counts as the oldest). */
function timeOf(start: TurnStart): number {
  const at = start.turnStartedAt ? Date.parse(start.turnStartedAt) : NaN;
  return Number.isNaN(at) ? 0 : at;
}
