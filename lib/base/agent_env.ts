/**
 * Is this process running inside a coding agent's session rather than the user's own terminal?
 * Claude Code sets `CLAUDECODE=1` for the commands its tools run, Codex `CODEX_SANDBOX*` for
 * sandboxed commands, review-gate `REVIEW_GATE_CHILD=1` for its reviewers. Decisions that are the
 * user's (accepting a finding, switching a gate off mid-turn) look here.
 *
 * @module
 */

/** Variables that mark a command run by a coding agent. */
export const AGENT_MARKERS: readonly string[] = [
  "CLAUDECODE",
  "CODEX_SANDBOX",
  "CODEX_SANDBOX_NETWORK_DISABLED",
  "REVIEW_GATE_CHILD",
];

/**
 * The first agent marker set (non-empty) in `env`.
 *
 * @returns the variable's name, or `undefined` when none is set
 */
export function agentMarker(env: Record<string, string | undefined>): string | undefined {
  return AGENT_MARKERS.find((name) => (env[name] ?? "") !== "");
}
