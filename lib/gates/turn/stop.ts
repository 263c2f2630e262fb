/**
 * The turn gate's stop (docs/design.md "Turn gate"), agent-neutral: an agent's front door (Claude
 * Code's is
 * lib/gates/claude/door.ts) hands it the hook input; it reviews baseline → current worktree and
 * blocks on blocking findings. The baseline is recorded at the turn's start by
 * lib/gates/turn/baseline.ts (the worktree as a tree id; untracked files through a temporary index,
 * the user's index is never touched) and moves forward only past work a stop answered for: a stop
 * that lets a review's verdict stand records what it saw as the next turn's start
 * (lib/gates/turn/decision.ts `answered`). Refs that moved during the turn and hold commits the
 * worktree does not show are reviewed too (lib/gates/turn/refs.ts, lib/gates/turn/ref_review.ts),
 * in the same answer. A stop with no baseline (its start not seen, its state gone) follows
 * `on_error`. All the work is bounded: what is not done 5 s after the internal deadline is dropped
 * and the stop answers "NOT reviewed: too large to review" (`on_partial`).
 *
 * The repository is the one the session's turn started in (lib/gates/turn/locate.ts), not the
 * agent's moving cwd; an anchor that is gone allows with a "NOT reviewed" note saying why, and a cwd
 * in another repository adds a note that its changes are not reviewed here.
 *
 * Fast paths, in order, each before any heavy module loads: skip switches (`REVIEW_GATE=0`,
 * `REVIEW_GATE_CHILD=1`); malformed stdin (the reason on stderr) or another event; no repository;
 * gate disabled; no baseline (record one; `on_error` decides, loudly); nothing changed
 * since the baseline (allow, no model call) — unless lib/gates/turn/unseen.ts finds a nested
 * repository or a submodule with uncommitted changes, or lib/gates/turn/ignored.ts files the turn
 * hid behind a `.gitignore` it wrote, which the answer names as not reviewed (`on_partial`
 * applies); the same change as the last review — same baseline
 * *and* same tree — (reuse its verdict). Stops of one
 * session are serialised by a lock file `sessions/<id>.lock` (`Deno.FsFile.lock`); a stop that
 * cannot get it before the internal deadline allows with a message. Loops are impossible: a stop
 * that follows our own block counts towards `max_blocks` consecutive blocks, after which the gate
 * allows with a message — and keeps allowing until the user's next prompt or a stop allowed on its
 * merits (the cap is not a reset). Once the config is read, anything that goes wrong — a review that could
 * not run or an internal error (a git snapshot that fails, a broken state dir) — follows
 * `on_error`: allow with a loud `systemMessage` by default, block (counted and capped) with
 * `on_error: block`. Before the config is read, an error allows with a message. The decision,
 * review and failure modules are loaded only on the paths that use them: a turn that changed
 * nothing loads none of them.
 *
 * Parts: lib/gates/turn/context.ts (fast paths, payload, repo, config), lib/store/session_lock.ts,
 * lib/gates/turn/review.ts (the deadline-bounded review), lib/gates/turn/decision.ts (block, allow
 * or cap) and lib/gates/turn/failure.ts (`on_error`).
 *
 * @module
 */
import { ensureStateDir } from "../../store/state.ts";
import {
  readSessionState,
  type SessionState,
  type TurnStart,
  writeSessionState,
} from "../../store/sessions.ts";
import { takeStateNotes } from "../../store/sealed.ts";
import type { TurnDoor } from "./door.ts";
import type { ExecRequest, Runner } from "../../exec/exec.ts";
import { type GateContext, type GateOpening, hookSeconds, openGate } from "./context.ts";
import { ALLOW, type HookInput, type HookOutput } from "../hook_io.ts";
import { lockSession } from "../../store/session_lock.ts";
import { removeStopStamp } from "../../store/stop_stamps.ts";
import { pokedInTurn } from "../../store/turn_work.ts";
import type { StoredVerdict } from "./decision.ts";
import { guardFindings } from "./guard.ts";
import { carryHold, configFindings, heldAtCap, heldNote } from "./guard_config.ts";
import { snapshotTurn, withUnseen } from "./unseen.ts";
import { ignoredByTurn, ignoredListing, listingEntries, MAX_IGNORED_ENTRIES } from "./ignored.ts";
import { checkedOutElsewhere, othersWillReview } from "./busy.ts";
import { movedRefParts, readTurnRefs, type RefPart, type TurnRefs } from "./refs.ts";
import type { Repo } from "../../git/repo.ts";
import { forgetSession, guardRecord } from "./baseline.ts";
import { readUserConfigText } from "../../config/config.ts";
import { reviewerRecord } from "./reviewer_identity.ts";
import { otherWorktreeStates, unseenInOtherWorktrees } from "./other_worktrees.ts";

/**
 * The skip record of a Stop the disabled gate let through (README "Skips").
 *
 * @returns a stderr line when the record could not be written, else ""
 */
async function recordDisabledStop(input: HookInput, door: TurnDoor, repo: Repo): Promise<string> {
  const { recordSkip, stopSkip } = await import("../skip_record.ts");
  const where = `the ${door.gateName} gate is disabled in the config`;
  const record = stopSkip(
    { env: input.env, cwd: input.cwd, now: input.now() },
    { gate: door.gateName, stdinText: input.stdinText, repo: repo.commonDir },
    { reason: "disabled", where },
  );
  return await recordSkip(input.env, record);
}

/** Seconds kept between our internal deadline and the hook timeout Claude Code enforces. */
export const DEADLINE_MARGIN_SECONDS = 15;

/**
 * Stop: review what this turn changed and block on blocking findings.
 *
 * @param input the hook's input
 * @param door the agent's front door (payload, event names, gate name and config)
 * @returns exit 0 always; stdout empty (allow), a `systemMessage` (allow with a note) or a block
 */
export async function runStopGate(input: HookInput, door: TurnDoor): Promise<HookOutput> {
  const started = input.now().getTime();
  let opened: GateOpening;
  try {
    opened = await openBounded(input, door);
  } catch (error) {
    return (await import("./failure.ts")).failSafe(error);
  }
  if (opened.kind === "skip") {
    // the gate is off by the trusted config: the session's baseline is stale from here on
    const parsed = opened.disabledIn ? door.parse(input.stdinText) : null;
    if (parsed?.ok) await forgetSession(opened.disabledIn!, parsed.payload.session_id);
    const recorded = opened.disabledIn
      ? await recordDisabledStop(input, door, opened.disabledIn)
      : "";
    return { ...ALLOW, stderr: (opened.why ? `${opened.why}\n` : "") + recorded };
  }
  if (opened.kind === "not-reviewed") {
    const { buildStopMessage } = await import("./answer.ts");
    const text = `review-gate: this turn was NOT reviewed: ${opened.reason}`;
    return { stdout: buildStopMessage(text), stderr: `${text}\n`, exitCode: 0 };
  }
  const gate = opened.gate;
  const timeout = hookSeconds(gate);
  const deadline = started + Math.max(5, timeout - DEADLINE_MARGIN_SECONDS) * 1000;
  const output = await boundedStop(input, {
    ...gate,
    deadline,
    answerBy(seconds: number) {
      return Math.max(deadline, Math.min(deadline + 5_000, started + (seconds - 2) * 1000));
    },
  }, timeout);
  // state that did not verify was ignored (lib/store/sealed.ts): the stop's answer names it
  const notes = [...gate.notes, ...takeStateNotes()];
  if (notes.length === 0) return output;
  return (await import("./answer.ts")).withNotes(output, notes);
}

/**
 * All the stop's work — the snapshot, the refs, the review with its tree copy and proof — runs
 * under one signal; if it is not done by `gate.answerBy(timeout)` (at most 5 s after the internal
 * deadline, 2 s before the hook's timeout), the stop answers without it — NOT reviewed, too large
 * to review in the hook's time — and the work's git children are killed, so the host never kills a
 * silent hook (Claude Code treats that as a non-blocking error).
 */
async function boundedStop(
  input: HookInput,
  gate: GateContext & { deadline: number; answerBy(seconds: number): number },
  timeout: number,
): Promise<HookOutput> {
  const late = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, late.signal]) : late.signal;
  const bounded: HookInput = { ...input, signal, runner: withSignal(input.runner, signal) };
  const work = lockedStop(bounded, gate).catch(async (error) =>
    await (await import("./failure.ts")).gateFailed(gate, error)
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overdue = new Promise<null>((resolve) => {
    const wait = gate.answerBy(timeout) - input.now().getTime();
    timer = setTimeout(() => resolve(null), Math.max(0, wait));
  });
  const output = await Promise.race([work, overdue]);
  clearTimeout(timer);
  if (output !== null) return output;
  late.abort(new Error("the Stop hook's deadline passed"));
  return await (await import("./failure.ts")).tooLargeToReview(gate, timeout);
}

/**
 * Longest the gate may take to open (find the repository, read the session and the config), ms:
 * the hook's timeout is not known before the config is read, so this stays well inside the least
 * one allowed (20 s), leaving the rest of the work its deadline.
 */
export const OPEN_LIMIT_MS = 10_000;

/**
 * {@linkcode openGate} bounded by {@linkcode OPEN_LIMIT_MS}: its git calls are killed then.
 *
 * @throws an Error saying the gate could not open in time (the stop then allows, NOT reviewed),
 *   and whatever `openGate` throws
 */
async function openBounded(input: HookInput, door: TurnDoor): Promise<GateOpening> {
  const late = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, late.signal]) : late.signal;
  const bounded: HookInput = { ...input, runner: withSignal(input.runner, signal) };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overdue = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), OPEN_LIMIT_MS);
  });
  try {
    const opened = await Promise.race([openGate(bounded, door, "stop"), overdue]);
    if (opened) return opened;
    late.abort(new Error("the Stop gate could not open in time"));
    throw new Error(
      `finding the repository, the session and the config took longer than ${
        OPEN_LIMIT_MS / 1000
      } s`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** `runner` with `signal` on every request that has none: an abort kills the child. */
function withSignal(runner: Runner, signal: AbortSignal): Runner {
  return (request: ExecRequest) => runner({ ...request, signal: request.signal ?? signal });
}

async function lockedStop(
  input: HookInput,
  gate: GateContext & { deadline: number },
): Promise<HookOutput> {
  const state = await ensureStateDir(gate.repo.commonDir);
  const lost = await gate.door.claimStop?.(state, gate.payload, input.now());
  if (lost) return lost;
  const release = await lockSession(state, {
    sessionId: gate.payload.session_id,
    waitMs: gate.deadline - input.now().getTime(),
  });
  if (!release) {
    return {
      stdout: (await import("./answer.ts")).buildStopMessage(
        "review-gate: this stop was NOT reviewed: another review of this session is running",
      ),
      stderr: "",
      exitCode: 0,
    };
  }
  try {
    return await stopWithGate(input, { ...gate, state });
  } finally {
    release();
  }
}

async function stopWithGate(
  input: HookInput,
  gate: GateContext & { state: string; deadline: number },
): Promise<HookOutput> {
  const { payload, state } = gate;
  const session: SessionState = (await readSessionState(state, payload.session_id)) ??
    { consecutiveBlocks: 0 };
  // Patches accumulate: a later save (the block counter) must not drop an earlier one (the verdict).
  const save = async (patch: Partial<SessionState>) => {
    Object.assign(session, patch);
    await writeSessionState(state, {
      sessionId: payload.session_id,
      value: { ...session, updatedAt: input.now().toISOString() },
    });
    // answering for the work answers for the other sessions' turns this one took over
    if (patch.answered && session.inherited?.length) {
      const { answerInherited } = await import("./inherit.ts");
      await answerInherited(state, {
        ...{ inherited: session.inherited, answered: patch.answered, now: input.now() },
      });
    }
  };
  const work: TurnWork = {};
  const output = await reviewSinceStart(input, { ...gate, session, save, work });
  if (
    gate.gate.review_while_working && session.turnStartedAt &&
    await pokedInTurn(state, payload.session_id, session.turnStartedAt)
  ) {
    // the turn's background work is over once the Stop answered: the worker stops, the tally stays
    // (a turn whose tool hook never ran has no worker: nothing is written; docs/design.md "Review
    // while working")
    const { endWork } = await import("./await_work.ts");
    await endWork({
      ...{ state, sessionId: payload.session_id, turn: session.turnStartedAt },
      ...{ gate: gate.door.gateName, wait: work.wait ?? null, parts: work.parts },
    });
  }
  const took = (session.inherited ?? []).filter((t) => t.updatedAt !== null).map((t) => t.name);
  if (took.length === 0) return output;
  return (await import("./answer.ts")).withNotes(output, [
    `This review started where ${
      took.length === 1 ? "another session" : `${took.length} other sessions`
    } of this worktree left work no Stop answered for (sessions/${took.join(", sessions/")}).`,
  ]);
}

/** What the turn's background work gave the Stop (lib/gates/turn/await_work.ts). */
interface TurnWork {
  wait?: import("./await_work.ts").WorkWait;
  parts?: import("./review.ts").PartUsage[];
}

async function reviewSinceStart(
  input: HookInput,
  gate: GateContext & {
    state: string;
    deadline: number;
    session: SessionState;
    save: (patch: Partial<SessionState>) => Promise<void>;
    work: TurnWork;
  },
): Promise<HookOutput> {
  const { payload, repo, session, save } = gate;
  const looked = await lookNow(input, gate, session);
  const { current, outside, entriesNow, refsNow, others } = looked;
  // a config change held back stays held in the start this stop leaves the next turn
  const seen = carryHold(looked.seen, session, { hold: gate.hold ?? null, now: input.now() });
  const baseline = session.baselineTree;
  if (!baseline) {
    await removeStopStamp(input.env, payload.session_id);
    return await startNotSeen(gate, { session, seen, save });
  }
  const { moved, unseen } = await sinceBaseline(input, {
    ...{ repo, session, baseline, current, entriesNow, refsNow, outside, state: gate.state },
    others,
  });
  const guard = [
    ...configFindings(repo, gate.hold ?? null),
    ...await guardFindings(input.runner, {
      ...{ repo, env: input.env, record: session.guard, prompt: session.prompt },
      configJudged: session.configAtStart !== undefined,
      ...{ baseline, current },
    }),
  ];
  const held = heldNote(repo, gate.hold ?? null);
  const out = await decideSinceStart(input, {
    ...{ gate, seen, guard, baseline, current, moved, unseen },
  });
  return held ? (await import("./answer.ts")).withNotes(out, [held]) : out;
}

/** The stop's answer once it knows what changed since the baseline and what the guard found. */
async function decideSinceStart(
  input: HookInput,
  at: {
    gate: GateContext & {
      state: string;
      deadline: number;
      session: SessionState;
      save: (patch: Partial<SessionState>) => Promise<void>;
      work: TurnWork;
    };
    seen: TurnStart;
    guard: import("../messages.ts").GateFinding[];
    baseline: string;
    current: string;
    moved: { parts: RefPart[] };
    unseen: string[];
  },
): Promise<HookOutput> {
  const { gate, seen, guard, baseline, current, moved, unseen } = at;
  const { payload, session, save } = gate;
  if (
    current === baseline && guard.length === 0 && unseen.length === 0 && moved.parts.length === 0
  ) {
    await save({ consecutiveBlocks: 0, answered: seen });
    return ALLOW;
  }
  // The turn changed something: the installed script's stamp (hooks/turn-stop.sh) no longer says
  // "allow" for this session — a later stop back at the baseline must reset the block count here.
  await removeStopStamp(input.env, payload.session_id);
  const turn = { ...gate, session, save, baseline, current };
  let verdict: StoredVerdict = current === baseline
    ? { status: "nothing-to-review", runDir: "", blocking: [] }
    : await turnVerdict(input, { ...turn, keep: guard.length === 0 });
  if (moved.parts.length > 0) {
    // the moved refs' commits too are reviewed by the provider "auto" chose at the turn's start
    const { pinnedConfig } = await import("./reviewer_identity.ts");
    const config = pinnedConfig(turn.config, session.reviewerAtStart);
    const { reviewRefParts } = await import("./ref_review.ts");
    verdict = config === null
      ? await noProviderAtStart()
      : await reviewRefParts(input, { ...turn, config, worktree: verdict, parts: moved.parts });
  }
  // Nested repositories and uncommitted submodule edits are not in the tree: named, never silent.
  verdict = withUnseen(verdict, unseen);
  if (guard.length) verdict = { ...verdict, blocking: [...guard, ...verdict.blocking] };
  return await (await import("./decision.ts")).decideStop(verdict, {
    // Blocks in a row since the last allow or user prompt. Counted whether or not the agent marks
    // the stop with `stop_hook_active`, so the cap holds even if that flag is missing or wrong.
    streak: session.consecutiveBlocks,
    maxBlocks: gate.gate.max_blocks,
    onError: gate.gate.on_error,
    onPartial: gate.gate.on_partial,
    mode: gate.gate.mode,
    ...(gate.gate.mode === "warn"
      ? {
        modeFrom: await (await import("./warn_from.ts")).turnWarnFrom({
          root: gate.repo.root,
          env: input.env,
          gateConfig: (c) => gate.door.gateConfig(c),
        }),
      }
      : {}),
    gateName: gate.door.gateName,
    save,
    answered: seen,
    heldAtCap: heldAtCap(gate.repo, gate.hold ?? null),
  });
}

/** Named by a stop whose turn's start found the session's state gone. */
const LOST_BEFORE =
  "what this session changed before this turn's start (its state was deleted or does not verify)";

/**
 * What the turn did besides its worktree's tree: the commits its moved refs hold (reviewed as parts
 * of the turn), and what no review can show — the session's work before a start that found its
 * state gone, nested repositories and dirty submodules (`outside`), files hidden behind an ignore
 * file the turn wrote, refs past the limit (named, never silent).
 */
async function sinceBaseline(
  input: HookInput,
  at: {
    repo: Repo;
    session: SessionState;
    baseline: string;
    current: string;
    entriesNow: string[];
    refsNow: TurnRefs | null;
    outside: string[];
    state: string;
    /** The other worktrees' states now (lib/gates/turn/other_worktrees.ts). */
    others?: Record<string, string>;
  },
): Promise<{ moved: { parts: RefPart[] }; unseen: string[] }> {
  const { repo, session, baseline, current, refsNow } = at;
  const hidden = await ignoredByTurn(input.runner, {
    repo,
    baselineTree: baseline,
    before: session.ignoredAtStart,
    now: at.entriesNow,
    startedAt: session.turnStartedAt ? Date.parse(session.turnStartedAt) : undefined,
  });
  const moved = session.baselineRefs && refsNow
    ? await movedRefParts(input.runner, {
      ...{ repo, baseline, current, before: session.baselineRefs, now: refsNow.refs },
      busy: await othersWillReview({
        ...{ state: at.state, env: input.env, now: input.now(), before: session.baselineRefs! },
        own: repo.root,
        checkedOut: await checkedOutElsewhere(repo, session.otherWorktrees ?? []),
      }),
    })
    : { parts: [], unseen: [] };
  const elsewhere = session.otherWorktreeStates
    ? await unseenInOtherWorktrees({
      ...{ state: at.state, env: input.env, now: input.now() },
      before: session.otherWorktreeStates,
      after: at.others ?? {},
    })
    : [];
  const lost = [
    ...elsewhere,
    ...(session.lostBefore ? [LOST_BEFORE] : []),
    ...(session.lostOthers ?? []).map((name) =>
      name.endsWith(".json")
        ? `what another session changed in this worktree (sessions/${name}: its record was deleted or does not verify)`
        : `what other sessions changed in this worktree (${name})`
    ),
  ];
  return { moved, unseen: [...lost, ...at.outside, ...hidden, ...moved.unseen] };
}

/**
 * What the stop sees now, all at once: the worktree's tree and what it cannot show, the ignored
 * entries, the refs and the guarded files — and, as a {@linkcode TurnStart}, the start the next
 * turn takes if this stop answers for the work (taken before the review, so writes landing during
 * or after it are the next stop's to review).
 */
async function lookNow(input: HookInput, gate: GateContext, session: SessionState) {
  const { repo } = gate;
  // The system clock, not the injected one: the next turn compares it with file modification times.
  const lookedAt = new Date();
  const [{ tree: current, unseen: outside }, ignoredNow, refsNow, guardNow, userConfig] =
    await Promise.all([
      snapshotTurn(input.runner, repo),
      ignoredListing(input.runner, repo),
      // unread refs or guarded files leave the next turn's start without them (reviewed as before)
      readTurnRefs(input.runner, repo).catch(() => null),
      guardRecord(input, repo).catch(() => undefined),
      readUserConfigText(input.env),
    ]);
  const entriesNow = listingEntries(ignoredNow);
  const others = refsNow?.otherHeads.length
    ? await otherWorktreeStates(input.runner, repo, refsNow.otherHeads)
    : undefined;
  const seen: TurnStart = {
    baselineTree: current,
    baselineRefs: refsNow?.refs,
    // the worktrees there before the session stay its measure of "another session's"; a stop with
    // no start seen is the session's first look
    otherWorktrees: session.baselineTree ? session.otherWorktrees : refsNow?.otherHeads,
    guard: guardNow,
    ignoredAtStart: entriesNow.length <= MAX_IGNORED_ENTRIES ? entriesNow : undefined,
    turnStartedAt: lookedAt.toISOString(),
    configAtStart: gate.config,
    userConfigAtStart: userConfig,
    reviewerAtStart: await reviewerRecord(input.env, gate.config.provider, repo.root),
    otherWorktreeStates: others,
  };
  return { current, outside, entriesNow, refsNow, seen, others };
}

/**
 * A stop with no baseline for its session in this repository: its start was not seen (hooks
 * installed mid-session, a prompt hook that failed, a Stop piped by hand) or the session's state is
 * gone (deleted, or it does not verify). What the turn changed is unknown, so it was not reviewed:
 * `on_error` decides (allow loudly, or block, counted towards `max_blocks`), and what this stop saw
 * becomes the baseline the next stop reviews from. A stop that lets the turn end records that view
 * as answered too: the turn it ends had no start to hold a push to, so it is no open turn for pushes
 * (lib/gates/pre_push/open_turns.ts) — a push does not take the reviewer or user config this stop
 * saw as "the turn's". A stop that blocks leaves the turn open: the agent works on from there.
 */
async function startNotSeen(
  gate: GateContext & { state: string },
  at: {
    session: SessionState;
    seen: TurnStart;
    save: (patch: Partial<SessionState>) => Promise<void>;
  },
): Promise<HookOutput> {
  await at.save({ ...at.seen, answered: undefined });
  const { decideStop, GATE_ERROR } = await import("./decision.ts");
  const out = await decideStop({
    status: GATE_ERROR,
    runDir: "",
    message:
      `its start was not seen in "${gate.repo.root}" (hooks installed during the session, or the session's state was deleted or does not verify); the next stops review from here`,
    blocking: [],
  }, {
    // The block counter lives in the state that is gone: a stop the host marks as following a block
    // of this turn counts as at the cap, so state deleted before every stop cannot make a loop.
    streak: gate.payload.stop_hook_active === true
      ? Math.max(at.session.consecutiveBlocks, gate.gate.max_blocks)
      : at.session.consecutiveBlocks,
    maxBlocks: gate.gate.max_blocks,
    onError: gate.gate.on_error,
    onPartial: gate.gate.on_partial,
    gateName: gate.door.gateName,
    save: at.save,
  });
  const { isStopBlock } = await import("./answer.ts");
  if (!isStopBlock(out)) await at.save({ answered: at.seen });
  return out;
}

/**
 * The review's verdict on baseline → current: reused when the same change was reviewed last (the
 * same tree reached from another baseline is another change), else a new review, kept for reuse
 * when it ran.
 */
async function turnVerdict(
  input: HookInput,
  turn: GateContext & {
    state: string;
    deadline: number;
    session: SessionState;
    save: (patch: Partial<SessionState>) => Promise<void>;
    baseline: string;
    current: string;
    /** Whether the verdict may be remembered for the next stop (no gate-control finding). */
    keep: boolean;
    work: TurnWork;
  },
): Promise<StoredVerdict> {
  const { session, baseline, current } = turn;
  const { autoSwitchNote, pinnedConfig } = await import("./reviewer_identity.ts");
  const { sha256Hex } = await import("../../base/sha256.ts");
  const now = await reviewerRecord(input.env, turn.config.provider, turn.repo.root);
  const reviewer = await sha256Hex(JSON.stringify(now));
  if (
    current === session.lastTree && baseline === session.lastBaseline && session.lastVerdict &&
    session.lastReviewer === reviewer
  ) {
    return session.lastVerdict;
  }
  if (
    turn.gate.review_while_working && session.turnStartedAt &&
    await pokedInTurn(turn.state, turn.payload.session_id, session.turnStartedAt)
  ) {
    // parts still being reviewed in the background are awaited, within the deadline
    const { awaitWork, waitLimit } = await import("./await_work.ts");
    turn.work.wait = await awaitWork(input.runner, {
      ...{ state: turn.state, sessionId: turn.payload.session_id, turn: session.turnStartedAt },
      ...{ tree: current, until: waitLimit(input.now().getTime(), turn.deadline) },
    });
  }
  // provider "auto" reviews with what it chose at the turn's start (reviewer_identity.ts)
  const start = session.reviewerAtStart?.chosen;
  const config = pinnedConfig(turn.config, session.reviewerAtStart);
  if (config === null) return noProviderAtStart();
  const { reviewTurn } = await import("./review.ts");
  const reviewed = await reviewTurn(input, {
    repo: turn.repo,
    config,
    baseline,
    current,
    deadline: turn.deadline,
    onPartial: turn.gate.on_partial,
    gateMode: turn.gate.mode,
    label: turn.door.turnLabel,
    gate: turn.door.gateName,
    seconds: hookSeconds(turn),
    agentMessage: turn.payload.last_assistant_message,
  });
  const { couldNotRun, parts } = reviewed;
  const verdict = start && now.chosen !== start && couldNotRun
    ? {
      ...reviewed.verdict,
      message: joinText(reviewed.verdict.message, autoSwitchNote(start, now.chosen ?? null)),
    }
    : reviewed.verdict;
  turn.work.parts = parts;
  // a verdict given while the gate's own controls changed (another reviewer, a rewritten hook…)
  // is told once, never remembered
  if (!couldNotRun && turn.keep) {
    await turn.save({
      ...{ lastTree: current, lastBaseline: baseline, lastVerdict: verdict },
      lastReviewer: reviewer,
    });
  }
  return verdict;
}

/** `a; b`, or whichever of them there is. */
function joinText(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}

/**
 * The verdict of a turn whose start found no provider for `provider: "auto"`: the review cannot
 * run (`on_error` decides) — a provider that appeared during the turn (a login the agent wrote)
 * is not trusted to review it; the next turn's start chooses again.
 */
async function noProviderAtStart(): Promise<StoredVerdict> {
  const { GATE_ERROR } = await import("./decision.ts");
  return {
    status: GATE_ERROR,
    runDir: "",
    message:
      "provider \"auto\" found no provider CLI signed in when this turn started, and one found since is not trusted to review it (the next turn's start chooses again; `review-gate doctor` shows each provider's fix)",
    blocking: [],
  };
}
