/**
 * The background worker of one agent session's turn (docs/design.md "Review while working"): a
 * detached review-gate process (`hook <agent>-worker`, started by lib/gates/turn/work_hook.ts with
 * the background-job machinery's record and detached spawn) that watches the session's poke and,
 * once the tool calls have been quiet for {@linkcode QUIET_MS} (at once when the Stop asks),
 * snapshots the worktree, plans the turn's change exactly as the Stop will (baseline → now) and
 * reviews the parts no verdict covers yet (lib/gates/turn/work_round.ts). When the bytes change
 * again, the calls of parts that are no longer in the plan are killed; calls of parts still in it
 * go on, and the next round declines to ask them twice. A part whose call was killed so is asked
 * again only once its edits have been quiet for about one call's latency
 * (lib/gates/turn/work_quiet.ts): the worker starts a round for it when that time has passed, or
 * at once when the Stop asks. At most one worker runs per session (it holds
 * `work/<session>.lock`), and its calls are capped per turn (`max_background_calls`).
 *
 * It ends — killing whatever call still runs — when the Stop answered, when the session's next
 * turn starts (or its record is gone), when the setting is off, after {@linkcode IDLE_MS} without a
 * tool call, or on SIGTERM (`review-gate cancel`). Its status file says which tree it settled
 * (every part tried, no call of it running), which the Stop waits for within its deadline.
 *
 * @module
 */
import type { HookInput, HookOutput } from "../hook_io.ts";
import { ALLOW } from "../hook_io.ts";
import type { TurnDoor } from "./door.ts";
import type { Config } from "../../config/config.ts";
import type { Repo } from "../../git/repo.ts";
import { resolveRepo } from "../../git/repo.ts";
import { snapshotWorktree } from "../../git/live_tree.ts";
import { loadConfig } from "../../config/config.ts";
import { getProvider, resolveBinary } from "../../providers/registry.ts";
import { NoProviderError, resolveProvider } from "../../providers/auto.ts";
import { processInfo } from "../../exec/process_info.ts";
import { lockFile } from "../../store/lock.ts";
import { readSessionState, type SessionState } from "../../store/sessions.ts";
import { stateDir } from "../../store/state.ts";
import { updateJob } from "../../store/jobs.ts";
import {
  readPoke,
  servingKeys,
  workPaths,
  type WorkPoke,
  type WorkStatus,
  writeWorkStatus,
} from "../../store/turn_work.ts";
import { type PlannedPart, WorkCalls } from "./work_calls.ts";
import { QuietTimes } from "./work_quiet.ts";
import { planParts, reviewRound, type RoundRequest } from "./work_round.ts";

/** Quiet time after the last tool call before the worktree is planned again, ms. */
export const QUIET_MS = 500;
/** How often the worker looks at its poke, ms. */
export const POLL_MS = 150;
/** A worker with no tool call for this long ends, ms. */
export const IDLE_MS = 10 * 60_000;

/** What the worker is started with (its hook arguments). */
export interface WorkerArgs {
  sessionId: string;
  root: string;
  jobId: string;
}

/**
 * Parse the worker's arguments: `<session id> <repository root> <job id>`.
 *
 * @returns the arguments, or `null` when they are not three
 */
export function parseWorkerArgs(args: readonly string[]): WorkerArgs | null {
  if (args.length !== 3 || args.some((a) => a === "")) return null;
  return { sessionId: args[0], root: args[1], jobId: args[2] };
}

/**
 * Run a session's worker until its turn is over.
 *
 * @param input the hook's environment, runner, clock and signal (stdin is not read)
 * @param door the agent's front door (gate name, config, label)
 * @param args from {@linkcode parseWorkerArgs}
 * @returns exit 0 with nothing to say (a detached process: its output goes to the job's log)
 */
export async function runWorker(
  input: HookInput,
  door: TurnDoor,
  args: WorkerArgs,
): Promise<HookOutput> {
  const repo = await resolveRepo(input.runner, args.root);
  const state = stateDir(repo.commonDir);
  const paths = await workPaths(state, args.sessionId);
  const lock = await lockFile(paths.lock, { timeoutMs: 0 });
  const session = await readSessionState(state, args.sessionId);
  if (!lock || !session?.baselineTree || !session.turnStartedAt) {
    lock?.release();
    const why = lock ? "the session has no turn open" : "another worker runs";
    await endJob(state, args, why, { calls: 0, answered: 0 });
    return ALLOW;
  }
  // provider "auto" works with what it chose at the turn's start, as the Stop does
  const { pinnedConfig } = await import("./reviewer_identity.ts");
  const config = pinnedConfig(await workConfig(input, repo, session), session.reviewerAtStart);
  if (config === null) {
    lock.release();
    await endJob(state, args, 'provider "auto" found no provider CLI at the turn\'s start', {
      calls: 0,
      answered: 0,
    });
    return ALLOW;
  }
  const chosen = config.council.length > 1
    ? config.council
    : await resolveProvider(config, input.env, repo.root).then((r) => [r.config.provider])
      .catch((error) => error instanceof NoProviderError ? error : Promise.reject(error));
  if (chosen instanceof NoProviderError) {
    // the Stop says so, with each provider's fix; the worker has nothing to ask
    lock.release();
    await endJob(state, args, 'provider "auto" found no provider CLI', { calls: 0, answered: 0 });
    return ALLOW;
  }
  const names = chosen;
  const bins = await Promise.all(
    names.map(async (name) => resolveBinary(await getProvider(name), input.env, repo.root)),
  );
  const worker = new Worker(input, { door, repo, state, args, session, config, bins });
  try {
    await worker.start();
    const why = await worker.run();
    await worker.end(why);
    await endJob(state, args, why, worker.tally());
  } finally {
    lock.release();
  }
  return ALLOW;
}

/** The config the Stop will review with (lib/gates/turn/guard_config.ts `trustedConfig`). */
async function workConfig(input: HookInput, repo: Repo, session: SessionState): Promise<Config> {
  const { trustedConfig } = await import("./guard_config.ts");
  const load = async () => (await loadConfig({ root: repo.root, env: input.env })).config;
  return (await trustedConfig(input.runner, { repo, env: input.env, session }, load)).config;
}

/** End the worker's job with why and what it did (`jobs` and `status` show them, lib/jobs/worker_job.ts). */
async function endJob(
  state: string,
  args: WorkerArgs,
  why: string,
  tally: { calls: number; answered: number },
): Promise<void> {
  const now = new Date().toISOString();
  await updateJob(state, args.jobId, (job) => ({
    ...job,
    state: "finished",
    reason: why,
    work: { sessionId: args.sessionId, ...tally },
    finishedAt: now,
    updatedAt: now,
  })).catch(() => {}); // the job record is for people: the work is done either way
}

interface WorkerSetup {
  door: TurnDoor;
  repo: Repo;
  state: string;
  args: WorkerArgs;
  session: SessionState;
  config: Config;
  /** The binary of each provider asked (the council's, or the one provider's). */
  bins: string[];
}

/** One worker's state: the rounds under way, the latest plan, the status it writes. */
class Worker {
  readonly #input: HookInput;
  readonly #at: WorkerSetup;
  readonly #calls: WorkCalls;
  readonly #quiet: QuietTimes;
  readonly #stop = new AbortController();
  readonly #rounds = new Set<Promise<void>>();
  readonly #answered = new Set<string>();
  #status!: WorkStatus;
  /** The latest plan: its tree, parts, the poke it answered, and whether a round for it ended. */
  #latest: {
    tree: string;
    parts: PlannedPart[];
    asked: Set<string>;
    done: boolean;
    retried?: boolean;
  } | null = null;
  #seen = { changedAt: -1, stopAt: -1 };
  #lastTool = Date.now();

  constructor(input: HookInput, at: WorkerSetup) {
    this.#input = input;
    this.#at = at;
    const gate = at.door.gateConfig(at.config);
    this.#quiet = new QuietTimes(gate.background_call_seconds * 1000);
    this.#calls = new WorkCalls(gate.max_background_calls, at.bins, this.#quiet);
  }

  async start(): Promise<void> {
    const info = await processInfo(this.#input.runner, Deno.pid).catch(() => null);
    this.#status = {
      version: 1,
      turn: this.#at.session.turnStartedAt!,
      process: { pid: Deno.pid, startedAt: info?.startedAt ?? "unknown" },
      jobId: this.#at.args.jobId,
      updatedAt: Date.now(),
      calls: 0,
      killed: 0,
      spent: {},
      answered: [],
    };
    await this.#save();
    await updateJob(this.#at.state, this.#at.args.jobId, (job) => ({
      ...job,
      state: "running",
      process: this.#status.process,
      startedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    })).catch(() => {});
  }

  /** Watch and review until the turn is over. @returns why it ended */
  async run(): Promise<string> {
    while (true) {
      const over = await this.#over();
      if (over) return over;
      const poke = await readPoke(this.#at.state, this.#at.args.sessionId);
      if (poke && this.#due(poke)) {
        // the Stop asks: nothing waits for its quiet time any more (a later tool call resumes it)
        this.#quiet.urgent = (poke.stopAt ?? -1) > this.#seen.stopAt;
        this.#seen = { changedAt: poke.changedAt, stopAt: poke.stopAt ?? -1 };
        await this.#plan(poke.changedAt).catch((error) => {
          // a plan that failed (git) leaves the Stop to review: it is not settled; said in the log
          const text = `review-gate: background plan failed: ${(error as Error).message}\n`;
          Deno.stderr.writeSync(new TextEncoder().encode(text));
        });
      }
      this.#retryDeclined();
      this.#launchDeferred();
      await this.#save();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Stop every call and round; record why. */
  async end(why: string): Promise<void> {
    this.#calls.killAll();
    this.#stop.abort(new Error(why));
    await Promise.allSettled([...this.#rounds]);
    this.#status.ended = why;
    await this.#save();
  }

  /** What it did: model calls started, parts a background call answered. */
  tally(): { calls: number; answered: number } {
    return { calls: this.#calls.counts.calls, answered: this.#answered.size };
  }

  /** Why the worker must end now, or `null`. */
  async #over(): Promise<string | null> {
    if (this.#input.signal?.aborted) return "stopped by a signal";
    const { state, args } = this.#at;
    const session = await readSessionState(state, args.sessionId);
    if (session?.turnStartedAt !== this.#status.turn) return "the session's turn is over";
    const poke = await readPoke(state, args.sessionId);
    if (poke && poke.turn !== this.#status.turn) return "the session's turn is over";
    // a tool call after the Stop's answer (the agent goes on after a block) keeps it going
    if (poke?.answeredAt !== undefined && poke.answeredAt >= poke.changedAt) {
      return "the Stop answered";
    }
    if (poke && poke.changedAt > this.#seen.changedAt) this.#lastTool = Date.now();
    if (Date.now() - this.#lastTool > IDLE_MS) return "no tool call for a long time";
    return null;
  }

  /** True when the poke asks for a new plan: files changed and were quiet, or the Stop asks. */
  #due(poke: WorkPoke): boolean {
    const stopAsks = poke.stopAt !== undefined && poke.stopAt > this.#seen.stopAt;
    if (stopAsks) return true;
    return poke.changedAt > this.#seen.changedAt && Date.now() - poke.changedAt >= QUIET_MS;
  }

  /**
   * Snapshot, plan, kill what the new bytes supersede, and start a round for the rest.
   *
   * @param changedAt epoch ms of the tool call the plan follows (when its new bytes were written)
   */
  async #plan(changedAt: number): Promise<void> {
    const { repo, session } = this.#at;
    const { tree } = await snapshotWorktree(this.#input.runner, repo);
    if (this.#latest?.tree === tree) return; // the same bytes: the round under way covers them
    const parts = tree === session.baselineTree ? [] : await planParts(this.#request(tree));
    this.#quiet.planned(parts, changedAt);
    this.#calls.supersede(new Set(parts.map((p) => p.key)));
    const keys = new Set(parts.map((p) => p.key));
    for (const key of this.#calls.deferred) if (!keys.has(key)) this.#calls.deferred.delete(key);
    this.#latest = { tree, parts, asked: new Set(), done: parts.length === 0 };
    this.#status.tree = tree;
    if (parts.length > 0) this.#launch(tree, parts);
  }

  /** True when a background call answered a verdict that serves the part keyed `key`. */
  #covered(key: string): boolean {
    return servingKeys(key).some((k) => this.#answered.has(k));
  }

  /**
   * Start a round for the latest plan (not awaited: a later plan may supersede it) — unless every
   * part it would ask is answered, under way or waiting for its quiet time (then those are noted as
   * deferred, and {@linkcode #launchDeferred} starts the round when their time has come).
   */
  #launch(tree: string, parts: PlannedPart[]): void {
    const latest = this.#latest!;
    for (const part of parts) if (!this.#calls.inFlight(part.key)) latest.asked.add(part.key);
    const now = Date.now();
    const open = parts.filter((p) => !this.#covered(p.key) && !this.#calls.inFlight(p.key));
    const waiting = open.filter((p) => this.#quiet.notBefore(p) > now);
    for (const part of waiting) this.#calls.deferred.add(part.key);
    if (open.length === waiting.length) {
      latest.done = true; // nothing to ask now: no run, no record
      return;
    }
    const round: Promise<void> = reviewRound(this.#request(tree), this.#calls, parts)
      .then(({ answered }) => {
        for (const key of answered) this.#answered.add(key);
        if (this.#latest?.tree === tree) this.#latest.done = true;
      })
      .finally(() => this.#rounds.delete(round));
    this.#rounds.add(round);
  }

  /**
   * A part the latest round declined because an earlier round was reviewing it, whose call ended
   * without an answer: ask it again, once, unless the cap is spent.
   */
  #retryDeclined(): void {
    const latest = this.#latest;
    if (!latest?.done || this.#calls.counts.capped || this.#rounds.size > 0) return;
    const missing = latest.parts.filter((p) =>
      !this.#covered(p.key) && !latest.asked.has(p.key) && !this.#calls.inFlight(p.key)
    );
    if (missing.length === 0 || latest.retried) return;
    latest.retried = true; // once: what fails again is the Stop's to ask
    latest.done = false;
    this.#launch(latest.tree, latest.parts);
  }

  /**
   * Parts of the latest plan that waited for their quiet time (declined as deferred) whose time has
   * come — or the Stop asked: start a round for them.
   */
  #launchDeferred(): void {
    const latest = this.#latest;
    if (!latest || this.#calls.deferred.size === 0 || this.#calls.counts.capped) return;
    const now = Date.now();
    const due = latest.parts.filter((p) =>
      this.#calls.deferred.has(p.key) && this.#quiet.notBefore(p) <= now
    );
    if (due.length === 0) return;
    for (const part of due) this.#calls.deferred.delete(part.key);
    if (due.every((p) => this.#covered(p.key) || this.#calls.inFlight(p.key))) return;
    latest.done = false;
    this.#launch(latest.tree, latest.parts);
  }

  /** The deferred parts of the latest plan that no verdict serves yet (none once the cap is spent). */
  #waiting(): number {
    const latest = this.#latest;
    if (!latest || this.#calls.counts.capped) return 0;
    return latest.parts.filter((p) => this.#calls.deferred.has(p.key) && !this.#covered(p.key))
      .length;
  }

  #request(tree: string): RoundRequest {
    const { door, repo, config, session } = this.#at;
    return {
      repo,
      config,
      baseline: session.baselineTree!,
      tree,
      label: door.turnLabel,
      gate: door.gateName,
      onPartial: door.gateConfig(config).on_partial,
      runner: this.#input.runner,
      env: this.#input.env,
      now: this.#input.now,
      signal: this.#stop.signal,
    };
  }

  /**
   * Write the status: counts, the latest tree, and the tree settled (nothing of it running or
   * waiting).
   */
  async #save(): Promise<void> {
    const latest = this.#latest;
    // a part waiting for its quiet time is not settled: the Stop's ask starts it at once
    const settled = latest && latest.done && this.#rounds.size === 0 &&
      !latest.parts.some((p) => this.#calls.inFlight(p.key)) && this.#waiting() === 0;
    Object.assign(this.#status, {
      updatedAt: Date.now(),
      calls: this.#calls.counts.calls,
      killed: this.#calls.counts.killed,
      spent: { ...this.#calls.counts.spent },
      answered: [...this.#answered],
      ...(this.#calls.counts.capped ? { capped: true } : {}),
      ...(settled ? { settled: latest.tree } : {}),
    });
    if (!settled && this.#status.settled === latest?.tree) delete this.#status.settled;
    await writeWorkStatus(this.#at.state, this.#at.args.sessionId, this.#status).catch(() => {});
  }
}
