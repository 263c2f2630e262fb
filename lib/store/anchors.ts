/**
 * Where each agent session's turn gate is anchored: the repository whose state dir holds the
 * session's baseline (lib/store/sessions.ts). An agent's hook payload carries its *current* cwd,
 * which moves when the agent `cd`s — into a subdirectory, a submodule, another repository, out of
 * every repository, or into a directory it then deletes — so the turn's start records here, per
 * user, where its baseline went, and the stop reads it back from any cwd. One small JSON file per
 * session under `$XDG_STATE_HOME/review-gate/anchors/` (default `~/.local/state/…`), named like the
 * session files (an untrusted id that is not a plain token is hashed), mode `0600`; files untouched
 * for 30 days are pruned at most once a day, but the anchor of a turn no Stop answered for
 * (lib/store/unanswered.ts). Each is sealed with the user's key for its path
 * (lib/store/sealed.ts): an anchor that does not verify is absent (named in the gate's output), so
 * a written anchor cannot send the stop to another repository's baseline.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { writeStoreFile } from "./_write.ts";
import { pruneOldFiles } from "./_prune.ts";
import { noteUnverified, openSealed, sealJson } from "./sealed.ts";
import { sessionFileName } from "./sessions.ts";
import { userStateDir } from "./user_state.ts";
import { unansweredAnchor } from "./unanswered.ts";

/** What the turn's start recorded about where the session's gate lives. */
export interface SessionAnchor {
  /** Worktree root of the repository holding the baseline (absolute). */
  root: string;
  /** ISO time the anchor was written. */
  at: string;
}

const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 24 * 3600 * 1000;

/**
 * The anchors folder: `$XDG_STATE_HOME/review-gate/anchors`, else `$HOME/.local/state/…`.
 *
 * @returns the path, or `undefined` when neither variable is set
 */
export function anchorsDir(env: Record<string, string | undefined>): string | undefined {
  const base = userStateDir(env);
  return base ? join(base, "anchors") : undefined;
}

/**
 * Record where a session's gate lives (creating the folder `0700`), and prune old anchors at most
 * once a day.
 *
 * @param env for {@linkcode anchorsDir}; nothing is written when it gives no folder
 * @param anchor the untrusted session id and the repository root
 * @throws Deno.errors from the file system
 */
export async function writeAnchor(
  env: Record<string, string | undefined>,
  anchor: { sessionId: string; root: string; now: Date },
): Promise<void> {
  const dir = anchorsDir(env);
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const value: SessionAnchor = { root: anchor.root, at: anchor.now.toISOString() };
  const path = join(dir, await sessionFileName(anchor.sessionId));
  await writeStoreFile(path, await sealJson(value, `anchor ${path}`, env));
  await pruneOldFiles(dir, {
    ...{ now: anchor.now, afterMs: PRUNE_AFTER_MS, everyMs: PRUNE_EVERY_MS },
    suffixes: [".json"],
    // the anchor of a turn no Stop answered for stays (lib/store/unanswered.ts)
    keep: async (entry) => (await unansweredAnchor(entry.path, { state: null, env })) !== null,
  }).catch(() => {}); // best effort
}

/**
 * Read where a session's gate lives.
 *
 * @returns the anchor, or `null` when none was recorded (or it is unreadable, or does not verify:
 *   then noted for the gate's output)
 */
export async function readAnchor(
  env: Record<string, string | undefined>,
  sessionId: string,
): Promise<SessionAnchor | null> {
  const dir = anchorsDir(env);
  if (!dir) return null;
  const name = await sessionFileName(sessionId);
  const path = join(dir, name);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const opened = await openSealed(text, `anchor ${path}`, env);
  if (!opened.ok) {
    noteUnverified(`this session's anchor (anchors/${name})`, opened.why);
    return null;
  }
  const value = opened.value as SessionAnchor | null;
  return typeof value?.root === "string" && value.root !== "" ? value : null;
}
