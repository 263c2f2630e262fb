/**
 * What `review-gate install` / `uninstall` can install, one line each: the target's flag
 * (`--git`, `--claude`), what it is, and how to plan its install and uninstall. Each plan is made
 * with `dryRun` (nothing written); the caller applies every target's actions once all plans
 * succeeded. Adding a target (another agent's hooks) is one new folder in lib/install/ plus one line
 * in `INSTALL_TARGETS`. A target loads its installer when it plans: the command line lists the
 * targets (flags, help) without loading any.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { ClaudeScope } from "./claude/install.ts";
import type { ActionDetail, FileAction } from "./file_actions.ts";
import type { AgentHookOptions } from "./agent_settings.ts";

/** Everything a target's plan may use. */
export interface InstallContext {
  runner: Runner;
  cwd: string;
  env: Record<string, string | undefined>;
  repo: Repo;
  /** The command the installed hooks run (lib/install/self_command.ts); absent for uninstall. */
  command?: string;
  /** Words put before `command` in the agents' Stop hooks (the Stop hook script), if any. */
  stopPrefix?: string;
  /**
   * The skip record's script review-gate's pre-push line runs under `REVIEW_GATE=0`, if any
   * (lib/install/self_command.ts `pushSkipScript`).
   */
  pushSkip?: string;
  /** `--scope` for settings-file targets; absent for `uninstall` without one (every scope). */
  scope?: ClaudeScope;
  /** `--project-dir`: where the agent is started (default: the repository root). */
  projectDir?: string;
  /** `--force`: replace a foreign hook that cannot be chained. */
  force?: boolean;
  /** `--guard` / `--no-guard`: the agent-side guard hook (undefined: keep what is installed). */
  guard?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/** A planned install or uninstall of one target: the file actions and the text describing them. */
export interface InstallPlan {
  actions: FileAction[];
  text: string;
  /**
   * Absolute paths of the user's own files in the worktree that this plan writes or (uninstall)
   * removed: `install` keeps them out of git through `info/exclude`, `uninstall` takes those lines
   * out ({@linkcode planPersonalIgnore}; one plan for every target, as they share the file).
   */
  personal?: readonly string[];
}

/** One thing `install` can install. */
export interface InstallTarget {
  /** Its flag without dashes: `git` for `--git`. */
  readonly flag: string;
  /** What it installs, for help text: "the git pre-push hook". */
  readonly what: string;
  /** Installed only when its flag is given (`install` alone leaves it out; `uninstall` does not). */
  readonly optIn?: boolean;
  /** Plan the install (`install` true) or the uninstall, writing nothing. */
  plan(install: boolean, context: InstallContext): Promise<InstallPlan>;
}

const gitTarget: InstallTarget = {
  flag: "git",
  what: "the git pre-push hook",
  async plan(install, context) {
    const { installGitHook, uninstallGitHook } = await import("./git/install.ts");
    const options = {
      runner: context.runner,
      cwd: context.cwd,
      command: context.command,
      skipCommand: context.pushSkip,
      dryRun: true,
      diff: context.diff,
      force: context.force,
    };
    const report = install ? await installGitHook(options) : await uninstallGitHook(options);
    return { actions: report.actions, text: `git pre-push hook — ${report.text}` };
  },
};

const claudeTarget: InstallTarget = {
  flag: "claude",
  what: "the Claude Code hooks",
  async plan(install, context) {
    const { loadConfig } = await import("../config/config.ts");
    const { installClaudeHooks, uninstallClaudeHooks } = await import(
      "./claude/install.ts"
    );
    const { config } = await loadConfig({ root: context.repo.root, env: context.env });
    const projectDir = context.projectDir ?? context.repo.root;
    const { ensureNoEnabledPlugin } = await import("./claude/plugin.ts");
    if (install) await ensureNoEnabledPlugin({ projectDir, env: context.env });
    const options = {
      projectDir,
      home: context.env.HOME,
      command: context.command,
      stopPrefix: context.stopPrefix,
      stopTimeoutSeconds: config.gates.claude_stop.timeout_seconds,
      work: config.gates.claude_stop.enabled && config.gates.claude_stop.review_while_working,
      guard: context.guard,
      dryRun: true,
      diff: context.diff,
    };
    const targets = (scope: ClaudeScope) => claudeGuardTargets(context, projectDir, scope);
    if (!install) {
      const plan = await everyScope(
        context.scope ? [context.scope] : CLAUDE_SCOPES,
        async (scope) =>
          uninstallClaudeHooks({ ...options, scope, guardTargets: await targets(scope) }),
      );
      const scopes = context.scope ? [context.scope] : CLAUDE_SCOPES;
      return { ...plan, personal: await claudePersonal(scopes, projectDir) };
    }
    const scope = context.scope ?? "local";
    const report = await installClaudeHooks({
      ...options,
      scope,
      guardTargets: await targets(scope),
    });
    if (scope === "user" || report.actions.length === 0) return report;
    // .claude/settings.local.json is the user's own: keep it (and our backup) out of git's view,
    // as Claude Code does when it creates the file, so no review ever sends it to the model; the
    // shared .claude/settings.json is committed, but its backup is the user's own copy
    const planned = { ...report, personal: await claudePersonal([scope], projectDir) };
    return scope === "project" ? withSharedWarning(planned, ".claude/settings.json") : planned;
  },
};

/**
 * What an install into a committed, shared hooks file (`--scope project`) adds: the hook commands
 * name this machine's review-gate (lib/install/self_command.ts), which a teammate's machine does
 * not have; their agent then shows a hook error and the turn goes unreviewed.
 *
 * @param file the shared file, repository-relative (`.claude/settings.json`)
 * @returns the warning line
 */
export function sharedFileWarning(file: string): string {
  return `warning: ${file} is shared through git, but its hook commands name review-gate's paths on this machine. On a teammate's machine they fail: the agent only shows a hook error and the turn goes unreviewed. To share the gate with a team, have each person install it for themselves (the default scope), or use the Claude Code plugin for Claude (README "Claude Code plugin").`;
}

function withSharedWarning(plan: InstallPlan, file: string): InstallPlan {
  return { ...plan, text: `${plan.text.trimEnd()}\n${sharedFileWarning(file)}` };
}

/**
 * The paths the Claude guard's rules protect for a scope: the gate's state and key
 * (lib/install/guard_paths.ts) and the settings file holding the rules. `null` paths (no HOME) are
 * left out.
 */
export async function claudeGuardTargets(
  context: Pick<InstallContext, "repo" | "env">,
  projectDir: string,
  scope: ClaudeScope,
): Promise<import("./guard_paths.ts").GuardTargets | undefined> {
  const { claudeSettingsPath } = await import("./claude/install.ts");
  const { guardTargets } = await import("./guard_paths.ts");
  let settings: string;
  try {
    settings = claudeSettingsPath(scope, { projectDir, home: context.env.HOME });
  } catch {
    return undefined;
  }
  return await guardTargets({ repo: context.repo, env: context.env, extraWriteDenied: [settings] });
}

/**
 * The Claude files of `scopes` that are the user's own: the local settings file and its backup,
 * and the backup of the shared project settings file.
 */
async function claudePersonal(
  scopes: readonly ClaudeScope[],
  projectDir: string,
): Promise<string[]> {
  const { BACKUP_SUFFIX, claudeSettingsPath } = await import("./claude/install.ts");
  const paths: string[] = [];
  if (scopes.includes("local")) {
    const path = claudeSettingsPath("local", { projectDir });
    paths.push(path, path + BACKUP_SUFFIX);
  }
  if (scopes.includes("project")) {
    paths.push(claudeSettingsPath("project", { projectDir }) + BACKUP_SUFFIX);
  }
  return paths;
}

/**
 * One plan of the `info/exclude` change for the user's own files of every target's plan: install
 * adds the lines that keep them out of git (and of every review), uninstall takes those lines out
 * (lib/install/git/local_ignore.ts). One plan, because the targets share the file.
 *
 * @param install install (true) or uninstall
 * @param context the repository and the subprocess seam
 * @param plans the targets' plans; their `personal` paths are gathered
 * @returns the plan, or `null` when `info/exclude` needs no change
 * @throws {import("../base/errors.ts").GitError} when git cannot locate `info/exclude`
 */
export async function planPersonalIgnore(
  install: boolean,
  context: Pick<InstallContext, "runner" | "repo" | "diff">,
  plans: readonly InstallPlan[],
): Promise<InstallPlan | null> {
  const { lstatOrNull, renderActions } = await import("./file_actions.ts");
  const removed = new Set(
    plans.flatMap((plan) => plan.actions).flatMap((a) => a.op === "remove" ? [a.path] : []),
  );
  const stays = async (path: string) =>
    path.endsWith(".review-gate.bak") && !removed.has(path) && await lstatOrNull(path) !== null;
  const paths: string[] = [];
  for (const plan of plans) {
    const personal = plan.personal ?? [];
    // a backup uninstall leaves beside the user's edits stays ignored, with its block of lines
    if (!install && (await Promise.all(personal.map(stays))).some(Boolean)) continue;
    paths.push(...personal);
  }
  if (paths.length === 0) return null;
  const { ignoreLocalFiles, unignoreLocalFiles } = await import("./git/local_ignore.ts");
  const plan = install ? ignoreLocalFiles : unignoreLocalFiles;
  const actions = await plan(context.runner, context.repo, paths);
  if (actions.length === 0) return null;
  return { actions, text: `git: ${renderActions(actions, { diff: context.diff })}` };
}

/** Every scope `uninstall --claude` looks in when none is given. */
const CLAUDE_SCOPES: readonly ClaudeScope[] = ["local", "project", "user"];

/**
 * Plan one uninstall per scope and join them; a scope that cannot be located (no HOME) is skipped.
 * Scopes with nothing of ours are left out of the text unless none has anything.
 */
async function everyScope<S>(
  scopes: readonly S[],
  plan: (scope: S) => Promise<InstallPlan>,
): Promise<InstallPlan> {
  const plans: InstallPlan[] = [];
  for (const scope of scopes) {
    try {
      plans.push(await plan(scope));
    } catch (error) {
      if (scopes.length === 1) throw error;
    }
  }
  const acting = plans.filter((p) => p.actions.length > 0);
  const shown = acting.length > 0 ? acting : plans.slice(0, 1);
  return {
    actions: acting.flatMap((p) => p.actions),
    text: shown.map((p) => p.text.trimEnd()).join("\n") + "\n",
  };
}

const codexTarget: InstallTarget = {
  flag: "codex",
  what: "the Codex hooks",
  optIn: true,
  async plan(install, context) {
    const { loadConfig } = await import("../config/config.ts");
    const { installCodexHooks, uninstallCodexHooks } = await import("./codex/install.ts");
    const { config } = await loadConfig({ root: context.repo.root, env: context.env });
    const options = {
      root: context.repo.root,
      env: context.env,
      command: context.command,
      stopPrefix: context.stopPrefix,
      stopTimeoutSeconds: config.gates.codex_stop.timeout_seconds,
      work: config.gates.codex_stop.enabled && config.gates.codex_stop.review_while_working,
      dryRun: true,
      diff: context.diff,
    };
    // Codex has no per-user project file: the default scope ("local") means the user's hooks.
    const scope = context.scope === "project" ? "project" as const : "user" as const;
    const { planCodexGuard } = await import("./codex/guard.ts");
    // --guard adds the permission profile, --no-guard and uninstall remove it, neither keeps it
    const guard = context.guard === undefined && install
      ? { actions: [], text: "" }
      : await planCodexGuard(install && context.guard === true, context.env);
    const withGuard = (plan: InstallPlan): InstallPlan => ({
      ...plan,
      actions: [...plan.actions, ...guard.actions],
      text: plan.text.trimEnd() + "\n" + guard.text,
    });
    // the shared project hooks file is committed; its backup is the user's own copy
    const { BACKUP_SUFFIX, codexHooksPath } = await import("./codex/install.ts");
    const backup = codexHooksPath("project", { root: context.repo.root, env: context.env }) +
      BACKUP_SUFFIX;
    if (install) {
      const report = await installCodexHooks({ ...options, scope });
      if (scope !== "project" || report.actions.length === 0) return withGuard(report);
      return withGuard({
        ...withSharedWarning(report, ".codex/hooks.json"),
        personal: [backup],
      });
    }
    const scopes = context.scope ? [scope] : ["user", "project"] as const;
    const plan = await everyScope(scopes, (s) => uninstallCodexHooks({ ...options, scope: s }));
    return withGuard({ ...plan, personal: scopes.includes("project") ? [backup] : [] });
  },
};

const copilotTarget: InstallTarget = {
  flag: "copilot",
  what: "the GitHub Copilot CLI hooks",
  optIn: true,
  async plan(install, context) {
    const { loadConfig } = await import("../config/config.ts");
    const { installCopilotHooks, uninstallCopilotHooks } = await import("./copilot/install.ts");
    const { config } = await loadConfig({ root: context.repo.root, env: context.env });
    const gate = config.gates.copilot_stop;
    const options = {
      root: context.repo.root,
      env: context.env,
      command: context.command,
      stopPrefix: context.stopPrefix,
      stopTimeoutSeconds: gate.timeout_seconds,
      work: gate.enabled && gate.review_while_working,
      dryRun: true,
      diff: context.diff,
    };
    // Copilot has no per-user project file: the default scope ("local") means the user's hooks.
    const scope = context.scope === "project" ? "project" as const : "user" as const;
    if (install) {
      const report = await installCopilotHooks({ ...options, scope });
      return scope === "project" && report.actions.length
        ? withSharedWarning(report, ".github/hooks/review-gate.json")
        : report;
    }
    const scopes = context.scope ? [scope] : ["user", "project"] as const;
    return await everyScope(scopes, (s) => uninstallCopilotHooks({ ...options, scope: s }));
  },
};

/** What an agent whose hooks live in its `settings.json` gives {@linkcode settingsTarget}. */
interface SettingsAgent {
  flag: string;
  what: string;
  /** The agent's gate in config. */
  gate: "qwen_stop" | "gemini_stop";
  /** The project's settings file, relative to the root (committed, shared). */
  projectFile: string;
  load(): Promise<{
    BACKUP_SUFFIX: string;
    settingsPath(
      scope: "user" | "project",
      options: { root: string; env: Record<string, string | undefined> },
    ): string;
    install(options: SettingsTargetOptions): Promise<InstallPlan>;
    uninstall(options: SettingsTargetOptions): Promise<InstallPlan>;
  }>;
}

/** The options every settings-file installer takes (lib/install/agent_settings.ts). */
type SettingsTargetOptions = AgentHookOptions;

/**
 * The install target of an agent whose hooks live in its `settings.json` (Qwen Code, Gemini CLI):
 * the user's file by default (these agents have no per-user project file, so the default scope
 * "local" means the user's), the project's with `--scope project`; uninstall without a scope
 * looks in both.
 */
function settingsTarget(agent: SettingsAgent): InstallTarget {
  return {
    flag: agent.flag,
    what: agent.what,
    optIn: true,
    async plan(install, context) {
      const { loadConfig } = await import("../config/config.ts");
      const m = await agent.load();
      const { config } = await loadConfig({ root: context.repo.root, env: context.env });
      const gate = config.gates[agent.gate];
      const root = context.projectDir ?? context.repo.root;
      const options = {
        root,
        env: context.env,
        command: context.command,
        stopPrefix: context.stopPrefix,
        stopTimeoutSeconds: gate.timeout_seconds,
        work: gate.enabled && gate.review_while_working,
        dryRun: true,
        diff: context.diff,
      };
      const scope = context.scope === "project" ? "project" as const : "user" as const;
      // the shared project settings file is committed; its backup is the user's own copy
      const backup = m.settingsPath("project", { root, env: context.env }) + m.BACKUP_SUFFIX;
      if (install) {
        const report = await m.install({ ...options, scope });
        if (scope !== "project" || report.actions.length === 0) return report;
        return { ...withSharedWarning(report, agent.projectFile), personal: [backup] };
      }
      const scopes = context.scope ? [scope] : ["user", "project"] as const;
      const plan = await everyScope(scopes, (s) => m.uninstall({ ...options, scope: s }));
      return { ...plan, personal: scopes.includes("project") ? [backup] : [] };
    },
  };
}

const qwenTarget = settingsTarget({
  flag: "qwen",
  what: "the Qwen Code hooks",
  gate: "qwen_stop",
  projectFile: ".qwen/settings.json",
  async load() {
    const m = await import("./qwen/install.ts");
    return {
      BACKUP_SUFFIX: m.BACKUP_SUFFIX,
      settingsPath: m.qwenSettingsPath,
      install: m.installQwenHooks,
      uninstall: m.uninstallQwenHooks,
    };
  },
});

const geminiTarget = settingsTarget({
  flag: "gemini",
  what: "the Gemini CLI hooks",
  gate: "gemini_stop",
  projectFile: ".gemini/settings.json",
  async load() {
    const m = await import("./gemini/install.ts");
    return {
      BACKUP_SUFFIX: m.BACKUP_SUFFIX,
      settingsPath: m.geminiSettingsPath,
      install: m.installGeminiHooks,
      uninstall: m.uninstallGeminiHooks,
    };
  },
});

/** Every install target, in the order they are planned, applied and printed. */
export const INSTALL_TARGETS: readonly InstallTarget[] = [
  gitTarget,
  claudeTarget,
  codexTarget,
  copilotTarget,
  qwenTarget,
  geminiTarget,
];
