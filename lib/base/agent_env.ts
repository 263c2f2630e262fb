/**
 * Is this process running inside a coding agent's session rather than the user's own terminal?
 * Claude Code sets `CLAUDECODE=1` for the commands its tools run, Codex `CODEX_SANDBOX*` for
 * sandboxed commands, review-gate `REVIEW_GATE_CHILD=1` for its reviewers. `ack` looks here to
 * refuse politely when an agent runs it. This is a courtesy, never a trust boundary: the agent can
 * unset every marker (`env -u CLAUDECODE …`), so nothing a gate decides depends on it — a change
 * made during a turn is the turn's, whoever ran the command (lib/gates/turn/guard.ts).
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
