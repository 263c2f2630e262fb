/**
 * The Codex CLI's front door to the turn gate: `hook codex-prompt` on `UserPromptSubmit` records
 * the turn's baseline, `hook codex-stop` on `Stop` reviews the turn — the same agent-neutral logic
 * as Claude Code's door (lib/gates/claude/door.ts) over lib/gates/turn/, with config
 * `gates.codex_stop`. The payload parser is lib/gates/codex/payload.ts; the answers are the turn
 * gate's own (lib/gates/turn/answer.ts), whose only shapes — `{"decision":"block","reason":…}`,
 * `{"systemMessage":…}` or nothing — are all Codex accepts.
 *
 * Verified facts, codex-cli 0.171.0 (npm `@openai/codex`), by running the pinned binary against a
 * loopback mock of the Responses API, and from the hook schemas embedded in it:
 * - **Where hooks are read.** Hooks are on by default (feature `hooks`). Every config layer's
 *   `hooks.json` and inline `[hooks]` tables of its `config.toml` load and merge: the user's
 *   `$CODEX_HOME/hooks.json` (default `~/.codex`), and `<project root>/.codex/hooks.json` only when
 *   the project is trusted (project root = nearest ancestor with `.git`). Format:
 *   `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": …, "timeout": <s>,
 *   "statusMessage": …}]}]}}`; the timeout key is `timeout` (`timeout_sec` is silently ignored →
 *   600 s). Unknown keys and events are ignored.
 * - **Trust.** A hook runs only once trusted, per entry: the user's `config.toml` holds
 *   `[hooks.state."<hooks file>:<event>:<group index>:<handler index>"] trusted_hash =
 *   "sha256:…"`, the hash covering event, command, timeout, `async` and `statusMessage` (not the
 *   file path, not the script). The key is positional and the hash covers the command and timeout:
 *   inserting a group before the user's turns theirs "modified", changing our command or timeout
 *   untrusts ours — so install appends our groups at the end and keeps both stable. An untrusted
 *   hook is skipped **silently** in `codex exec`; the TUI asks "Hooks need review" at start-up and
 *   `/hooks` trusts single hooks. Project trust does not trust hooks; a repository cannot trust its
 *   own hooks. lib/install/codex/trust.ts recomputes the hash for `doctor` (the contract suite
 *   checks it equals the `currentHash` Codex's own `codex app-server` `hooks/list` reports). The
 *   TUI trusts through `codex app-server`: `config/batchWrite` of `projects."<root>".trust_level`
 *   and of `hooks.state."<key>".trusted_hash`, which a tool can call the same way.
 * - **Process.** `/bin/bash -c '<command>'` in its own process group, cwd = the session cwd (which
 *   does not move: Codex keeps no `cd` state), the parent's whole environment, no project-dir
 *   variable. On `timeout` Codex kills the hook's process group (our review child included) and
 *   goes on as if allowed.
 * - **Payloads.** UserPromptSubmit: `session_id`, `turn_id`, `transcript_path`, `cwd`,
 *   `hook_event_name`, `model`, `permission_mode`, `prompt` (raw), plus `agent_id`/`agent_type` for
 *   a subagent's prompt (ignored here: it would reset the main turn's baseline). Stop: the same
 *   minus `prompt`, plus `stop_hook_active` (true on every stop after a block **in the same turn**,
 *   reset each turn) and `last_assistant_message` (nullable). A subagent stops with `SubagentStop`.
 * - **Answers.** UserPromptSubmit: plain stdout is added to the model's input as a developer
 *   message, so `codex-prompt` prints **nothing**. Stop: `{"decision":"block","reason":R}` (exit 0)
 *   makes the model continue the same turn with R as a user message; the output schema is strict —
 *   an unknown key, a missing or empty reason, or `decision` other than `"block"` voids the whole
 *   answer and the turn ends as if allowed; `{"systemMessage":S}` allows and shows S in the TUI and
 *   app clients only (`codex exec` prints neither it nor hook stderr). Every failure fails open.
 * - **On block.** The reason reaches the model as a user message
 *   `<hook_prompt hook_run_id="stop:…">R</hook_prompt>` (R XML-escaped) in the **same turn** (same
 *   `turn_id`); the next Stop carries `stop_hook_active: true`. `codex exec --json` shows no hook
 *   event at all: a block is visible only as more model turns. Matching hooks of one event run
 *   concurrently and their block reasons are joined (Codex's docs and source; not run here).
 * - **No loop limit.** A hook that always blocks got 1365 blocks in 300 s of one turn: Codex never
 *   gives up, so `max_blocks` (counted by the turn gate whether or not `stop_hook_active` is set)
 *   is the only loop guard.
 * - **Review children.** `codex exec` runs trusted hooks (user and project, `UserPromptSubmit` and
 *   `Stop`) like the TUI does; the child review-gate starts is kept away from them by the provider
 *   adapter (a private `CODEX_HOME` without hooks or project trust, a private copy of the tree
 *   without `.codex/`, `--disable hooks`, `notify=[]`) and, whatever slips through, by
 *   `REVIEW_GATE_CHILD=1`, which makes every hook of ours return at once. The contract test
 *   test/contract/codex_project_hooks_test.ts runs a Codex session reviewed by Codex with trusted
 *   probe hooks in both layers: they run for the session's prompt and stops, never in a child.
 *
 * @module
 */
import { ALLOW, type HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import { isMainPromptSubmit, isStop, parseCodexPayload } from "./payload.ts";

/** Codex's door: `codex-prompt` / `codex-stop`, config `gates.codex_stop`. */
export const CODEX_DOOR: TurnDoor = {
  gateName: "codex-stop",
  promptHookName: "codex-prompt",
  turnLabel: "this Codex turn's changes",
  gateConfig: (config) => config.gates.codex_stop,
  parse: parseCodexPayload,
  isPrompt: isMainPromptSubmit,
  isStop,
  isToolUse: (payload) => payload.hook_event_name === "PostToolUse",
  workerHookName: "codex-worker",
  projectDir: () => undefined, // Codex names none; its cwd does not move
};

/**
 * `hook codex-work` on Codex's `PostToolUse`: note that files changed and keep the session's
 * background review going (lib/gates/turn/work_hook.ts); exit 0 with no stdout, always.
 */
export const codexWorkHook: HookEntry = {
  run: async (input) => (await import("../turn/work_hook.ts")).runWorkHook(input, CODEX_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook codex-worker <session> <root> <job>`: the detached background worker of one session. */
export const codexWorkerHook: HookEntry = {
  run: async (input, args) => {
    const { parseWorkerArgs, runWorker } = await import("../turn/worker.ts");
    const parsed = parseWorkerArgs(args);
    return parsed ? await runWorker(input, CODEX_DOOR, parsed) : ALLOW;
  },
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook codex-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const codexPromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, CODEX_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** `hook codex-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const codexStopHook: HookEntry = {
  run: async (input) => (await import("../turn/stop.ts")).runStopGate(input, CODEX_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
