/**
 * `gate status` for the turn gates whose hooks live in an agent's own hooks or settings files
 * (Codex, GitHub Copilot CLI, Qwen Code, Gemini CLI): one row each — which gate, which install flag, how its
 * installer's status module reads the files (lib/install/<agent>/status.ts), and whether the
 * installed Stop timeout is shorter than the configured one. Adding such an agent is one row.
 *
 * @module
 */
import type { Config } from "../config/config.ts";

/** What every agent's status module reports per scope that holds our hooks. */
export interface AgentHookStatus {
  scope: string;
  path: string;
  detail: string;
}

/** One agent whose Stop gate is installed into its own files. */
interface AgentHooks {
  gate: "codex-stop" | "copilot-stop" | "qwen-stop" | "gemini-stop";
  key: "codex_stop" | "copilot_stop" | "qwen_stop" | "gemini_stop";
  flag: string;
  /** `hooks` or `settings`: what the agent calls the file ours are in. */
  file: string;
  load(options: { root: string; env: Record<string, string | undefined> }): Promise<{
    statuses: AgentHookStatus[];
    timeoutProblem(status: AgentHookStatus, configured: number): string | null;
  }>;
}

const AGENTS: readonly AgentHooks[] = [
  {
    gate: "codex-stop",
    key: "codex_stop",
    flag: "codex",
    file: "hooks",
    async load(options) {
      const m = await import("../install/codex/status.ts");
      const statuses = await m.codexHookStatuses(options);
      return { statuses, timeoutProblem: (s, c) => m.codexTimeoutProblem(s as never, c) };
    },
  },
  {
    gate: "copilot-stop",
    key: "copilot_stop",
    flag: "copilot",
    file: "hooks",
    async load(options) {
      const m = await import("../install/copilot/status.ts");
      const statuses = await m.copilotHookStatuses(options);
      return { statuses, timeoutProblem: (s, c) => m.copilotTimeoutProblem(s as never, c) };
    },
  },
  {
    gate: "qwen-stop",
    key: "qwen_stop",
    flag: "qwen",
    file: "settings",
    async load(options) {
      const m = await import("../install/qwen/status.ts");
      const statuses = await m.qwenHookStatuses(options);
      return { statuses, timeoutProblem: (s, c) => m.qwenTimeoutProblem(s as never, c) };
    },
  },
  {
    gate: "gemini-stop",
    key: "gemini_stop",
    flag: "gemini",
    file: "settings",
    async load(options) {
      const m = await import("../install/gemini/status.ts");
      const statuses = await m.geminiHookStatuses(options);
      return { statuses, timeoutProblem: (s, c) => m.geminiTimeoutProblem(s as never, c) };
    },
  },
];

/** Where each agent gate is installed, in words, and the warnings about its timeouts. */
export interface AgentHookReport {
  installed: Record<AgentHooks["gate"], string>;
  /** Lines (with `\n`) such as `WARNING: codex-stop (user): …`. */
  warnings: string[];
}

/**
 * Read every agent's installed hooks.
 *
 * @param options the repository root and the environment (each agent's home variables, `HOME`)
 * @param config the config in force (the gates' `timeout_seconds`)
 */
export async function agentHookReport(
  options: { root: string; env: Record<string, string | undefined> },
  config: Config,
): Promise<AgentHookReport> {
  const installed = {} as AgentHookReport["installed"];
  const warnings: string[] = [];
  for (const agent of AGENTS) {
    const { statuses, timeoutProblem } = await agent.load(options);
    installed[agent.gate] = statuses.length > 0
      ? statuses.map((h) => `installed in ${h.scope} ${agent.file} (${h.path}): ${h.detail}`)
        .join("; ")
      : `NOT installed, so it never runs (run "review-gate install --${agent.flag}")`;
    for (const hook of statuses) {
      const problem = timeoutProblem(hook, config.gates[agent.key].timeout_seconds);
      if (problem) warnings.push(`WARNING: ${agent.gate} (${hook.scope}): ${problem}\n`);
    }
  }
  return { installed, warnings };
}
