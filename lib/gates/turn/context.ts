/**
 * Opening a turn gate (docs/design.md "Turn gate"): the fast paths every turn hook takes before any
 * heavy
 * module loads — skip switches (`REVIEW_GATE=0`, `REVIEW_GATE_CHILD=1`), malformed stdin (allowed:
 * the prompt hook says why on stderr, the stop says "NOT reviewed" and why) or another event, no repository, gate disabled (unless a session of the repository holds that change back:
 * lib/gates/turn/held_elsewhere.ts; the records are read only on that path) — then the parsed
 * payload, the anchored repository (lib/gates/turn/locate.ts: not the agent's moving cwd) and the
 * config.
 *
 * @module
 */
import { type Config, loadConfig } from "../../config/config.ts";
import type { Repo } from "../../git/repo.ts";
import type { TurnDoor, TurnGateConfig, TurnPayload } from "./door.ts";
import { type HookInput, hooksSwitchedOff } from "../hook_io.ts";
import { locatePromptRepo, locateStopRepo } from "./locate.ts";
import { readSessionState } from "../../store/sessions.ts";
import { stateDir } from "../../store/state.ts";
import type { ConfigHold, TrustedConfig } from "./guard_config.ts";
import { isBlockContinuation } from "./continuation.ts";

/** What a gate works with once it is open. */
export interface GateContext {
  /** The agent's front door the hook came through. */
  door: TurnDoor;
  payload: TurnPayload;
  repo: Repo;
  config: Config;
  /** This gate's settings (`door.gateConfig(config)`). */
  gate: TurnGateConfig;
  /** Notes the stop's answer must carry (e.g. the agent's cwd is in another repository). */
  notes: string[];
  /**
   * What of review-gate's config on disk the gate holds back (lib/gates/turn/guard_config.ts):
   * `config` is the trusted one. Absent or `null` when nothing is held.
   */
  hold?: ConfigHold | null;
}

/** What opening a gate gave. */
export type GateOpening =
  | { kind: "open"; gate: GateContext }
  /** Allow silently; `why` (the prompt hook's malformed input) goes to stderr. */
  | {
    kind: "skip";
    why?: string;
    /** The gate is disabled in this repository's config (the turn's session state is stale). */
    disabledIn?: Repo;
  }
  /** A stop whose turn cannot be reviewed: allow with a visible "NOT reviewed" note. */
  | { kind: "not-reviewed"; reason: string };

const SKIP: GateOpening = Object.freeze({ kind: "skip" });

/**
 * Parse stdin with the door's parser, find the repository the turn is anchored on, read the
 * config.
 *
 * @param input the hook's stdin, env, cwd and runner
 * @param door the agent's front door
 * @param event `prompt` (the turn's start) or `stop`
 * @returns the context, a skip (allow silently; a malformed prompt input says why on stderr), or a
 *   stop that cannot be reviewed (a malformed stop input among them)
 * @throws {import("../../base/errors.ts").ConfigError} a config file that cannot be read or is invalid
 */
export async function openGate(
  input: HookInput,
  door: TurnDoor,
  event: "prompt" | "stop",
): Promise<GateOpening> {
  if (hooksSwitchedOff(input.env)) return SKIP;
  const parsed = door.parse(input.stdinText);
  if (!parsed.ok) {
    // A stop we cannot read lets the turn through unseen: say so where the user looks. The prompt
    // hook stays silent on stdout (an agent adds it to the model's input).
    if (event === "stop") {
      return {
        kind: "not-reviewed",
        reason: `the ${door.gateName} hook's input could not be read (${parsed.reason})`,
      };
    }
    return {
      kind: "skip",
      why: `review-gate: ${door.promptHookName}: input ignored: ${parsed.reason}`,
    };
  }
  const payload = parsed.payload;
  if (!(event === "prompt" ? door.isPrompt(payload) : door.isStop(payload))) return SKIP;
  let repo: Repo;
  let notes: string[] = [];
  if (event === "prompt") {
    const found = await locatePromptRepo(input, door, payload);
    if (!found) return SKIP; // not in a repository: nothing to gate
    repo = found;
  } else {
    const found = await locateStopRepo(input, door, payload);
    if (found.kind === "none") return SKIP;
    if (found.kind === "not-reviewed") return found;
    repo = found.repo;
    notes = found.notes;
  }
  const { config, hold } = await judgedConfig(input, { door, repo, payload, event });
  const gate = door.gateConfig(config);
  if (!gate.enabled) {
    const on = await heldOn(input, { door, repo, payload, event });
    if (!on) return { kind: "skip", disabledIn: repo };
    // a prompt lifting the hold still records its start: the session's Stop reads the prompt there
    const kept = on.asked ? config : on.config;
    const opened = { door, payload, repo, config: kept, gate: door.gateConfig(kept), hold };
    return { kind: "open", gate: { ...opened, notes: on.asked ? notes : [...notes, on.note] } };
  }
  return { kind: "open", gate: { door, payload, repo, config, gate, notes, hold } };
}

/**
 * A gate disabled on disk that a session of this repository holds on (lib/gates/turn/held_elsewhere.ts):
 * the config from before the change, and the sentence the Stop says.
 */
async function heldOn(
  input: HookInput,
  at: { door: TurnDoor; repo: Repo; payload: TurnPayload; event: "prompt" | "stop" },
): Promise<{ config: Config; note: string; asked: boolean } | null> {
  const { heldOnElsewhere } = await import("./held_elsewhere.ts");
  const state = stateDir(at.repo.commonDir);
  const own = at.event === "stop" ? await readSessionState(state, at.payload.session_id) : null;
  const prompt = at.event === "prompt" ? at.payload.prompt : own?.prompt;
  const on = await heldOnElsewhere(state, { door: at.door, env: input.env, prompt });
  // a Stop whose prompts lift the hold finds the gate disabled, as the user asked
  if (!on || (on.asked && at.event === "stop")) return null;
  const note = `review-gate: the ${at.door.gateName} gate is disabled in the config, but that ` +
    `change (${on.setting}) is held back: session ${on.session} made it without a prompt of the ` +
    `user's asking for it, so the gate stays on with the config from before it until a prompt ` +
    `asks for it by name.`;
  return { config: on.config, note, asked: on.asked };
}

/**
 * The config a hook uses (lib/gates/turn/guard_config.ts): a stop's, the one the turn started with
 * for the settings the turn loosened unasked; a prompt's, the one on disk — unless the start this
 * turn takes carries a held config change, which holds on unless this prompt names it.
 *
 * @throws {import("../../base/errors.ts").ConfigError} a config on disk that is used and invalid
 */
async function judgedConfig(
  input: HookInput,
  at: { door: TurnDoor; repo: Repo; payload: TurnPayload; event: "prompt" | "stop" },
): Promise<TrustedConfig> {
  const { repo, payload } = at;
  const load = async () => (await loadConfig({ root: repo.root, env: input.env })).config;
  const session = await readSessionState(stateDir(repo.commonDir), payload.session_id);
  const start = session?.answered ?? session;
  if (at.event === "prompt" && !start?.heldConfig) return { config: await load(), hold: null };
  const { trustedConfig } = await import("./guard_config.ts");
  // our own block reason handed back as a prompt names the change but is not the user's
  const spoken = at.door.blockReasonIsPrompt && isBlockContinuation(session, payload.prompt ?? "")
    ? undefined
    : payload.prompt;
  const judged = at.event === "stop" ? session : {
    ...start,
    // the prompts the start goes on with (lib/gates/turn/baseline.ts `turnStart`), and this one
    prompt: [session?.answered ? undefined : session?.prompt, spoken].filter(Boolean).join("\n\n"),
  };
  return await trustedConfig(input.runner, { repo, env: input.env, session: judged }, load);
}

/**
 * The stop hook's time in seconds: the gate's `timeout_seconds`, or the agent's own limit on the
 * hook when that is shorter (a plugin's hook timeout).
 */
export function hookSeconds(gate: Pick<GateContext, "gate" | "door">): number {
  return Math.min(gate.gate.timeout_seconds, gate.door.hookTimeoutSeconds ?? Infinity);
}
