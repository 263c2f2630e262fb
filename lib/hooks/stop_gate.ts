/**
 * The Claude Code gates (DESIGN.md "Gates", PROVIDERS.md "Claude Code hooks"):
 *
 * - `hook claude-prompt` (UserPromptSubmit) records the turn's baseline: the worktree as a tree id
 *   (untracked files through a temporary index; the user's index is never touched).
 * - `hook claude-stop` (Stop) reviews baseline → current worktree and blocks on blocking findings.
 *
 * Fast paths, in order, each before any heavy module loads: skip switches (`REVIEW_GATE=0`,
 * `REVIEW_GATE_CHILD=1`); malformed stdin or another event; not a repository; gate disabled; no
 * baseline (record one and allow); nothing changed since the baseline (allow, no model call); the
 * same change as the last review — same baseline *and* same tree — (reuse its verdict). Stops of one
 * session are serialised by a lock file `sessions/<id>.lock` (`Deno.FsFile.lock`); a stop that
 * cannot get it before the internal deadline allows with a message. Loops are impossible: a stop
 * that follows our own block counts towards `max_blocks` consecutive blocks, after which the gate
 * allows with a message. Once the config is read, anything that goes wrong — a review that could
 * not run or an internal error (a git snapshot that fails, a broken state dir) — follows
 * `on_error`: allow with a loud `systemMessage` by default, block (counted and capped) with
 * `on_error: block`. Before the config is read, an error allows with a message.
 *
 * @module
 */
import { join } from "node:path";
import type { Finding } from "../answer/types.ts";
import { type Config, loadConfig } from "../config.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { snapshotWorktreeTree } from "../git/live_tree.ts";
import { sanitizeForTerminal } from "../render/sanitize.ts";
import { ensureStateDir } from "../store/state.ts";
import {
  readSessionState,
  sessionFileName,
  type SessionState,
  writeSessionState,
} from "../store/sessions.ts";
import {
  type ClaudeHookPayload,
  isMainAgentStop,
  isPromptSubmit,
  parseHookPayload,
} from "./claude_payload.ts";
import { buildStopBlock, buildStopCouldNotRun, buildStopMessage } from "./decision.ts";
import { ALLOW, type HookInput, type HookOutput, hooksSwitchedOff } from "./hook_io.ts";

/** Seconds kept between our internal deadline and the hook timeout Claude Code enforces. */
export const DEADLINE_MARGIN_SECONDS = 15;

/** Status of a stop the gate itself failed on (not a review status). */
const GATE_ERROR = "gate-error";
const COULD_NOT_RUN = new Set(["invalid-answer", "provider-error", "timeout", "interrupted"]);

interface GateContext {
  payload: ClaudeHookPayload;
  repo: Repo;
  config: Config;
}

/** Parse stdin and resolve repo + config; `null` means "allow silently". */
async function openGate(
  input: HookInput,
  wanted: (p: ClaudeHookPayload) => boolean,
): Promise<GateContext | null> {
  if (hooksSwitchedOff(input.env)) return null;
  const parsed = parseHookPayload(input.stdinText);
  if (!parsed.ok || !wanted(parsed.payload)) return null;
  const payload = parsed.payload;
  let repo: Repo;
  try {
    repo = await resolveRepo(input.runner, payload.cwd || input.cwd);
  } catch {
    return null; // not a git repository (or git missing): nothing to gate
  }
  const { config } = await loadConfig({ root: repo.root, env: input.env });
  if (!config.gates.claude_stop.enabled) return null;
  return { payload, repo, config };
}

/**
 * What failed, for a message: the error's message plus, for a git failure, the stderr lines the
 * message leaves out (lib/git/git.ts keeps only the last stderr line, e.g. "fatal: adding files
 * failed", while the line naming the offending file comes before it).
 */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = (error as { stderr?: unknown } | null)?.stderr;
  if (typeof stderr !== "string") return message;
  const more = stderr.split("\n").map((l) => l.trim()).filter((l) => l && !message.includes(l));
  return more.length ? `${message} (git: ${more.slice(-3).join("; ")})` : message;
}

/** Before the config is read: on_error is unknown, so allow with a message. */
function failSafe(error: unknown): HookOutput {
  const message = `review-gate: the Stop gate failed and allowed the stop: ${
    describeFailure(error)
  }`;
  return {
    stdout: buildStopMessage(message),
    stderr: sanitizeForTerminal(message) + "\n",
    exitCode: 0,
  };
}

/**
 * UserPromptSubmit: record the baseline tree of this turn and reset the block counter.
 *
 * @returns always exit 0 with no stdout (plain stdout would be added to Claude's context)
 */
export async function runPromptHook(input: HookInput): Promise<HookOutput> {
  try {
    const gate = await openGate(input, isPromptSubmit);
    if (!gate) return ALLOW;
    const state = await ensureStateDir(gate.repo.commonDir);
    const baselineTree = await snapshotWorktreeTree(input.runner, gate.repo);
    const previous = await readSessionState(state, gate.payload.session_id);
    await writeSessionState(state, {
      sessionId: gate.payload.session_id,
      value: {
        ...previous,
        baselineTree,
        consecutiveBlocks: 0,
        updatedAt: input.now().toISOString(),
      },
    });
    return ALLOW;
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
 * Stop: review what this turn changed and block on blocking findings.
 *
 * @returns exit 0 always; stdout empty (allow), a `systemMessage` (allow with a note) or a block
 */
export async function runStopGate(input: HookInput): Promise<HookOutput> {
  const started = input.now().getTime();
  let gate: GateContext | null;
  try {
    gate = await openGate(input, isMainAgentStop);
  } catch (error) {
    return failSafe(error);
  }
  if (!gate) return ALLOW;
  const stop = gate.config.gates.claude_stop;
  const deadline = started +
    Math.max(5, stop.timeout_seconds - DEADLINE_MARGIN_SECONDS) * 1000;
  try {
    const state = await ensureStateDir(gate.repo.commonDir);
    const release = await lockSession(state, {
      sessionId: gate.payload.session_id,
      waitMs: deadline - input.now().getTime(),
    });
    if (!release) {
      return {
        stdout: buildStopMessage(
          "review-gate: this stop was NOT reviewed: another review of this session is running",
        ),
        stderr: "",
        exitCode: 0,
      };
    }
    try {
      return await stopWithGate(input, { ...gate, state, deadline });
    } finally {
      release();
    }
  } catch (error) {
    return await gateFailed(gate, error);
  }
}

/**
 * Take the session's lock file (`sessions/<id>.lock`, exclusive `Deno.FsFile.lock`), waiting at
 * most `waitMs` ms. Returns the release function, or `null` when another stop of the session kept
 * it that long (the pending lock call cannot be cancelled: the file is closed when it returns; the
 * hook process exits before that).
 */
async function lockSession(
  state: string,
  options: { sessionId: string; waitMs: number },
): Promise<(() => void) | null> {
  const dir = join(state, "sessions");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = (await sessionFileName(options.sessionId)).replace(/\.json$/, ".lock");
  const file = await Deno.open(join(dir, name), { create: true, write: true, mode: 0o600 });
  const close = () => {
    try {
      file.close(); // closing the file releases the lock
    } catch { /* already closed */ }
  };
  const locked = file.lock(true).then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, options.waitMs));
  });
  try {
    if (await Promise.race([locked, timedOut])) return close;
  } catch (error) {
    close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  locked.then(close, close);
  return null;
}

/**
 * The gate failed after the config was read: follow `on_error` like a review that could not run.
 * With `on_error: block` the block is counted and capped by `max_blocks`; when the counter cannot
 * be saved either, blocking could loop, so the stop is allowed.
 */
async function gateFailed(gate: GateContext, error: unknown): Promise<HookOutput> {
  const stop = gate.config.gates.claude_stop;
  const verdict: StoredVerdict = {
    status: GATE_ERROR,
    runDir: "",
    message: `the Stop gate failed: ${describeFailure(error)}`,
    blocking: [],
  };
  const stderr = sanitizeForTerminal(`review-gate: ${verdict.message}\n`);
  if (stop.on_error !== "block") {
    const stdout = buildStopCouldNotRun({ reason: verdict.message!, block: false });
    return { stdout, stderr, exitCode: 0 };
  }
  try {
    const state = await ensureStateDir(gate.repo.commonDir);
    const sessionId = gate.payload.session_id;
    const session = (await readSessionState(state, sessionId)) ?? { consecutiveBlocks: 0 };
    const out = await decide(verdict, {
      streak: session.consecutiveBlocks,
      maxBlocks: stop.max_blocks,
      onError: "block",
      save: (patch) => writeSessionState(state, { sessionId, value: { ...session, ...patch } }),
    });
    return { ...out, stderr };
  } catch (second) {
    const reason = `${verdict.message}; the block counter could not be saved (${
      describeFailure(second)
    }), so the stop is allowed`;
    return { stdout: buildStopCouldNotRun({ reason, block: false }), stderr, exitCode: 0 };
  }
}

async function stopWithGate(
  input: HookInput,
  gate: GateContext & { state: string; deadline: number },
): Promise<HookOutput> {
  const { payload, repo, config, state } = gate;
  const session: SessionState = (await readSessionState(state, payload.session_id)) ??
    { consecutiveBlocks: 0 };
  // Patches accumulate: a later save (the block counter) must not drop an earlier one (the verdict).
  const save = (patch: Partial<SessionState>) => {
    Object.assign(session, patch);
    return writeSessionState(state, {
      sessionId: payload.session_id,
      value: { ...session, updatedAt: input.now().toISOString() },
    });
  };
  // Blocks in a row since the last allow or user prompt. Counted whether or not Claude Code marks
  // the stop with `stop_hook_active`, so the cap holds even if that flag is missing or wrong.
  const streak = session.consecutiveBlocks;

  const current = await snapshotWorktreeTree(input.runner, repo);
  const baseline = session.baselineTree;
  if (!baseline) {
    await save({ baselineTree: current, consecutiveBlocks: 0 });
    return ALLOW; // no UserPromptSubmit seen for this session yet: nothing known to have changed
  }
  if (current === baseline) {
    await save({ consecutiveBlocks: 0 });
    return ALLOW;
  }
  const stop = config.gates.claude_stop;
  const decideOptions = { streak, maxBlocks: stop.max_blocks, onError: stop.on_error, save };
  // The change is baseline → current: the same tree reached from another baseline is another change.
  if (current === session.lastTree && baseline === session.lastBaseline && session.lastVerdict) {
    return decide(session.lastVerdict, decideOptions);
  }

  const remaining = (gate.deadline - input.now().getTime()) / 1000;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error("deadline")),
    Math.max(1, remaining) * 1000,
  );
  const onAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const { runReview } = await import("../review/run_review.ts");
    const { blockingFindings } = await import("../review/policy.ts");
    const outcome = await runReview(
      {
        cwd: repo.root,
        repo,
        target: { kind: "tree", from: baseline, to: current, label: "this Claude turn's changes" },
        kind: "review",
        agentMessage: payload.last_assistant_message,
        config: {
          ...config,
          timeout_seconds: Math.max(1, Math.min(config.timeout_seconds, remaining - 2)),
        },
        useCache: true,
      },
      { runner: input.runner, env: input.env, now: input.now, signal: controller.signal },
    );
    const record = outcome.record;
    const verdict: StoredVerdict = {
      status: record.status,
      runDir: record.runDir,
      message: record.message,
      blocking: outcome.answer
        ? blockingFindings(outcome.answer, {
          failOn: config.fail_on,
          minConfidence: config.min_confidence,
        })
        : [],
    };
    const couldNotRun = !outcome.answer && record.status !== "nothing-to-review";
    if (!couldNotRun) {
      await save({ lastTree: current, lastBaseline: baseline, lastVerdict: verdict });
    }
    return decide(verdict, decideOptions);
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/** What the session file keeps of the last review, to reuse it for the same change. */
export interface StoredVerdict {
  status: string;
  runDir: string;
  message?: string;
  /** The findings that blocked (empty when none did). */
  blocking: Finding[];
}

async function decide(
  verdict: StoredVerdict,
  options: {
    streak: number;
    maxBlocks: number;
    onError: "allow" | "block";
    save: (patch: Partial<SessionState>) => Promise<void>;
  },
): Promise<HookOutput> {
  const { streak, maxBlocks } = options;
  const couldNotRun = verdict.status === GATE_ERROR || COULD_NOT_RUN.has(verdict.status);
  const reason = verdict.status === GATE_ERROR
    ? verdict.message ?? "no details"
    : `${verdict.status}: ${verdict.message ?? "no details"}`;
  const runPath = verdict.runDir || undefined;
  const wantsBlock = couldNotRun ? options.onError === "block" : verdict.blocking.length > 0;
  if (!wantsBlock) {
    await options.save({ consecutiveBlocks: 0 });
    if (!couldNotRun) return ALLOW;
    const out = buildStopCouldNotRun({ reason, runPath, block: false });
    return { stdout: out, stderr: "", exitCode: 0 };
  }
  if (streak >= maxBlocks) {
    await options.save({ consecutiveBlocks: 0 });
    const what = couldNotRun
      ? `could not review this turn (${reason})`
      : `still finds ${verdict.blocking.length} blocking finding(s)`;
    const see = couldNotRun
      ? (runPath ? `; details: ${runPath}` : "")
      : `; see ${verdict.runDir}/review.md`;
    const message =
      `review-gate ${what} but stopped blocking after ${maxBlocks} blocks in a row (max_blocks)${see}`;
    return { stdout: buildStopMessage(message), stderr: "", exitCode: 0 };
  }
  await options.save({ consecutiveBlocks: streak + 1 });
  const stdout = couldNotRun
    ? buildStopCouldNotRun({ reason, runPath, block: true })
    : buildStopBlock({ findings: verdict.blocking, reviewPath: `${verdict.runDir}/review.md` });
  return { stdout, stderr: "", exitCode: 0 };
}
