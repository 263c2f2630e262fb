/**
 * Opening a turn gate (DESIGN.md "Gates"): the fast paths every turn hook takes before any heavy
 * module loads — skip switches (`REVIEW_GATE=0`, `REVIEW_GATE_CHILD=1`), malformed stdin or
 * another event, not a repository, gate disabled — then the parsed payload, repository and config.
 *
 * @module
 */
import { type Config, loadConfig } from "../../config/config.ts";
import { type Repo, resolveRepo } from "../../git/repo.ts";
import type { TurnDoor, TurnGateConfig, TurnPayload } from "./door.ts";
import { type HookInput, hooksSwitchedOff } from "../hook_io.ts";

/** What a gate works with once it is open. */
export interface GateContext {
  /** The agent's front door the hook came through. */
  door: TurnDoor;
  payload: TurnPayload;
  repo: Repo;
  config: Config;
  /** This gate's settings (`door.gateConfig(config)`). */
  gate: TurnGateConfig;
}

/**
 * Parse stdin with the door's parser and resolve repo + config.
 *
 * @param input the hook's stdin, env, cwd and runner
 * @param door the agent's front door
 * @param wanted which payloads this hook handles, e.g. `door.isStop`
 * @returns the context, or `null` meaning "allow silently"
 * @throws {import("../../base/errors.ts").ConfigError} a config file that cannot be read or is invalid
 */
export async function openGate(
  input: HookInput,
  door: TurnDoor,
  wanted: (p: TurnPayload) => boolean,
): Promise<GateContext | null> {
  if (hooksSwitchedOff(input.env)) return null;
  const parsed = door.parse(input.stdinText);
  if (!parsed.ok || !wanted(parsed.payload)) return null;
  const payload = parsed.payload;
  let repo: Repo;
  try {
    repo = await resolveRepo(input.runner, payload.cwd || input.cwd);
  } catch {
    return null; // not a git repository (or git missing): nothing to gate
  }
  const { config } = await loadConfig({ root: repo.root, env: input.env });
  const gate = door.gateConfig(config);
  if (!gate.enabled) return null;
  return { door, payload, repo, config, gate };
}
