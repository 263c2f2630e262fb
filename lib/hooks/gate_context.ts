/**
 * Opening a Claude Code gate (DESIGN.md "Gates"): the fast paths every Claude hook takes before any
 * heavy module loads — skip switches (`REVIEW_GATE=0`, `REVIEW_GATE_CHILD=1`), malformed stdin or
 * another event, not a repository, gate disabled — then the parsed payload, repository and config.
 *
 * @module
 */
import { type Config, loadConfig } from "../config/config.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { type ClaudeHookPayload, parseHookPayload } from "./claude_payload.ts";
import { type HookInput, hooksSwitchedOff } from "./hook_io.ts";

/** What a gate works with once it is open. */
export interface GateContext {
  payload: ClaudeHookPayload;
  repo: Repo;
  config: Config;
}

/**
 * Parse stdin (PROVIDERS.md "Claude Code hooks") and resolve repo + config.
 *
 * @param input the hook's stdin, env, cwd and runner
 * @param wanted which payloads this hook handles, e.g. `isMainAgentStop`
 * @returns the context, or `null` meaning "allow silently"
 * @throws {import("../base/errors.ts").ConfigError} a config file that cannot be read or is invalid
 */
export async function openGate(
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
