/**
 * The work of `review-gate doctor` (lib/cli/doctor.ts defines the command and loads this when it
 * runs): reports the provider CLIs (found, version), what auth the reviewer will use
 * (sources only, never secrets), config validity, and each hook's state (git pre-push: reached;
 * Claude Code: installed, Stop timeout; Codex: trusted and switched on, Stop timeout) — including a
 * pre-push hook that is installed but not run by git (e.g. installed in
 * `.git/hooks` while `core.hooksPath` points elsewhere) — and, per agent, how far its own sandbox
 * keeps it out of review-gate's state (`install --guard`). Exits 0 when nothing needs attention, 1
 * otherwise.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { type Config, DEFAULT_CONFIG, loadConfig } from "../config/config.ts";
import { ReviewGateError } from "../base/errors.ts";
import { SpawnError } from "../exec/exec.ts";
import { notExecutableText } from "../exec/spawn_hint.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import {
  claudeHookStatuses,
  stopTimeoutProblem,
  workHookProblem,
} from "../install/claude/status.ts";
import { claudeGuardStatus } from "../install/claude/guard_status.ts";
import { CODEX_PROFILE, codexGuardStatus } from "../install/codex/guard.ts";
import { userStateDir } from "../store/user_state.ts";
import { codexHookStatuses, codexTimeoutProblem } from "../install/codex/status.ts";
import { prePushStatus } from "../install/git/status.ts";
import { missingProgramText } from "../install/missing_program.ts";
import { findEnabledPlugin } from "../install/claude/plugin.ts";
import { readTextOrNull } from "../install/file_actions.ts";
import { MANAGED_MARKER } from "../install/git/stub.ts";
import { reviewGateSkips } from "../gates/hook_io.ts";
import {
  AUTO_PROVIDER,
  getProvider,
  PROVIDER_NAMES,
  providerMeta,
  resolveBinary,
} from "../providers/registry.ts";
import { authState, notFoundText } from "../providers/availability.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import type { CliDeps } from "./deps.ts";

/** One line of the report. */
export interface DoctorCheck {
  area: string;
  ok: boolean;
  /** `ok: false` checks that are information, not problems (an optional provider missing). */
  optional?: boolean;
  /** `ok: false` checks that may be a problem but do not fail `doctor` (no credentials seen). */
  warning?: boolean;
  detail: string;
}

async function checkProviders(
  deps: CliDeps,
  selected: string,
  names: readonly string[] = PROVIDER_NAMES,
): Promise<DoctorCheck[]> {
  return await Promise.all(names.map(async (name) => {
    const adapter = await getProvider(name);
    const bin = resolveBinary(adapter, deps.env);
    const optional = name !== selected;
    try {
      const result = await deps.runner({
        cmd: bin,
        args: adapter.versionArgs,
        stdin: null,
        timeoutMs: 10_000,
      });
      const text = new TextDecoder().decode(result.stdout).trim().split("\n")[0];
      if (result.code !== 0) {
        // what it said: an npm install whose platform package or install script was skipped
        // leaves a loader or stub that names the fix on stderr
        const said = sanitizeForTerminal(
          new TextDecoder().decode(result.stderr).trim().split("\n")[0] ?? "",
        ).slice(0, 200);
        return {
          area: `provider ${name}`,
          ok: false,
          optional,
          detail: `"${bin}" ${adapter.versionArgs.join(" ")} exited ${result.code}${
            said ? `: ${said}` : ""
          }`,
        };
      }
      const fake = await isBundledFake(name, deps) ? "the bundled fake, " : "";
      return { area: `provider ${name}`, ok: true, detail: `${text || "found"} (${fake}${bin})` };
    } catch (error) {
      const notExecutable = notExecutableText(error, bin);
      const missing = error instanceof SpawnError;
      return {
        area: `provider ${name}`,
        ok: false,
        optional,
        detail: notExecutable ??
          (missing ? notFoundText(adapter, bin) : (error as Error).message),
      };
    }
  }));
}

async function checkGitHook(deps: CliDeps, repo: Repo): Promise<DoctorCheck[]> {
  const status = await prePushStatus(deps.runner, deps.cwd);
  const checks: DoctorCheck[] = [{
    area: "git pre-push hook",
    ok: status.runs,
    optional: !status.installed,
    detail: status.detail,
  }];
  const defaultHook = join(repo.commonDir, "hooks", "pre-push");
  if (
    defaultHook !== status.path && (await readTextOrNull(defaultHook))?.includes(MANAGED_MARKER)
  ) {
    checks.push({
      area: "git pre-push hook",
      ok: false,
      detail:
        `installed in "${defaultHook}" but NOT run by git: core.hooksPath points at "${status.hooksDir}"; run "review-gate install --git" again`,
    });
  }
  return checks;
}

async function checkClaude(
  deps: CliDeps,
  repo: Repo,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const statuses = await claudeHookStatuses({ projectDir: repo.root, home: deps.env.HOME });
  const checks: DoctorCheck[] = statuses.map((status) => {
    const area = `claude hooks (${status.scope})`;
    if (status.state === "invalid") return { area, ok: false, detail: status.problem! };
    if (status.state === "incomplete") {
      return {
        area,
        ok: false,
        detail: `incomplete in "${status.path}": run "review-gate install --claude" again`,
      };
    }
    if (status.missing) {
      const reinstall = `review-gate install --claude --scope ${status.scope}`;
      return {
        area,
        ok: false,
        detail: missingProgramText(status.missing, "every Claude Code turn's hooks", reinstall),
      };
    }
    const timeout = config && stopTimeoutProblem(status, config.gates.claude_stop.timeout_seconds);
    const gate = config?.gates.claude_stop;
    const work = gate && workHookProblem(status, gate.enabled && gate.review_while_working);
    if (timeout || work) return { area, ok: false, detail: (timeout || work)! };
    return {
      area,
      ok: true,
      detail: `installed (${status.path})${
        status.guard ? "; the guard refuses the agent's gate escapes" : ""
      }${status.work ? "; reviews while the agent works (PostToolUse)" : ""}`,
    };
  });
  const plugin = await findEnabledPlugin({ projectDir: repo.root, env: deps.env });
  if (plugin) {
    const twice = statuses.some((s) => s.state !== "invalid");
    checks.push({
      area: "claude plugin",
      ok: !twice,
      detail: twice
        ? `"${plugin.id}" is enabled (${plugin.enabledIn} settings) as well as the hooks in settings: ` +
          `both run at every stop (one reviews); keep one: "review-gate uninstall --claude" or ` +
          `"claude plugin disable ${plugin.id} --scope ${plugin.enabledIn}"`
        : `"${plugin.id}" enabled (${plugin.enabledIn} settings)`,
    });
  }
  if (checks.length === 0) {
    checks.push({ area: "claude hooks", ok: false, optional: true, detail: "not installed" });
  } else {
    checks.push(await checkClaudeGuard(deps, repo));
  }
  return checks;
}

/** The level `install --guard` reached for Claude Code (README "Security model"). */
async function checkClaudeGuard(deps: CliDeps, repo: Repo): Promise<DoctorCheck> {
  const area = "state protection (claude)";
  const status = await claudeGuardStatus({
    runner: deps.runner,
    repo,
    projectDir: repo.root,
    env: deps.env,
  });
  if (status.level === "sandbox") {
    return {
      area,
      ok: true,
      detail:
        "state protected by the agent's sandbox: Claude Code refuses its file tools and runs Bash confined away from .git/review-gate/, the hooks, the state folder and the key",
    };
  }
  if (status.level === "tool-rules") {
    return {
      area,
      ok: false,
      warning: true,
      detail: `tool rules only: a shell command can still forge it (${status.why})`,
    };
  }
  return {
    area,
    ok: false,
    optional: true,
    detail:
      `none: the agent can rewrite review-gate's state and read its key; "review-gate install --claude --guard" adds the rules (${status.why})`,
  };
}

/** Codex: the permission profile `install --codex --guard` writes (README "Guard"). */
async function checkCodexGuard(env: Record<string, string | undefined>): Promise<DoctorCheck> {
  const area = "state protection (codex)";
  const status = await codexGuardStatus(env);
  if (status.on) {
    return {
      area,
      ok: true,
      detail:
        `state protected by the agent's sandbox: Codex's "${CODEX_PROFILE}" permission profile keeps .git read-only and the state folder unreadable to its commands (not when it runs with --sandbox)`,
    };
  }
  const dir = userStateDir(env) ?? "the per-user state folder";
  return {
    area,
    ok: false,
    optional: true,
    detail:
      `none: Codex's shell commands can read the key in ${dir}: a shell command can still forge the state (${status.why})`,
  };
}

/** The agents review-gate has no guard for, by the name `install` takes, and how people call them. */
const UNGUARDED_AGENTS = {
  copilot: "the GitHub Copilot CLI",
  qwen: "Qwen Code",
  gemini: "Gemini CLI",
} as const;

/**
 * An agent with no guard of review-gate's: `install --<agent> --guard` writes nothing for it
 * (README "Guard"), and this says what that leaves open.
 *
 * @param agent `copilot`, `qwen` or `gemini`
 */
function checkNoGuard(
  agent: keyof typeof UNGUARDED_AGENTS,
  env: Record<string, string | undefined>,
): DoctorCheck {
  const dir = userStateDir(env) ?? "the per-user state folder";
  return {
    area: `state protection (${agent})`,
    ok: false,
    optional: true,
    detail: `none: review-gate has no guard for ${
      UNGUARDED_AGENTS[agent]
    } (--guard writes nothing for it): nothing refuses its shell's gate escapes (git push --no-verify, REVIEW_GATE=0), and its commands can read the key in ${dir} and forge the state; the Stop gate's own findings on changed config, hooks and settings remain`,
  };
}

async function checkCodex(
  deps: CliDeps,
  repo: Repo,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const statuses = await codexHookStatuses({ root: repo.root, env: deps.env });
  if (statuses.length === 0) {
    return [{ area: "codex hooks", ok: false, optional: true, detail: "not installed" }];
  }
  const checks = statuses.map((status): DoctorCheck => {
    const timeout = config &&
      codexTimeoutProblem(status, config.gates.codex_stop.timeout_seconds);
    return {
      area: `codex hooks (${status.scope})`,
      ok: status.runs && !timeout,
      detail: timeout ?? status.detail,
    };
  });
  return [...checks, await checkCodexGuard(deps.env)];
}

/** GitHub Copilot CLI: whether Copilot will run each installed hooks file of ours. */
async function checkCopilot(
  deps: CliDeps,
  repo: Repo,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const { copilotHookStatuses, copilotTimeoutProblem } = await import(
    "../install/copilot/status.ts"
  );
  const statuses = await copilotHookStatuses({ root: repo.root, env: deps.env });
  if (statuses.length === 0) {
    return [{ area: "copilot hooks", ok: false, optional: true, detail: "not installed" }];
  }
  return statuses.map((status): DoctorCheck => {
    const timeout = config &&
      copilotTimeoutProblem(status, config.gates.copilot_stop.timeout_seconds);
    return {
      area: `copilot hooks (${status.scope})`,
      ok: status.runs && !timeout,
      detail: timeout ?? status.detail,
    };
  }).concat(checkNoGuard("copilot", deps.env));
}

/**
 * Qwen Code: for each settings file holding our hooks (user, project), whether Qwen Code will run
 * them (lib/install/qwen/status.ts: `disableAllHooks`, folder trust for the project's file, the
 * program the hooks name) and whether the installed Stop timeout covers
 * `gates.qwen_stop.timeout_seconds`.
 */
async function checkQwen(
  deps: CliDeps,
  repo: Repo,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const { qwenHookStatuses, qwenTimeoutProblem } = await import("../install/qwen/status.ts");
  const statuses = await qwenHookStatuses({ root: repo.root, env: deps.env });
  if (statuses.length === 0) {
    return [{ area: "qwen hooks", ok: false, optional: true, detail: "not installed" }];
  }
  return statuses.map((status): DoctorCheck => {
    const timeout = config && qwenTimeoutProblem(status, config.gates.qwen_stop.timeout_seconds);
    return {
      area: `qwen hooks (${status.scope})`,
      ok: status.runs && !timeout,
      detail: timeout ?? status.detail,
    };
  }).concat(checkNoGuard("qwen", deps.env));
}

/**
 * Gemini CLI: for each settings file holding our hooks (user, project), whether Gemini CLI will
 * run them (lib/install/gemini/status.ts: `hooksConfig`, folder trust, the program the hooks name)
 * and whether the installed AfterAgent timeout covers `gates.gemini_stop.timeout_seconds`.
 */
async function checkGemini(
  deps: CliDeps,
  repo: Repo,
  config: Config | undefined,
): Promise<DoctorCheck[]> {
  const { geminiHookStatuses, geminiTimeoutProblem } = await import(
    "../install/gemini/status.ts"
  );
  const statuses = await geminiHookStatuses({ root: repo.root, env: deps.env });
  if (statuses.length === 0) {
    return [{ area: "gemini hooks", ok: false, optional: true, detail: "not installed" }];
  }
  return statuses.map((status): DoctorCheck => {
    const timeout = config &&
      geminiTimeoutProblem(status, config.gates.gemini_stop.timeout_seconds);
    return {
      area: `gemini hooks (${status.scope})`,
      ok: status.runs && !timeout,
      detail: timeout ?? status.detail,
    };
  }).concat(checkNoGuard("gemini", deps.env));
}

/**
 * The environment switches that silently turn the gates off: `REVIEW_GATE` set to a skip value
 * (`0`, `false`, `off`, `no`) and `REVIEW_GATE_CHILD=1` (meant only for the children review-gate
 * starts; set in a user's shell it skips every hook).
 *
 * @returns failing checks, one per switch that is on (none when the gates run)
 */
export function checkEnvironment(env: Record<string, string | undefined>): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  if (reviewGateSkips(env)) {
    checks.push({
      area: "environment",
      ok: false,
      detail: `REVIEW_GATE=${
        JSON.stringify(env.REVIEW_GATE)
      } is set: every hook is skipped; unset it to run the gates`,
    });
  }
  if (env.REVIEW_GATE_CHILD === "1") {
    checks.push({
      area: "environment",
      ok: false,
      detail:
        "REVIEW_GATE_CHILD=1 is set: every gate is silently off (it is meant only for processes review-gate starts); unset it",
    });
  }
  return checks;
}

/**
 * A gate's state in the config check: `disabled`, or `enabled in block mode` / `enabled in warn
 * mode` (README "Warn first": warn says what it would block and lets the work through).
 */
function gateState(gate: { enabled: boolean; mode: string }): string {
  return gate.enabled ? `enabled in ${gate.mode} mode` : "disabled";
}

/** The config check, and the config and provider it gives (the default provider when invalid). */
async function checkConfig(
  deps: CliDeps,
  root: string | undefined,
): Promise<{ config?: Config; provider: string; check: DoctorCheck }> {
  try {
    const { config, sources } = await loadConfig({ root, env: deps.env });
    return {
      config,
      provider: config.provider,
      check: {
        area: "config",
        ok: true,
        detail:
          `valid (${
            sources.length ? sources.join(", ") : "defaults"
          }); provider ${config.provider}; ` +
          `pre-push ${gateState(config.gates.pre_push)}, ` +
          `claude-stop ${gateState(config.gates.claude_stop)}, ` +
          `codex-stop ${gateState(config.gates.codex_stop)}, ` +
          `copilot-stop ${gateState(config.gates.copilot_stop)}, ` +
          `qwen-stop ${gateState(config.gates.qwen_stop)}, ` +
          `gemini-stop ${gateState(config.gates.gemini_stop)}`,
      },
    };
  } catch (error) {
    if (!(error instanceof ReviewGateError)) throw error;
    return {
      provider: DEFAULT_CONFIG.provider,
      check: { area: "config", ok: false, detail: error.message },
    };
  }
}

/**
 * What `install` checks before the hooks it writes first run (README.md "Install"): the config
 * loads, the selected provider's binary starts, and credentials are found for it (the bundled fake
 * needs none) — the same checks as `doctor`, so each names its fix.
 *
 * @param deps the CLI's I/O (`cwd` inside the repository)
 * @param root the repository's worktree root
 * @returns the checks that need attention (not ok, optional ones left out), in that order
 */
export async function setupProblems(deps: CliDeps, root: string): Promise<DoctorCheck[]> {
  const { provider, check } = await checkConfig(deps, root);
  if (!check.ok) {
    // which provider is meant is unknown until the config loads: only the config is named
    const detail = `${check.detail} (until then the gates cannot review; "review-gate doctor" ` +
      "checks it again)";
    return [{ ...check, detail }];
  }
  const chosen = provider === AUTO_PROVIDER ? await checkChoice(deps, root) : null;
  if (chosen?.provider === null) return [chosen.check];
  const name = chosen?.provider ?? provider;
  const selected = await checkProviders(deps, name, [name]);
  const checks = [...selected];
  if (selected.every((c) => c.ok)) checks.push(await checkReviewerAuth(deps, name));
  return checks.filter((c) => !c.ok && !c.optional);
}

/**
 * The "state protection" checks of the agents `install --guard` just set up (README.md "Guard"):
 * what level each reached, in doctor's words.
 *
 * @param targets the install targets chosen (`claude`, `codex`, …; others are ignored)
 */
export async function guardChecks(
  deps: CliDeps,
  repo: Repo,
  targets: readonly string[],
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  if (targets.includes("claude")) checks.push(await checkClaudeGuard(deps, repo));
  if (targets.includes("codex")) checks.push(await checkCodexGuard(deps.env));
  for (const agent of ["copilot", "qwen", "gemini"] as const) {
    if (targets.includes(agent)) checks.push(checkNoGuard(agent, deps.env));
  }
  return checks;
}

/** Gather every check. */
export async function runDoctor(deps: CliDeps): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  let repo: Repo | undefined;
  try {
    repo = await resolveRepo(deps.runner, deps.cwd);
  } catch (error) {
    checks.push({
      area: "repository",
      ok: false,
      optional: true,
      detail: (error as Error).message,
    });
  }
  const { config: loaded, provider: setting, check } = await checkConfig(deps, repo?.root);
  checks.push(check);
  const chosen = setting === AUTO_PROVIDER ? await checkChoice(deps, repo?.root) : null;
  if (chosen) checks.push(chosen.check);
  const provider = chosen ? chosen.provider : setting;
  checks.push(...await checkProviders(deps, provider ?? ""));
  if (provider !== null) checks.push(await checkReviewerAuth(deps, provider));
  if (repo) {
    checks.push(...await checkGitHook(deps, repo), ...await checkClaude(deps, repo, loaded));
    checks.push(...await checkCodex(deps, repo, loaded));
    checks.push(...await checkCopilot(deps, repo, loaded));
    checks.push(...await checkQwen(deps, repo, loaded));
    checks.push(...await checkGemini(deps, repo, loaded));
  }
  checks.push(...checkEnvironment(deps.env));
  return checks;
}

/**
 * What auth and provider the review child of the selected provider will use (the adapter reads
 * the user's config the way a review does; no secret is printed).
 */
async function checkReviewerAuth(deps: CliDeps, provider: string): Promise<DoctorCheck> {
  const area = `reviewer auth (${provider})`;
  const auth = await authState(providerMeta(provider), deps.env, deps.cwd);
  if (auth.state === "ok") return { area, ok: true, detail: auth.lines.join("; ") };
  return {
    area,
    ok: false,
    ...(auth.state === "none" ? { warning: true } : {}),
    detail: auth.message,
  };
}

/** Whether the provider's binary is the bundled fake (lib/providers/bundled_fake.ts). */
async function isBundledFake(provider: string, deps: CliDeps): Promise<boolean> {
  const { isBundledFake } = await import("../providers/bundled_fake.ts");
  return await isBundledFake(providerMeta(provider), deps.env, deps.cwd);
}

/**
 * `provider: "auto"`: which provider it chooses now and why it passed over those before it
 * (lib/providers/auto.ts), or, when it finds none, a failing check naming each provider's fix.
 *
 * @returns the provider the other checks are about (`null` when none was found) and the check
 */
async function checkChoice(
  deps: CliDeps,
  root: string | undefined,
): Promise<{ provider: string | null; check: DoctorCheck }> {
  const { chooseProvider, choiceText, NoProviderError } = await import("../providers/auto.ts");
  try {
    const { provider, choice } = await chooseProvider(deps.env, root ?? deps.cwd);
    return {
      provider,
      check: {
        area: "provider choice",
        ok: true,
        detail: `reviewing with ${provider} (${choiceText(choice)})`,
      },
    };
  } catch (error) {
    if (!(error instanceof NoProviderError)) throw error;
    return { provider: null, check: { area: "provider choice", ok: false, detail: error.message } };
  }
}

/** `doctor`: print every check; sets the exit code (1 when one needs attention). */
export async function doctorAction(deps: CliDeps, setExit: (code: number) => void): Promise<void> {
  const checks = await runDoctor(deps);
  for (const c of checks) {
    const mark = c.ok ? "ok  " : c.warning ? "WARN" : c.optional ? "--  " : "FAIL";
    deps.stdout.write(sanitizeForTerminal(`${mark} ${c.area}: ${c.detail}\n`));
  }
  setExit(checks.some((c) => !c.ok && !c.optional && !c.warning) ? 1 : 0);
}
