/**
 * The turn gate's start (docs/design.md "Turn gate"), agent-neutral: on the user's prompt (Claude
 * Code's
 * `UserPromptSubmit`, through its door lib/gates/claude/door.ts) record the turn's baseline — the
 * worktree as a tree id, untracked files through a temporary index (the user's index is never
 * touched), the ignored untracked entries (lib/gates/turn/ignored.ts), the local refs
 * (lib/gates/turn/refs.ts) — the prompt's text (what the user asked for this turn) and
 * fingerprints of the files outside the tree that control the gate (lib/gates/turn/guard.ts),
 * reset the block counter, and anchor the session on this repository (lib/gates/turn/locate.ts),
 * so the stop finds it from any cwd. The baseline moves forward only past work a Stop answered
 * for ({@linkcode turnStart}): after such a Stop the turn starts from what that Stop saw, after a
 * turn no Stop answered for it keeps the earlier start and adds this prompt to the turn's prompts,
 * so nothing the agent (or anyone) wrote since the last answer becomes a baseline unseen. Failures
 * are reported on stderr only and never block.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { snapshotWorktree, type WorktreeSnapshot } from "../../git/live_tree.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { ensureStateDir, stateDir } from "../../store/state.ts";
import { readAnchor, writeAnchor } from "../../store/anchors.ts";
import {
  MAX_PROMPT_CHARS,
  readSessionState,
  sessionFileName,
  type SessionState,
  type TurnStart,
  turnStartOf,
  writeSessionState,
} from "../../store/sessions.ts";
import { readTurnRefs } from "./refs.ts";
import { removeStopStamp, writeStopStamp } from "../../store/stop_stamps.ts";
import { type GuardedBlob, guardedBlobs, stopStampText } from "./stop_stamp.ts";
import { ALLOW, describeFailure, type HookInput, type HookOutput } from "../hook_io.ts";
import { type GateContext, openGate } from "./context.ts";
import type { Repo } from "../../git/repo.ts";
import {
  fingerprintFiles,
  type GitControl,
  gitControl,
  type GuardedFile,
  guardedFiles,
  type GuardRecord,
  hooksDirOf,
  providerPrograms,
} from "./guard_files.ts";
import type { TurnDoor } from "./door.ts";
import { hasSubmodules } from "./unseen.ts";
import { ignoredListing, listingEntries, MAX_IGNORED_ENTRIES } from "./ignored.ts";
import { blobId } from "../../git/blob_id.ts";
import { readUserConfigText } from "../../config/config.ts";
import { reviewerRecord } from "./reviewer_identity.ts";
import { otherWorktreeStates } from "./other_worktrees.ts";
import { isBlockContinuation } from "./continuation.ts";

/**
 * The turn's start: record the baseline tree and prompt of this turn, reset the block counter,
 * anchor the session.
 *
 * @param input the hook's input
 * @param door the agent's front door
 * @returns always exit 0 with no stdout (plain stdout would be added to the agent's context);
 *   stderr says why malformed input was ignored or why the baseline was not recorded
 */
export async function recordBaseline(input: HookInput, door: TurnDoor): Promise<HookOutput> {
  try {
    // The previous turn's stop stamp goes first: whatever happens next, it no longer holds.
    const parsed = door.parse(input.stdinText);
    if (parsed.ok) await removeStopStamp(input.env, parsed.payload.session_id);
    const opened = await openGate(input, door, "prompt");
    if (opened.kind !== "open") {
      // Gate off on disk: whether the user did it (not a write after the last stop) is for the
      // stop's trusted config to judge (it forgets the session then). Keep it, and this prompt.
      if (opened.kind === "skip" && opened.disabledIn) {
        await keepPrompt(opened.disabledIn, input, door);
      }
      return { ...ALLOW, stderr: opened.kind === "skip" && opened.why ? `${opened.why}\n` : "" };
    }
    return await startTurn(input, opened.gate);
  } catch (error) {
    return {
      stdout: "",
      stderr: sanitizeForTerminal(
        `review-gate: could not record the turn baseline: ${describeFailure(error)}\n`,
      ),
      exitCode: 0,
    };
  }
}

/**
 * Record the turn's start for an open gate (see {@linkcode recordBaseline}).
 *
 * @throws whatever the snapshot, the state dir or the session record's write throws
 */
async function startTurn(input: HookInput, gate: GateContext): Promise<HookOutput> {
  // before the snapshot: an ignore file written while it is taken counts as the turn's. The
  // system clock, not the injected one: it is compared with file modification times.
  const startedAt = new Date();
  const state = await ensureStateDir(gate.repo.commonDir);
  const [snapshot, { guard, blobs, userConfig }, ignored, refs] = await Promise.all([
    snapshotWorktree(input.runner, gate.repo, { withIndexId: true }).then(
      (taken) => ({ tree: taken.tree, taken, error: null }),
      (error: unknown) => ({ tree: undefined, taken: undefined, error }),
    ),
    recordGuard(input, gate.repo),
    // an error leaves the entries unrecorded: the stop then counts every ignored entry as new
    ignoredListing(input.runner, gate.repo).catch(() => null),
    // an error leaves the refs unrecorded: the stop then reviews the worktree only
    readTurnRefs(input.runner, gate.repo).catch(() => null),
  ]);
  const ignoredAtStart = ignored && listingEntries(ignored);
  const sessionId = gate.payload.session_id;
  const previous = await readSessionState(state, sessionId);
  // the host handing back our block's reason: the same turn goes on (lib/gates/turn/continuation.ts)
  if (gate.door.blockReasonIsPrompt && isBlockContinuation(previous, gate.payload.prompt ?? "")) {
    return ALLOW;
  }
  // anchored here by an earlier prompt, yet no state: what the session did before is unknown
  const lost = !previous && (await readAnchor(input.env, sessionId))?.root === gate.repo.root;
  const fresh: TurnStart = {
    ...{ baselineTree: snapshot.tree, baselineRefs: refs?.refs, guard },
    otherWorktrees: refs?.otherHeads,
    ignoredAtStart: ignoredAtStart && ignoredAtStart.length <= MAX_IGNORED_ENTRIES
      ? ignoredAtStart
      : undefined,
    ...{ turnStartedAt: startedAt.toISOString(), configAtStart: gate.config },
    ...{ userConfigAtStart: userConfig, lostBefore: lost || undefined },
    reviewerAtStart: await reviewerRecord(input.env, gate.config.provider, gate.repo.root),
    otherWorktreeStates: refs && refs.otherHeads.length
      ? await otherWorktreeStates(input.runner, gate.repo, refs.otherHeads)
      : undefined,
  };
  // a session's first turn starts where the worktree's other sessions left unanswered work
  const taken = previous ? null : await takeOver(input, {
    ...{ repo: gate.repo, state, sessionId },
  });
  const { start, prompt } = turnStart(
    previous,
    taken ? { ...fresh, ...taken } : fresh,
    gate.payload.prompt ?? "",
  );
  // A new turn starts even when its snapshot failed: the prompt is this turn's; without an
  // earlier baseline to keep, the stop then says the turn's start was not seen.
  await writeSessionState(state, {
    sessionId,
    value: {
      ...previous,
      ...start,
      root: gate.repo.root,
      answered: undefined,
      prompt,
      consecutiveBlocks: 0,
      updatedAt: input.now().toISOString(),
    },
  });
  await writeAnchor(input.env, { sessionId, root: gate.repo.root, now: input.now() });
  if (snapshot.error) throw snapshot.error;
  // the installed script may allow by itself only a stop that would find nothing since `start`
  // ... and never over work it must name (its own or another session's, unknown)
  const unknown = start.lostBefore || (start.lostOthers?.length ?? 0) > 0;
  // ... nor while other worktrees exist: the script looks at this one only
  const alone = refs !== null && refs.otherHeads.length === 0;
  if (snapshot.taken && ignored && refs && alone && !unknown && sameStart(start, fresh)) {
    await stampStop(input, {
      ...{ repo: gate.repo, sessionId, state, blobs, ...snapshot.taken },
      ...{ ignored, refsListing: refs.listing },
    });
  }
  return ALLOW;
}

/**
 * What a session's first turn takes over from the worktree's other sessions
 * (lib/gates/turn/inherit.ts): their start, the turns it answers for, the sessions whose work is
 * unknown. Records that cannot be listed make that work unknown too.
 */
async function takeOver(
  input: HookInput,
  at: { repo: Repo; state: string; sessionId: string },
): Promise<Partial<TurnStart>> {
  const { worktreeStart } = await import("./inherit.ts");
  const own = await sessionFileName(at.sessionId);
  const taken = await worktreeStart(at.repo, {
    ...{ own, state: at.state, env: input.env, now: input.now() },
  }).catch(() => ({ inherited: [], lost: ["the session records (they could not be listed)"] }));
  const inherited = "start" in taken && taken.start ? taken.start : {};
  // what the taken-over start did not record, this prompt's own record gives
  const start = Object.fromEntries(
    Object.entries(inherited).filter(([, value]) => value !== undefined),
  ) as Partial<TurnStart>;
  return {
    ...start,
    ...(taken.inherited.length ? { inherited: taken.inherited } : {}),
    ...(taken.lost.length ? { lostOthers: taken.lost } : {}),
  };
}

/**
 * Where this turn starts (README "Claude Code Stop"): the baseline moves forward only past work a
 * Stop answered for. After such a Stop, its record (`answered`: what it reviewed, taken when it
 * looked, so writes landing after it and the user's edits between turns belong to this turn);
 * after a turn no Stop answered for (its Stop never ran, blocked last, or could not review), the
 * earlier start, with the prompts of every turn since; else (the session's first turn) the
 * worktree now.
 *
 * @param previous the session as the last hook left it
 * @param fresh what this prompt recorded
 * @param prompt this turn's prompt
 * @returns the start and the prompts since it (the last {@linkcode MAX_PROMPT_CHARS} characters)
 */
export function turnStart(
  previous: SessionState | null,
  fresh: TurnStart,
  prompt: string,
): { start: TurnStart; prompt: string } {
  if (previous?.answered?.baselineTree) {
    return { start: turnStartOf(previous.answered), prompt: prompt.slice(0, MAX_PROMPT_CHARS) };
  }
  if (previous?.baselineTree) {
    const prompts = previous.prompt ? `${previous.prompt}\n\n${prompt}` : prompt;
    return { start: turnStartOf(previous), prompt: prompts.slice(-MAX_PROMPT_CHARS) };
  }
  return { start: turnStartOf(fresh), prompt: prompt.slice(0, MAX_PROMPT_CHARS) };
}

/** Whether a kept start is what the prompt saw now (the stop stamp may then be written). */
function sameStart(start: TurnStart, fresh: TurnStart): boolean {
  const json = (v: unknown) => JSON.stringify(v ?? null);
  return start.baselineTree === fresh.baselineTree &&
    json(start.baselineRefs) === json(fresh.baselineRefs) &&
    json(start.guard) === json(fresh.guard) &&
    json(start.ignoredAtStart) === json(fresh.ignoredAtStart);
}

/**
 * Fingerprints of the files outside the tree that control the gate (lib/gates/turn/guard.ts), and
 * their blob ids for the stop stamp, taken just before the fingerprints (`null` when the files
 * changed while they were taken: then no stamp is written); and the user config's text, which a
 * push during the turn trusts instead of the file's later values (lib/gates/pre_push/user_config.ts).
 */
async function recordGuard(
  input: HookInput,
  repo: Repo,
): Promise<{
  guard: GuardRecord;
  blobs: GuardedBlob[] | null;
  userConfig: NonNullable<TurnStart["userConfigAtStart"]>;
}> {
  const [hooksDir, control] = await Promise.all([
    hooksDirOf(input.runner, repo),
    gitControl(input.runner, repo),
  ]);
  const guarded = guardedFiles(repo, input.env, hooksDir, control);
  const paths = guarded.map((f) => f.path);
  const userConfig = await readUserConfigText(input.env);
  const before = await guardedBlobs(paths, repo.objectFormat);
  const guard = await fingerprinted(guarded, { hooksDir, control, env: input.env });
  const after = await guardedBlobs(paths, repo.objectFormat);
  const same = after.every((b, i) => b.id === before[i].id);
  return { guard, blobs: same ? after : null, userConfig };
}

/**
 * What a turn's start records of the files outside the tree that control the gate
 * (lib/gates/turn/guard_files.ts): their fingerprints, the hooks dir and the git config digest.
 * The stop takes it too, for the start it leaves the next turn.
 *
 * @throws {import("../../base/errors.ts").GitError} when git cannot read the hooks dir or config
 */
export async function guardRecord(
  input: Pick<HookInput, "runner" | "env">,
  repo: Repo,
): Promise<GuardRecord> {
  const [hooksDir, control] = await Promise.all([
    hooksDirOf(input.runner, repo),
    gitControl(input.runner, repo),
  ]);
  return await fingerprinted(guardedFiles(repo, input.env, hooksDir, control), {
    hooksDir,
    control,
    env: input.env,
  });
}

async function fingerprinted(
  guarded: readonly GuardedFile[],
  at: {
    hooksDir: string | null;
    control: GitControl | null;
    env: Record<string, string | undefined>;
  },
): Promise<GuardRecord> {
  const { control, env } = at;
  return {
    files: await fingerprintFiles(guarded),
    hooksDir: at.hooksDir,
    ...(control ? { gitConfig: control.digest } : {}),
    ...(control?.attributesFile ? { attributesFile: control.attributesFile } : {}),
    ...(control?.includes.length ? { includes: control.includes } : {}),
    programs: providerPrograms(env),
  };
}

/**
 * Leave the stop stamp for `hooks/turn-stop.sh` (lib/gates/turn/stop_stamp.ts): only for a
 * snapshot that left nothing out and started from an index with no submodule, with guarded files
 * that held still.
 */
async function stampStop(
  input: HookInput,
  at: WorktreeSnapshot & {
    repo: Repo;
    sessionId: string;
    state: string;
    blobs: GuardedBlob[] | null;
    ignored: Uint8Array;
    refsListing: string;
  },
): Promise<void> {
  if (!at.blobs || !at.indexId || at.excluded.length > 0) return;
  const format = at.repo.objectFormat;
  // an edit inside a submodule leaves the tree as it was: only review-gate's own stop sees it
  if (await hasSubmodules(input.runner, at.repo)) return;
  const text = stopStampText({
    repo: at.repo,
    sessionFile: join(at.state, "sessions", await sessionFileName(at.sessionId)),
    indexId: at.indexId,
    tree: at.tree,
    ignoredId: await blobId(at.ignored, format),
    refsId: await blobId(new TextEncoder().encode(at.refsListing), format),
    guard: at.blobs,
  });
  if (text) {
    await writeStopStamp(input.env, at.sessionId, { text, format: at.repo.objectFormat });
  }
}

/**
 * Add this prompt to the prompts of a session the gate's config on disk has switched off, and end
 * its block streak (the user spoke).
 */
async function keepPrompt(repo: Repo, input: HookInput, door: TurnDoor): Promise<void> {
  const parsed = door.parse(input.stdinText);
  if (!parsed.ok) return;
  const state = stateDir(repo.commonDir);
  const sessionId = parsed.payload.session_id;
  const session = await readSessionState(state, sessionId).catch(() => null);
  if (!session) return;
  const prompt = parsed.payload.prompt ?? "";
  if (door.blockReasonIsPrompt && isBlockContinuation(session, prompt)) return;
  const prompts = session.prompt ? `${session.prompt}\n\n${prompt}` : prompt;
  // the user's prompt ends a block streak whatever the config on disk says: a cap the agent sat
  // out once must not keep every later turn allowed
  const value = session.baselineTree
    ? { ...session, prompt: prompts.slice(-MAX_PROMPT_CHARS), consecutiveBlocks: 0 }
    : { ...session, consecutiveBlocks: 0 };
  await writeSessionState(state, { sessionId, value }).catch(() => {});
}

/**
 * Forget the session's baseline: the stop's trusted config has the gate off (the user turned it
 * off), so what the session kept describes turns before that.
 *
 * @param repo the repository whose state dir holds the session
 * @param sessionId the untrusted session id
 */
export async function forgetSession(repo: Repo, sessionId: string): Promise<void> {
  // a record without a baseline, not no record: the next prompt must not read it as state lost
  const value = { consecutiveBlocks: 0 };
  await writeSessionState(stateDir(repo.commonDir), { sessionId, value }).catch(() => {});
}
