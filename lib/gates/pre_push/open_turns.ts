/**
 * The agent turns open in this repository, as a push sees them (README "Security model", pre-push
 * row): read only from state review-gate sealed with the user's key — never from environment
 * variables the agent can unset (`env -u CLAUDECODE git push`). A turn is open from the prompt that
 * started it (lib/gates/turn/baseline.ts) until a Stop answers for its work (the session record's
 * `answered`, lib/gates/turn/decision.ts; or, for a turn that changed nothing, the stamp the
 * installed Stop script allowed on, copied by it: lib/store/stop_stamps.ts `readStopMark`), like
 * the Stop gate's own measure of a turn; a record no hook wrote for {@linkcode OPEN_TURN_HOURS}
 * hours (an agent quit mid-turn) no longer counts.
 *
 * What cannot be read is never "no turn": a session record of this repository that does not verify
 * (forged, edited, copied from elsewhere), and a session this worktree's anchor names
 * (lib/store/anchors.ts) whose record is gone or does not verify, are turns whose start is unknown.
 * The recency of those is judged by the file's change time (ctime), which no process can set back.
 * An agent that deletes both the record and its anchor leaves nothing to find: the Stop then says
 * its start was not seen, and `install --guard` denies those writes.
 *
 * @module
 */
import { join, resolve } from "../../base/path.ts";
import { anchorsDir } from "../../store/anchors.ts";
import { openSealed } from "../../store/sealed.ts";
import { readAllSessions, type SessionRead, type SessionState } from "../../store/sessions.ts";
import { stateDir } from "../../store/state.ts";
import { readStopMark } from "../../store/stop_stamps.ts";
import type { Repo } from "../../git/repo.ts";

/** Hours without a hook writing a session record after which its turn no longer counts as open. */
export const OPEN_TURN_HOURS = 24;

/** A turn a push must take into account. */
export type OpenTurn =
  /** A verified record of a turn no Stop answered for yet. */
  | { kind: "open"; name: string; session: SessionState }
  /** A turn that may be open but whose start cannot be read: `what` names it for people. */
  | { kind: "unknown"; name: string; what: string };

/**
 * The turns open in the repository: its session records (shared by all its worktrees) and the
 * anchors naming this worktree.
 *
 * @param repo the repository pushed from
 * @param env where the user's key and anchors are
 * @param now the push's clock
 * @returns the open and unknown turns, in session file name order
 * @throws Deno.errors from listing `sessions/` other than NotFound
 */
export async function openTurns(
  repo: Repo,
  env: Record<string, string | undefined>,
  now: Date,
): Promise<OpenTurn[]> {
  const state = stateDir(repo.commonDir);
  const since = now.getTime() - OPEN_TURN_HOURS * 3600 * 1000;
  const out: OpenTurn[] = [];
  const records = new Map<string, SessionRead>();
  for (const { name, read } of await readAllSessions(state, env)) {
    records.set(name, read);
    if (read.kind === "ok" && isOpen(read.state, since)) {
      if (await stoppedByScript(repo, env, { name, session: read.state })) continue;
      out.push({ kind: "open", name, session: read.state });
    } else if (
      read.kind === "unverified" && await changedSince(join(state, "sessions", name), since)
    ) {
      out.push({
        kind: "unknown",
        name,
        what: `the turn record sessions/${name} does not verify (${read.why})`,
      });
    }
  }
  for (const name of await anchoredHere(repo, env, since)) {
    const read = records.get(name);
    if (read?.kind === "ok" || out.some((t) => t.name === name)) continue;
    out.push({
      kind: "unknown",
      name,
      what: `the session anchored on this worktree (anchors/${name}) has no turn record here`,
    });
  }
  return out;
}

/**
 * A record of a turn started and not yet answered for, written since `since` (ms) — or answered by
 * a Stop that gave up at `max_blocks` on a config change it held back (`answered.heldConfig`,
 * lib/gates/turn/guard_config.ts): that change is not the user's yet.
 */
function isOpen(session: SessionState, since: number): boolean {
  if (session.answered && !session.answered.heldConfig) return false;
  const started = session.baselineTree !== undefined || session.guard !== undefined ||
    session.userConfigAtStart !== undefined;
  if (!started) return false; // a session forgotten (gate off) or never started
  const written = session.updatedAt ? Date.parse(session.updatedAt) : NaN;
  return Number.isNaN(written) || written >= since;
}

/**
 * Whether the installed Stop script answered this turn's Stop by itself: its mark verifies and is
 * the stamp this record's start wrote (the record's file, its baseline tree).
 */
async function stoppedByScript(
  repo: Repo,
  env: Record<string, string | undefined>,
  at: { name: string; session: SessionState },
): Promise<boolean> {
  const id = at.name.replace(/\.json$/, "");
  const mark = await readStopMark(env, id, repo.objectFormat);
  if (!mark) return false;
  const [, , sessionFile, , tree] = mark;
  const file = join(stateDir(repo.commonDir), "sessions", at.name);
  return resolve(sessionFile ?? "") === resolve(file) && tree === at.session.baselineTree;
}

/** Whether the file's status changed since `since` (ms): ctime, which cannot be set back. */
async function changedSince(path: string, since: number): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => null);
  const changed = info?.ctime ?? info?.mtime;
  return !changed || changed.getTime() >= since;
}

/**
 * The file names of the verified anchors, changed since `since`, naming this worktree.
 *
 * @param repo the worktree
 * @param env where the user's key and anchors are
 * @param since ms since the epoch
 * @returns session file names (`<id>.json`), sorted; empty when there is no anchors folder
 */
export async function anchoredHere(
  repo: Repo,
  env: Record<string, string | undefined>,
  since: number,
): Promise<string[]> {
  const dir = anchorsDir(env);
  if (!dir) return [];
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
    }
  } catch {
    return []; // no anchors folder: no session was ever anchored
  }
  const root = resolve(repo.root);
  const here: string[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    if (!await changedSince(path, since)) continue;
    const text = await Deno.readTextFile(path).catch(() => null);
    if (text === null) continue;
    const opened = await openSealed(text, `anchor ${path}`, env);
    const anchored = opened.ok ? (opened.value as { root?: unknown } | null)?.root : undefined;
    if (typeof anchored === "string" && resolve(anchored) === root) here.push(name);
  }
  return here;
}
