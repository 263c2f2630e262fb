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
import type { FileAction } from "./file_actions.ts";

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
  /** `--scope` for settings-file targets; absent for `uninstall` without one (every scope). */
  scope?: ClaudeScope;
  /** `--project-dir`: where the agent is started (default: the repository root). */
  projectDir?: string;
  /** `--force`: replace a foreign hook that cannot be chained. */
  force?: boolean;
  /** `--guard` / `--no-guard`: the agent-side guard hook (undefined: keep what is installed). */
  guard?: boolean;
  /** Describe each file change as a diff (`--dry-run`; default), or as one line per file. */
  diff?: boolean;
}

/** A planned install or uninstall of one target: the file actions and the text describing them. */
export interface InstallPlan {
  actions: FileAction[];
  text: string;
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
      if ((context.scope ?? "local") !== "local") return plan;
      return withLocalIgnore(plan, await localIgnore(false, context, projectDir), context);
    }
    const scope = context.scope ?? "local";
    const report = await installClaudeHooks({
      ...options,
      scope,
      guardTargets: await targets(scope),
    });
    if (scope !== "local" || report.actions.length === 0) return report;
    // .claude/settings.local.json is the user's own: keep it (and our backup) out of git's view,
    // as Claude Code does when it creates the file, so no review ever sends it to the model
    return withLocalIgnore(report, await localIgnore(true, context, projectDir), context);
  },
};

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
 * The `info/exclude` change for the local settings file and its backup: install adds the lines
 * that keep them out of git, uninstall takes those lines out (lib/install/git/local_ignore.ts).
 */
async function localIgnore(
  install: boolean,
  context: InstallContext,
  projectDir: string,
): Promise<FileAction[]> {
  const { BACKUP_SUFFIX, claudeSettingsPath } = await import("./claude/install.ts");
  const { ignoreLocalFiles, unignoreLocalFiles } = await import("./git/local_ignore.ts");
  const path = claudeSettingsPath("local", { projectDir });
  return await (install ? ignoreLocalFiles : unignoreLocalFiles)(context.runner, context.repo, [
    path,
    path + BACKUP_SUFFIX,
  ]);
}

/** A plan with the `info/exclude` actions added and shown under "git:". */
async function withLocalIgnore(
  plan: InstallPlan,
  ignore: FileAction[],
  context: Pick<InstallContext, "diff">,
): Promise<InstallPlan> {
  if (ignore.length === 0) return plan;
  return {
    actions: [...plan.actions, ...ignore],
    text: `${plan.text.trimEnd()}\ngit: ${
      (await import("./file_actions.ts")).renderActions(ignore, { diff: context.diff })
    }`,
  };
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
      actions: [...plan.actions, ...guard.actions],
      text: plan.text.trimEnd() + "\n" + guard.text,
    });
    if (install) return withGuard(await installCodexHooks({ ...options, scope }));
    return withGuard(
      await everyScope(
        context.scope ? [scope] : ["user", "project"] as const,
        (s) => uninstallCodexHooks({ ...options, scope: s }),
      ),
    );
  },
};

/** Every install target, in the order they are planned, applied and printed. */
export const INSTALL_TARGETS: readonly InstallTarget[] = [gitTarget, claudeTarget, codexTarget];
