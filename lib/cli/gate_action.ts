/**
 * The work of `review-gate gate` (lib/cli/gate.ts defines the command and loads this when it
 * runs). `gate enable|disable <pre-push|claude-stop|codex-stop|copilot-stop|qwen-stop|gemini-stop|all>` (the name is required), `gate
 * warn|block <…>` and `gate status`: turn the gates on and off, or between warn and block mode
 * (README "Warn first"), in config without uninstalling them. Edits keep the file's comments and formatting
 * (lib/config/edit.ts), are validated, and are written atomically (lib/base/atomic_write.ts): a symlinked config
 * is edited at its target, an existing file keeps its mode, a new one is created `0644`.
 *
 * @module
 */
import { join } from "../base/path.ts";
import {
  type Config,
  type GateMode,
  loadConfig,
  parseConfigText,
  REPO_CONFIG_FILE,
  userConfigPath,
} from "../config/config.ts";
import { setGateEnabled, setGateSetting } from "../config/edit.ts";
import { ConfigError, UsageError } from "../base/errors.ts";
import { resolveRepo } from "../git/repo.ts";
import { writeFileAtomic } from "../base/atomic_write.ts";
import { claudeHookStatuses, stopTimeoutProblem } from "../install/claude/status.ts";
import { agentHookReport } from "./agent_hook_status.ts";
import { findEnabledPlugin } from "../install/claude/plugin.ts";
import { prePushStatus } from "../install/git/status.ts";
import type { CliDeps } from "./deps.ts";
import { gateChangeNote } from "./gate_change_note.ts";
import { readRegularText } from "../base/regular_file.ts";
import { didYouMean } from "../base/closest.ts";
import { agentMarker } from "../base/agent_env.ts";

const GATES = {
  "pre-push": "pre_push",
  "claude-stop": "claude_stop",
  "codex-stop": "codex_stop",
  "copilot-stop": "copilot_stop",
  "qwen-stop": "qwen_stop",
  "gemini-stop": "gemini_stop",
} as const;
type GateName = keyof typeof GATES;

/**
 * The gates a `gate enable|disable` argument names. There is no default: switching every gate off
 * by accident is too easy, so `all` must be written out.
 *
 * @throws UsageError when `which` is missing or names no gate.
 */
function pickGates(which: string | undefined, verb: string): GateName[] {
  if (which === "all") return Object.keys(GATES) as GateName[];
  if (which !== undefined && which in GATES) return [which as GateName];
  const choose =
    "choose pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop or all";
  if (which === undefined) {
    throw new UsageError(
      `Name the gate: ${choose} (e.g. "review-gate gate ${verb} pre-push")`,
    );
  }
  const near = didYouMean(which, [...Object.keys(GATES), "all"]).replace(/^, (.*)$/, " ($1)");
  throw new UsageError(`Unknown gate "${which}"${near}: ${choose}`);
}

/**
 * Refuse a loosening edit (`gate disable`, `gate warn`) run inside a coding agent's session
 * (lib/base/agent_env.ts). A courtesy line of defence only: the markers can be unset, and the turn
 * gate's guard holds the change back all the same (lib/gates/turn/guard.ts). Stricter edits
 * (`gate enable`, `gate block`) stay allowed.
 *
 * @throws UsageError (exit 2) when an agent marker is set
 */
function refuseInsideAgent(command: string, deps: CliDeps): void {
  const agent = agentMarker(deps.env);
  if (!agent) return;
  throw new UsageError(
    `Refusing to run "review-gate gate ${command}" from inside a coding agent's session (${agent} is set): loosening the review gate is the user's decision. Run it yourself in your own terminal.`,
  );
}

/**
 * `gate enable|disable`: set the gates' `enabled` in the repository's or the user's config.
 *
 * @throws UsageError for `disable` run inside a coding agent's session ({@linkcode refuseInsideAgent})
 */
export async function toggle(
  enabled: boolean,
  which: string | undefined,
  flags: { user?: boolean },
  deps: CliDeps,
) {
  const gates = pickGates(which, enabled ? "enable" : "disable");
  if (!enabled) refuseInsideAgent(`disable ${which}${flags.user ? " --user" : ""}`, deps);
  const { path, named } = await configTarget(flags, deps);
  const changed = await editConfigFile(
    path,
    (text) => setGateEnabled(text, gates.map((g) => GATES[g]), enabled),
  );
  deps.stdout.write(`${gates.join(", ")}: ${enabled ? "enabled" : "disabled"} in "${path}"\n`);
  if (flags.user) {
    for (const line of await repositoryOverrides(gates, { enabled }, deps)) {
      deps.stdout.write(`${line}\n`);
    }
  }
  if (!enabled && !flags.user && gates.includes("pre-push")) {
    deps.stdout.write(`${PRE_PUSH_REPO_SWITCH}\n`);
  }
  // both config files are guarded whole: any write is a change an agent's next Stop blocks on
  if (changed) deps.stdout.write(`${gateChangeNote([named])}\n`);
}

/**
 * `gate warn|block`: set the gates' `mode` in the repository's or the user's config (README "Warn
 * first"). Warn mode loosens a gate, so it counts only from a trusted side: a push reads the
 * repository's file as the remote has it (the worktree's may only make it stricter), and an agent
 * turn that is running keeps the mode it started with — both are said.
 *
 * @throws UsageError for `warn` run inside a coding agent's session ({@linkcode refuseInsideAgent})
 */
export async function setMode(
  mode: GateMode,
  which: string | undefined,
  flags: { user?: boolean },
  deps: CliDeps,
) {
  const gates = pickGates(which, mode);
  if (mode === "warn") refuseInsideAgent(`warn ${which}${flags.user ? " --user" : ""}`, deps);
  const { path, named } = await configTarget(flags, deps);
  const changed = await editConfigFile(
    path,
    (text) => setGateSetting(text, gates.map((g) => GATES[g]), "mode", mode),
  );
  const means = mode === "warn"
    ? ': a blocking finding is said as "would block" and the work goes through'
    : ": blocking findings block";
  deps.stdout.write(`${gates.join(", ")}: ${mode} mode in "${path}"${means}\n`);
  if (flags.user) {
    for (const line of await repositoryOverrides(gates, { mode }, deps)) {
      deps.stdout.write(`${line}\n`);
    }
  }
  if (mode === "warn" && !flags.user && gates.includes("pre-push")) {
    deps.stdout.write(`${PRE_PUSH_REPO_WARN}\n`);
  }
  if (changed) deps.stdout.write(`${gateChangeNote([named])}\n`);
}

/**
 * The config file a `gate` edit writes — the user config with `--user`, else the repository's
 * `.review-gate.json` — and the word a prompt names it by (lib/gates/turn/guard_files.ts).
 *
 * @throws {ConfigError} with `--user` when neither HOME nor XDG_CONFIG_HOME is set
 */
async function configTarget(
  flags: { user?: boolean },
  deps: CliDeps,
): Promise<{ path: string; named: string }> {
  if (flags.user) {
    const userPath = userConfigPath(deps.env);
    if (!userPath) {
      throw new ConfigError("Cannot find the user config: set HOME or XDG_CONFIG_HOME");
    }
    return { path: userPath, named: userPath };
  }
  const path = join((await resolveRepo(deps.runner, deps.cwd)).root, REPO_CONFIG_FILE);
  return { path, named: REPO_CONFIG_FILE };
}

/**
 * Edit a config file in place: refused while the file is invalid (the user must see the problem
 * first), the result validated, written atomically when it changed (a missing file is created).
 *
 * @param path the config file
 * @param edit the new text from the current one (`""` for a missing file)
 * @returns whether the file changed
 * @throws {ConfigError} when the file, or the edited text, is invalid
 */
async function editConfigFile(
  path: string,
  edit: (text: string) => Promise<string>,
): Promise<boolean> {
  let text = "";
  try {
    text = await readRegularText(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await parseConfigText(text, path);
  const next = await edit(text);
  await parseConfigText(next, path);
  if (next === text) return false;
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await writeFileAtomic(path, next);
  return true;
}

/**
 * After a `--user` edit: the gates whose state in this repository is still the other one, because
 * the repository's `.review-gate.json` sets `enabled` (or `mode`) itself and the repository's file
 * wins over the user's (lib/config/config.ts `loadConfig`). Outside a repository there is none.
 *
 * @param set the setting written: `enabled`, or `mode`
 * @returns one "Note: …" line per such gate (empty when the edit takes effect here)
 */
async function repositoryOverrides(
  gates: readonly GateName[],
  set: { enabled: boolean } | { mode: GateMode },
  deps: CliDeps,
): Promise<string[]> {
  let root: string;
  try {
    root = (await resolveRepo(deps.runner, deps.cwd)).root;
  } catch {
    return [];
  }
  const { config } = await loadConfig({ root, env: deps.env });
  const [key, want, other, command] = "mode" in set
    ? [
      "mode",
      `in ${set.mode} mode`,
      `in ${set.mode === "warn" ? "block" : "warn"} mode`,
      set.mode,
    ] as const
    : [
      "enabled",
      set.enabled ? "enabled" : "disabled",
      set.enabled ? "disabled" : "enabled",
      set.enabled ? "enable" : "disable",
    ] as const;
  const value = "mode" in set ? set.mode : set.enabled;
  return gates.filter((gate) => config.gates[GATES[gate]][key] !== value).map((gate) =>
    `Note: ${gate} stays ${other} in this repository: its ${REPO_CONFIG_FILE} sets gates.${
      GATES[gate]
    }.${key}, which wins over your user config. To have it ${want} here, change that file (review-gate gate ${command} ${gate})${
      gate === "pre-push" ? "; a push reads that file as the remote has it" : ""
    }.`
  );
}

/**
 * What `gate disable pre-push` (without `--user`) adds: a push is judged by the rules the remote
 * already has (lib/gates/pre_push/rules.ts), so a switch in the worktree's `.review-gate.json`
 * does not turn the push gate off.
 */
export const PRE_PUSH_REPO_SWITCH =
  `Note: this does not switch off the pre-push gate for your pushes. A push is judged by the rules the remote already has, so gates.pre_push.enabled: false in ${REPO_CONFIG_FILE} counts only once that file is committed and on the remote (the commit is reviewed like code). To switch it off for yourself: review-gate gate disable pre-push --user. For one push, in your own shell: REVIEW_GATE=0 git push (or git push --no-verify).`;

/**
 * What `gate warn pre-push` (without `--user`) adds: warn mode loosens the gate, so a push takes
 * it from the `.review-gate.json` the remote already has, never from the worktree's
 * (lib/gates/pre_push/rules.ts, lib/rules/untrusted.ts).
 */
export const PRE_PUSH_REPO_WARN =
  `Note: your pushes are not in warn mode yet. A push is judged by the rules the remote already has, so gates.pre_push.mode: "warn" in ${REPO_CONFIG_FILE} counts once that file is committed and on the remote (the commit is reviewed like code). For your own pushes now: review-gate gate warn pre-push --user.`;

/** `gate status`: each gate's state, where it is installed, where config comes from. */
export async function status(deps: CliDeps): Promise<void> {
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const { config, sources } = await loadConfig({ root: repo.root, env: deps.env });
  const skip = deps.env.REVIEW_GATE === "0" ? " (but REVIEW_GATE=0 skips every hook now)" : "";
  const claude = await claudeHookStatuses({ projectDir: repo.root, home: deps.env.HOME });
  const agents = await agentHookReport({ root: repo.root, env: deps.env }, config);
  const installed: Record<GateName, string> = {
    "pre-push": await prePushInstalled(deps, repo.root),
    "claude-stop": await claudeInstalled(deps, repo.root, claude),
    ...agents.installed,
  };
  // a push reads the repository's file from the remote, never the worktree's (only stricter)
  const userSide = (await loadConfig({ env: deps.env })).config.gates.pre_push;
  const yours = userSide.enabled;
  for (const [name, key] of Object.entries(GATES) as [GateName, keyof typeof config.gates][]) {
    let on = config.gates[key].enabled ? "enabled" : "disabled";
    if (name === "pre-push" && yours && !config.gates.pre_push.enabled) {
      on =
        `enabled for your pushes (the worktree's ${REPO_CONFIG_FILE} disables it, which counts only once that file is on the remote)`;
    }
    deps.stdout.write(`${name}: ${on}${skip}; ${installed[name]}\n`);
  }
  deps.stdout.write(modesLine(config, userSide.mode));
  deps.stdout.write(
    `config: ${sources.length ? sources.join(", ") : "defaults (no config file)"}\n`,
  );
  for (const hook of claude) {
    const problem = stopTimeoutProblem(hook, config.gates.claude_stop.timeout_seconds);
    if (problem) deps.stdout.write(`WARNING: claude-stop (${hook.scope}): ${problem}\n`);
  }
  for (const line of agents.warnings) deps.stdout.write(line);
}

/**
 * `gate status`'s line of the gates' modes (README "Warn first"). A push takes warn mode only from
 * the user config or the `.review-gate.json` the remote has: a worktree file that alone sets it is
 * named as not counting yet.
 *
 * @param config the config of the worktree and the user
 * @param userMode `gates.pre_push.mode` of the user config and defaults alone
 */
function modesLine(config: Config, userMode: GateMode): string {
  const modes = (Object.entries(GATES) as [GateName, keyof Config["gates"]][]).map(
    ([name, key]) => {
      const mode = config.gates[key].mode;
      if (name === "pre-push" && mode === "warn" && userMode === "block") {
        return `${name} block for your pushes (the worktree's ${REPO_CONFIG_FILE} sets warn, which counts only once that file is on the remote)`;
      }
      return `${name} ${mode}`;
    },
  );
  const warn = modes.some((m) => / warn$/.test(m))
    ? ' (warn: blocking findings are said as "would block" and the work goes through; "review-gate gate block NAME" makes them block)'
    : "";
  return `modes: ${modes.join(", ")}${warn}\n`;
}

/** Whether git will run the pre-push hook, in words (lib/install/git/status.ts). */
async function prePushInstalled(deps: CliDeps, root: string): Promise<string> {
  const hook = await prePushStatus(deps.runner, root);
  if (!hook.installed) {
    // said once: the status's own detail begins "not installed" too
    return `NOT installed, so it never runs (git runs hooks from "${hook.hooksDir}"; run "review-gate install --git")`;
  }
  return hook.runs ? hook.detail : `installed but NOT run: ${hook.detail}`;
}

/** Where Claude Code's Stop gate is installed: settings files, or the plugin. */
async function claudeInstalled(
  deps: CliDeps,
  root: string,
  hooks: Awaited<ReturnType<typeof claudeHookStatuses>>,
): Promise<string> {
  const where = hooks.map((h) => `${h.state} in ${h.scope} settings (${h.path})`);
  const plugin = await findEnabledPlugin({ projectDir: root, env: deps.env });
  if (plugin) where.push(`plugin "${plugin.id}" enabled in ${plugin.enabledIn} settings`);
  return where.length > 0
    ? where.join("; ")
    : 'NOT installed, so it never runs (run "review-gate install --claude")';
}
