/**
 * Per-session state for the turn gates: `sessions/<session-id>.json` holding the turn's
 * baseline (tree, refs, guarded files, config) and prompts, where the next turn starts when a Stop
 * answered for the work, the baseline and worktree tree of the last completed review with its verdict, and
 * the count of consecutive blocks (docs/design.md "Turn gate"). Written atomically, new files
 * `0600`; the
 * session's lock file (`sessions/<session-id>.lock`) is lib/store/session_lock.ts. Session ids
 * come from hook stdin and are untrusted: an id that is not a plain token (letters, digits, `-`,
 * `_`, at most 128) is stored under its sha256 instead, so no id can name a path outside
 * `sessions/`. The file is sealed with the user's key for its own path (lib/store/sealed.ts): a
 * record anyone else wrote, edited or copied from another session or repository does not verify
 * and reads as absent — the turn's start not seen — and is named in the gate's output.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { writeStoreFile } from "./_write.ts";
import { pruneOldFiles } from "./_prune.ts";
import { noteUnverified, openSealed, sealJson } from "./sealed.ts";
import { sha256Hex } from "../base/sha256.ts";

/** Another session's turn a new session took over: its record's name and last write, as read. */
export interface InheritedTurn {
  /** The session file's name (`<id>.json`). */
  name: string;
  /** The record's `updatedAt` when it was taken over (`null`: no verified record). */
  updatedAt: string | null;
}

/**
 * Who would answer a review (lib/gates/turn/reviewer_identity.ts): provider → the reviewer
 * program's real path (`null`: none found), and the answer-changing environment variables'
 * digests (lib/providers/reviewer_env.ts; values are never stored).
 */
export interface ReviewerRecord {
  programs: Record<string, string | null>;
  vars: Record<string, string>;
  /**
   * Provider → digest of what the review child carries from the user's own provider config (Claude
   * Code's settings `env` and credential helpers, Codex's carried `config.toml` keys and `.env`):
   * it changes which model answers and where its requests go. Absent in older records.
   */
  carried?: Record<string, string>;
  /**
   * For `provider: "auto"`: the provider it chose (lib/providers/auto.ts), `null` when none;
   * absent for a named provider (and in older records).
   */
  chosen?: string | null;
}

/**
 * A config change a Stop held back and then stopped blocking on at `max_blocks`
 * (lib/gates/turn/guard_config.ts): carried into the next turns' starts until a prompt names it.
 */
export interface HeldConfig {
  /** The settings held back, dotted (`gates.claude_stop.enabled`). */
  settings: string[];
  /** ISO time the change was first held. */
  since: string;
  /** The config on disk did not load: the whole file is held. */
  invalid?: boolean;
}

/** What the Stop gate remembers about one Claude session. */
export interface SessionState {
  /**
   * The baseline: the tree the last Stop answered for (its {@linkcode SessionState.answered}),
   * else the worktree as the first turn since then started (the UserPromptSubmit hook). It moves
   * forward only past work a Stop answered for, so a turn whose Stop never ran, writes landing
   * after a Stop, and edits made between turns are reviewed by the next Stop.
   */
  baselineTree?: string;
  /**
   * The refs at the baseline (`git show-ref --head`: refname or `HEAD` →
   * object id); absent when not recorded (then moved refs are not reviewed).
   */
  baselineRefs?: Record<string, string>;
  /**
   * The `HEAD` files of the repository's other worktrees when the session's first turn started:
   * the branches they have checked out are their sessions' work (a worktree the session adds is
   * its own).
   */
  otherWorktrees?: string[];
  /**
   * Written by a Stop that answered for the work (allowed on a review's verdict, or after
   * `max_blocks` blocks with its findings told): where the next turn starts — the tree that Stop
   * reviewed and what it saw of the refs, the guarded files, the ignored entries and the config
   * at that moment. A block, or an allow because nothing could be reviewed, writes none: the next
   * Stop reviews that work again.
   */
  answered?: TurnStart;
  /**
   * The worktree root the session's turns start in (absolute, as resolved at the prompt): whose
   * work it is when another session starts in that worktree (lib/gates/turn/inherit.ts).
   */
  root?: string;
  /**
   * The other sessions' turns this session's first turn took over (lib/gates/turn/inherit.ts): when
   * a Stop answers for the work, they are answered too.
   */
  inherited?: InheritedTurn[];
  /**
   * Sessions anchored on this worktree whose record was gone or did not verify when this
   * session's first turn started: their work is unknown, named by the Stop until one answers.
   */
  lostOthers?: string[];
  /**
   * Set by a turn's start that found this session anchored on the repository but its state gone
   * (deleted, or it does not verify): what the session changed before is unknown, and the stop
   * names it as not reviewed until a stop answers for the work.
   */
  lostBefore?: boolean;
  /**
   * Worktree tree id of the last completed review (Stop gate: same baseline and same tree → reuse
   * its verdict).
   */
  lastTree?: string;
  /**
   * Baseline tree that review started from: the reviewed change is `lastBaseline → lastTree`, so a
   * verdict is reused only when both match (the same tree reached from another baseline is another
   * change).
   */
  lastBaseline?: string;
  /**
   * Who answered that review (lib/gates/turn/reviewer_identity.ts): the verdict is reused only for
   * the same reviewer programs and answer-changing environment.
   */
  lastReviewer?: string;
  /**
   * What that review decided, as the Stop gate needs it (lib/gates/turn/decision.ts
   * StoredVerdict).
   */
  lastVerdict?: {
    status: string;
    runDir: string;
    message?: string;
    /** The blocking findings, each with its fingerprint when known. */
    blocking: (import("../kinds/review/types.ts").Finding & { fingerprint?: string })[];
  };
  /**
   * The user's prompts of every turn since the baseline (UserPromptSubmit `prompt`, joined by a
   * blank line, the last {@linkcode MAX_PROMPT_CHARS} characters): whether the user asked for a
   * change the gate guards.
   */
  prompt?: string;
  /**
   * What the turn's start recorded about the files outside the tree that control the gate
   * (lib/gates/turn/guard_files.ts): path → `<stat>|<digest>`, the resolved git hooks dir, and a
   * digest of the git config keys that steer a snapshot.
   */
  guard?: { files: Record<string, string>; hooksDir: string | null; gitConfig?: string };
  /**
   * The effective config when the turn started: used instead of the config on disk when the turn
   * changed review-gate's config without the user asking for it.
   */
  configAtStart?: import("../config/config.ts").Config;
  /**
   * A config change held back since an earlier turn whose Stop gave up at `max_blocks`: the
   * start's `configAtStart`, `userConfigAtStart` and config fingerprints are from before it.
   */
  heldConfig?: HeldConfig;
  /**
   * The user's review-gate config file when the turn started (its path and text, `null` text when
   * there was none): while the turn is open, a push uses it instead of the file's later values,
   * which may only make the push stricter (lib/gates/pre_push/user_config.ts). Absent in sessions an
   * older version started.
   */
  userConfigAtStart?: { path: string | null; text: string | null };
  /**
   * The reviewer when the turn started: while the turn is open, a push reviews with it — the
   * program the start found, without the answer-changing variables that changed since
   * (lib/gates/pre_push/reviewer_env.ts). Absent in sessions an older version started.
   */
  reviewerAtStart?: ReviewerRecord;
  /**
   * The other worktrees' uncommitted files when the turn started (lib/gates/turn/other_worktrees.ts:
   * root → digest); absent when not recorded.
   */
  otherWorktreeStates?: Record<string, string>;
  /**
   * The ignored untracked entries when the turn started (lib/gates/turn/ignored.ts), absent when
   * they were not recorded: an entry ignored at the stop and not here may be one the turn hid.
   */
  ignoredAtStart?: string[];
  /** ISO time the turn's start recorded its baseline (an ignore file written since is the turn's). */
  turnStartedAt?: string;
  /** Blocks in a row without an allow; capped by config. */
  consecutiveBlocks: number;
  /** ISO time of the last write. */
  updatedAt?: string;
}

/** What a baseline is made of: the fields a turn's start (or an answering Stop) records. */
export type TurnStart = Pick<
  SessionState,
  | "baselineTree"
  | "baselineRefs"
  | "otherWorktrees"
  | "guard"
  | "configAtStart"
  | "heldConfig"
  | "userConfigAtStart"
  | "reviewerAtStart"
  | "otherWorktreeStates"
  | "ignoredAtStart"
  | "turnStartedAt"
  | "lostBefore"
  | "inherited"
  | "lostOthers"
>;

/**
 * A session record no hook wrote for this long (ms, 30 days) is removed: its turn stopped counting
 * as open long before (lib/gates/pre_push/open_turns.ts), and its anchor is pruned at the same age.
 */
export const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;

const PRUNE_EVERY_MS = 24 * 3600 * 1000;

/**
 * The fields of a {@linkcode TurnStart} taken from a record, each named so a spread replaces all of
 * them.
 *
 * @param from a session record, or a start
 * @param takenOver whether to keep what only that session's turn carries — the turns it took over
 *   and the sessions it found lost (`inherited`, `lostOthers`); another session taking this start
 *   over does not (lib/gates/turn/inherit.ts)
 */
export function turnStartOf(from: TurnStart, takenOver = true): TurnStart {
  return {
    baselineTree: from.baselineTree,
    baselineRefs: from.baselineRefs,
    otherWorktrees: from.otherWorktrees,
    guard: from.guard,
    ignoredAtStart: from.ignoredAtStart,
    turnStartedAt: from.turnStartedAt,
    configAtStart: from.configAtStart,
    heldConfig: from.heldConfig,
    userConfigAtStart: from.userConfigAtStart,
    reviewerAtStart: from.reviewerAtStart,
    otherWorktreeStates: from.otherWorktreeStates,
    lostBefore: from.lostBefore,
    ...(takenOver ? { inherited: from.inherited, lostOthers: from.lostOthers } : {}),
  };
}

/**
 * Why a session's record must stay (pure; lib/store/unanswered.ts), or `null` when its work was answered for.
 *
 * @param session a verified session record
 */
export function unansweredReason(session: SessionState): string | null {
  if (session.consecutiveBlocks > 0) {
    return "its last Stop blocked and no Stop answered for the work since (a resumed session's Stop reviews it)";
  }
  if (session.answered === undefined) {
    return "no Stop answered for its turn's work yet (a resumed session's Stop reviews it)";
  }
  return null;
}

/** Most characters of a turn's prompt kept in the session file. */
export const MAX_PROMPT_CHARS = 16_384;

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * File name for a session id: the id itself when it is a plain token, else `sha256-<hex>`.
 *
 * @param sessionId untrusted id from hook stdin
 * @returns a file name without directory parts
 */
export async function sessionFileName(sessionId: string): Promise<string> {
  if (SAFE_ID.test(sessionId)) return `${sessionId}.json`;
  return `sha256-${await sha256Hex(sessionId)}.json`;
}

/**
 * Read a session's state.
 *
 * @param state the state dir
 * @param sessionId untrusted session id
 * @returns the state, or null when missing, corrupt or not verified (then noted for the gate's
 *   output: lib/store/sealed.ts `takeStateNotes`)
 */
export async function readSessionState(
  state: string,
  sessionId: string,
): Promise<SessionState | null> {
  const name = await sessionFileName(sessionId);
  const read = await openSessionFile(join(state, "sessions", name));
  if (read.kind === "unverified") {
    noteUnverified(
      `this session's turn record (sessions/${name})`,
      read.why,
      "it was ignored, as if the turn's start had not been seen",
    );
  }
  return read.kind === "ok" ? read.state : null;
}

/** What one session file holds: its state, nothing (absent or not a session), or a seal that fails. */
export type SessionRead =
  | { kind: "ok"; state: SessionState }
  | { kind: "none" }
  | { kind: "unverified"; why: string };

/**
 * Read and verify one session file at `path` (as {@linkcode writeSessionState} wrote it: the path
 * is part of its seal).
 *
 * @param path the file
 * @param env where the user's key is (default the process's environment)
 * @returns what it holds; never throws (an unreadable file is `none`)
 */
export async function openSessionFile(
  path: string,
  env?: Record<string, string | undefined>,
): Promise<SessionRead> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return { kind: "none" };
  }
  const opened = await openSealed(text, `session ${path}`, env);
  if (!opened.ok) return { kind: "unverified", why: opened.why };
  const data = opened.value;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { kind: "none" };
  if (typeof (data as SessionState).consecutiveBlocks !== "number") return { kind: "none" };
  return { kind: "ok", state: data as SessionState };
}

/**
 * Every session file of a state dir, read and verified (nothing noted: the caller names what
 * matters).
 *
 * @param state the state dir
 * @param env where the user's key is (default the process's environment)
 * @returns file name (`<id>.json`) → what it holds, in name order; empty when `sessions/` is absent
 * @throws Deno.errors from listing `sessions/` other than NotFound
 */
export async function readAllSessions(
  state: string,
  env?: Record<string, string | undefined>,
): Promise<{ name: string; read: SessionRead }[]> {
  const dir = join(state, "sessions");
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  names.sort();
  return await Promise.all(
    names.map(async (name) => ({ name, read: await openSessionFile(join(dir, name), env) })),
  );
}

/**
 * Write a session's state atomically (creates `sessions/` when missing).
 *
 * @param state the state dir
 * @param session the untrusted session id and its state; `fileName` (a name
 *   {@linkcode sessionFileName} gave, as read from `sessions/`) instead of the id; `now` the clock
 *   for pruning (records older than {@linkcode PRUNE_AFTER_MS} go, at most once a day)
 * @throws {Deno.errors.PermissionDenied} and other file-system errors when `sessions/` or the file
 *   cannot be written (no temp file is left behind); an `Error` when there is no key to seal it
 *   with
 */
export async function writeSessionState(
  state: string,
  session: { sessionId: string; value: SessionState; fileName?: string; now?: Date },
): Promise<void> {
  const dir = join(state, "sessions");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = session.fileName ?? await sessionFileName(session.sessionId);
  if (!/^[A-Za-z0-9_-]{1,128}\.json$/.test(name)) throw new Error(`not a session file: ${name}`);
  const path = join(dir, name);
  await writeStoreFile(path, await sealJson(session.value, `session ${path}`));
  // records no hook wrote for PRUNE_AFTER_MS: every push and new session reads them all — but a
  // turn no Stop answered for stays (lib/store/unanswered.ts)
  await pruneOldFiles(dir, {
    ...{ now: session.now ?? new Date(), afterMs: PRUNE_AFTER_MS, everyMs: PRUNE_EVERY_MS },
    suffixes: [".json"],
    keep: async (entry) => {
      const read = await openSessionFile(entry.path);
      return read.kind === "ok" && unansweredReason(read.state) !== null;
    },
  }).catch(() => {}); // best effort
}

/**
 * Remove a session's state file (nothing when there is none).
 *
 * @param state the state dir
 * @param sessionId the untrusted session id
 * @throws Deno.errors from the file system other than NotFound
 */
export async function removeSessionState(state: string, sessionId: string): Promise<void> {
  await Deno.remove(join(state, "sessions", await sessionFileName(sessionId))).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}
