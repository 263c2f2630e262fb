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
 * same tree as the last review (reuse its verdict). Loops are impossible: a stop that follows our own
 * block (`stop_hook_active`) counts towards `max_blocks` consecutive blocks, after which the gate
 * allows with a message. A review that could not run allows with a `systemMessage` unless
 * `on_error: block`. Any internal error allows (the gate never wedges a session).
 *
 * @module
 */
import type { Finding } from "../answer/types.ts";
import { type Config, loadConfig } from "../config.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { snapshotWorktreeTree } from "../git/live_tree.ts";
import { ensureStateDir } from "../store/state.ts";
import { readSessionState, type SessionState, writeSessionState } from "../store/sessions.ts";
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

interface GateContext {
  payload: ClaudeHookPayload;
  repo: Repo;
  config: Config;
  state: string;
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
  const state = await ensureStateDir(repo.commonDir);
  return { payload, repo, config, state };
}

function failSafe(error: unknown): HookOutput {
  const message = `review-gate: the Stop gate failed and allowed the stop: ${
    (error as Error)?.message ?? error
  }`;
  return { stdout: buildStopMessage(message), stderr: message + "\n", exitCode: 0 };
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
    const baselineTree = await snapshotWorktreeTree(input.runner, gate.repo);
    const previous = await readSessionState(gate.state, gate.payload.session_id);
    await writeSessionState(gate.state, {
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
      stderr: `review-gate: could not record the turn baseline: ${(error as Error).message}\n`,
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
  try {
    const gate = await openGate(input, isMainAgentStop);
    if (!gate) return ALLOW;
    return await stopWithGate(input, gate);
  } catch (error) {
    return failSafe(error);
  }
}

async function stopWithGate(input: HookInput, gate: GateContext): Promise<HookOutput> {
  const { payload, repo, config, state } = gate;
  const started = input.now().getTime();
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
  if (!session.baselineTree) {
    await save({ baselineTree: current, consecutiveBlocks: 0 });
    return ALLOW; // no UserPromptSubmit seen for this session yet: nothing known to have changed
  }
  if (current === session.baselineTree) {
    await save({ consecutiveBlocks: 0 });
    return ALLOW;
  }
  const stop = config.gates.claude_stop;
  const maxBlocks = stop.max_blocks;
  if (current === session.lastTree && session.lastVerdict) {
    return decide(session.lastVerdict, {
      streak,
      maxBlocks,
      onError: stop.on_error,
      save,
      reused: true,
    });
  }

  const deadlineSeconds = Math.max(5, stop.timeout_seconds - DEADLINE_MARGIN_SECONDS);
  const remaining = deadlineSeconds - (input.now().getTime() - started) / 1000;
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
        target: {
          kind: "tree",
          from: session.baselineTree,
          to: current,
          label: "this Claude turn's changes",
        },
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
    if (!couldNotRun) await save({ lastTree: current, lastVerdict: verdict });
    return decide(verdict, { streak, maxBlocks, onError: stop.on_error, save, reused: false });
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/** What the session file keeps of the last review, to reuse it for the same tree. */
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
    reused: boolean;
  },
): Promise<HookOutput> {
  const { streak, maxBlocks } = options;
  const reviewPath = `${verdict.runDir}/review.md`;
  const couldNotRun = ["invalid-answer", "provider-error", "timeout", "interrupted"].includes(
    verdict.status,
  );
  const wantsBlock = couldNotRun ? options.onError === "block" : verdict.blocking.length > 0;
  if (!wantsBlock) {
    await options.save({ consecutiveBlocks: 0 });
    if (!couldNotRun) return ALLOW;
    const out = buildStopCouldNotRun({
      reason: `${verdict.status}: ${verdict.message ?? "no details"}`,
      runPath: verdict.runDir || undefined,
      block: false,
    });
    return { stdout: out, stderr: "", exitCode: 0 };
  }
  if (streak >= maxBlocks) {
    await options.save({ consecutiveBlocks: 0 });
    const what = couldNotRun
      ? "could not review this turn"
      : `still finds ${verdict.blocking.length} blocking finding(s)`;
    const message =
      `review-gate ${what} but stopped blocking after ${maxBlocks} blocks in a row (max_blocks); see ${reviewPath}`;
    return { stdout: buildStopMessage(message), stderr: "", exitCode: 0 };
  }
  await options.save({ consecutiveBlocks: streak + 1 });
  const stdout = couldNotRun
    ? buildStopCouldNotRun({
      reason: `${verdict.status}: ${verdict.message ?? "no details"}`,
      runPath: verdict.runDir || undefined,
      block: true,
    })
    : buildStopBlock({ findings: verdict.blocking, reviewPath });
  return { stdout, stderr: "", exitCode: 0 };
}
