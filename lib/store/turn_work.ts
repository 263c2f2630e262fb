/**
 * The files of a turn's background review (docs/design.md "Review while working"), one pair per
 * agent session in `<state>/work/`:
 *
 * - `<name>.poke.json` ({@linkcode WorkPoke}) — written by the hooks only: the tool-call hook says
 *   files may have changed, the Stop says "review the worktree now" and later "answered".
 * - `<name>.status.json` ({@linkcode WorkStatus}) — written by the worker only: its process (pid and
 *   start time, for liveness), the trees it planned, which tree it has settled, and what its calls
 *   cost.
 * - `<name>.lock` — held by the worker for as long as it runs: a second worker for the same
 *   session gives up at once.
 *
 * One writer per file, atomic writes: nobody overwrites another's fields. Neither file is a
 * verdict: verdicts live only in the sealed cache, written by the review pipeline for the exact
 * bytes a model answered. The status is sealed (lib/store/sealed.ts) because the Stop waits on what
 * it says: a status the running agent wrote — naming a process of its own as the worker — would
 * hold the Stop until just before its deadline and leave its own review no time, turning a block
 * into "NOT reviewed". One that does not verify is no worker: the Stop does not wait, and says so.
 * A forged poke can only start or stop background work, which decides nothing.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { jsonText, writeStoreFile } from "./_write.ts";
import { noteUnverified, openSealed, sealJson } from "./sealed.ts";
import { sessionFileName } from "./sessions.ts";

/** What the hooks tell a session's worker. */
export interface WorkPoke {
  version: 1;
  /** The turn it is about: the session's `turnStartedAt`. */
  turn: string;
  /** Epoch ms of the last tool call that may have changed files. */
  changedAt: number;
  /** Epoch ms the Stop asked for the worktree as it is, without waiting out the quiet time. */
  stopAt?: number;
  /** Epoch ms the Stop answered: the worker stops. */
  answeredAt?: number;
}

/** What a session's worker says about itself. */
export interface WorkStatus {
  version: 1;
  /** The turn it works for. */
  turn: string;
  /** The worker process and its `ps` start time (lib/exec/process_info.ts). */
  process: { pid: number; startedAt: string };
  /** Its background job's id (`jobs/<id>.json`). */
  jobId: string;
  /** Epoch ms of the last write. */
  updatedAt: number;
  /** The tree of the latest plan. */
  tree?: string;
  /** A tree every part of which was tried and none of whose calls still runs. */
  settled?: string;
  /** Model calls started for the turn. */
  calls: number;
  /** Calls killed because the bytes they reviewed changed, or the turn ended. */
  killed: number;
  /**
   * Per part, the calls spent on it, by the part's verdict key: `whole:<digest>` for a change
   * planned as one part (cached as a whole), `part:<digest>` for a part of several (lib/git/types.ts
   * `ChangeChunk.digest`).
   */
  spent: Record<string, number>;
  /** The verdict keys of parts a background call answered (their verdicts are in the cache). */
  answered: string[];
  /** True once `max_background_calls` stopped it from starting more. */
  capped?: boolean;
  /** Why it ended, once it did. */
  ended?: string;
}

/**
 * The verdict keys (`WorkStatus.spent`'s) whose verdict serves a part keyed `key`: itself and, for a
 * part of several (`part:<digest>`), the answer of a change planned as that one part
 * (`whole:<digest>`), which the review pipeline keeps under the part's key as well
 * (lib/review/part_verdict.ts). A part's verdict never serves a whole change.
 *
 * @returns `key` first
 */
export function servingKeys(key: string): string[] {
  return key.startsWith("part:") ? [key, `whole:${key.slice("part:".length)}`] : [key];
}

/** `<state>/work`. */
export function workDir(state: string): string {
  return join(state, "work");
}

/** Paths of a session's work files. */
export async function workPaths(
  state: string,
  sessionId: string,
): Promise<{ poke: string; status: string; lock: string }> {
  const base = join(workDir(state), (await sessionFileName(sessionId)).replace(/\.json$/, ""));
  return { poke: `${base}.poke.json`, status: `${base}.status.json`, lock: `${base}.lock` };
}

async function readJson<T extends { version: number }>(path: string): Promise<T | null> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    return value && typeof value === "object" && value.version === 1 ? value as T : null;
  } catch {
    return null; // absent or half-understood: as if none
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
  await writeStoreFile(path, jsonText(value));
}

/** The poke of a session, or `null` when none (or unreadable). */
export async function readPoke(state: string, sessionId: string): Promise<WorkPoke | null> {
  return await readJson<WorkPoke>((await workPaths(state, sessionId)).poke);
}

/**
 * Whether the tool hook noted a change in this turn: the session's poke is for `turn`. Without it
 * no worker was started for the turn (the tool hook writes the poke before it starts one), so the
 * Stop has nothing to wait for and nothing to tell (docs/design.md "Review while working").
 *
 * @param turn the session's `turnStartedAt`
 * @returns false when there is no poke, it cannot be read, or it is another turn's
 */
export async function pokedInTurn(
  state: string,
  sessionId: string,
  turn: string,
): Promise<boolean> {
  return (await readPoke(state, sessionId))?.turn === turn;
}

/**
 * Write a session's poke, merging `patch` over what it says for the same turn.
 *
 * @throws Deno.errors when the file cannot be written
 */
export async function pokeWork(
  state: string,
  sessionId: string,
  patch: Omit<WorkPoke, "version" | "changedAt"> & { changedAt?: number },
): Promise<WorkPoke> {
  const path = (await workPaths(state, sessionId)).poke;
  const old = await readJson<WorkPoke>(path);
  const same = old?.turn === patch.turn ? old : null;
  const poke: WorkPoke = {
    ...same,
    ...patch,
    version: 1,
    changedAt: patch.changedAt ?? same?.changedAt ?? 0,
  };
  await writeJson(path, poke);
  return poke;
}

/** What a session's status file is sealed for: its kind and file name. */
function statusPurpose(path: string): string {
  return `turn work status ${path.slice(path.lastIndexOf("/") + 1)}`;
}

/**
 * The worker's status for a session, when review-gate's key verifies it.
 *
 * @returns the status, or `null` when there is none, it cannot be read, or it does not verify (then
 *   noted for the gate's output: lib/store/sealed.ts `takeStateNotes`)
 */
export async function readWorkStatus(state: string, sessionId: string): Promise<WorkStatus | null> {
  const path = (await workPaths(state, sessionId)).status;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null; // absent: no worker
  }
  const opened = await openSealed(text, statusPurpose(path));
  if (!opened.ok) {
    noteUnverified(
      "the background review's status (work/)",
      opened.why,
      "the Stop did not wait for it",
    );
    return null;
  }
  const value = opened.value as WorkStatus | null;
  return value && typeof value === "object" && value.version === 1 ? value : null;
}

/**
 * Write the worker's status, sealed (the worker alone calls this).
 *
 * @throws Deno.errors when the file cannot be written; Error when there is no key to seal with
 */
export async function writeWorkStatus(
  state: string,
  sessionId: string,
  status: WorkStatus,
): Promise<void> {
  const path = (await workPaths(state, sessionId)).status;
  await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
  await writeStoreFile(path, await sealJson(status, statusPurpose(path)));
}

/** Remove a session's work files (a session whose record is gone). */
export async function removeWork(state: string, sessionId: string): Promise<void> {
  const paths = await workPaths(state, sessionId);
  for (const path of [paths.poke, paths.status]) await Deno.remove(path).catch(() => {});
}
