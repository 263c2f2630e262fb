/**
 * What `review-gate install` / `uninstall` can install, one line each: the target's flag
 * (`--git`, `--claude`), what it is, and how to plan its install and uninstall. Each plan is made
 * with `dryRun` (nothing written); the caller applies every target's actions once all plans
 * succeeded. Adding a target (another agent's hooks) is one new folder in lib/install/ plus one line
 * in `INSTALL_TARGETS`.
 *
 * @module
 */
import { loadConfig } from "../config/config.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import { type ClaudeScope, installClaudeHooks, uninstallClaudeHooks } from "./claude/install.ts";
import { ensureNoEnabledPlugin } from "./claude/plugin.ts";
import type { FileAction } from "./file_actions.ts";
import { installGitHook, uninstallGitHook } from "./git/install.ts";
import { installCodexHooks, uninstallCodexHooks } from "./codex/install.ts";

/** Everything a target's plan may use. */
export interface InstallContext {
  runner: Runner;
  cwd: string;
  env: Record<string, string | undefined>;
  repo: Repo;
  /** The command the installed hooks run (lib/install/self_command.ts); absent for uninstall. */
  command?: string;
  /** `--scope` for settings-file targets. */
  scope: ClaudeScope;
  /** `--project-dir`: where the agent is started (default: the repository root). */
  projectDir?: string;
  /** `--force`: replace a foreign hook that cannot be chained. */
  force?: boolean;
  /** `--guard` / `--no-guard`: the agent-side guard hook (undefined: keep what is installed). */
  guard?: boolean;
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
    const options = {
      runner: context.runner,
      cwd: context.cwd,
      command: context.command,
      dryRun: true,
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
    const { config } = await loadConfig({ root: context.repo.root, env: context.env });
    const projectDir = context.projectDir ?? context.repo.root;
    if (install) await ensureNoEnabledPlugin({ projectDir, env: context.env });
    const options = {
      scope: context.scope,
      projectDir,
      home: context.env.HOME,
      command: context.command,
      stopTimeoutSeconds: config.gates.claude_stop.timeout_seconds,
      guard: context.guard,
      dryRun: true,
    };
    const report = install
      ? await installClaudeHooks(options)
      : await uninstallClaudeHooks(options);
    return { actions: report.actions, text: report.text };
  },
};

const codexTarget: InstallTarget = {
  flag: "codex",
  what: "the Codex hooks",
  optIn: true,
  async plan(install, context) {
    const { config } = await loadConfig({ root: context.repo.root, env: context.env });
    const options = {
      // Codex has no per-user project file: the default scope ("local") means the user's hooks.
      scope: context.scope === "project" ? "project" as const : "user" as const,
      root: context.repo.root,
      env: context.env,
      command: context.command,
      stopTimeoutSeconds: config.gates.codex_stop.timeout_seconds,
      dryRun: true,
    };
    const report = install ? await installCodexHooks(options) : await uninstallCodexHooks(options);
    return { actions: report.actions, text: report.text };
  },
};

/** Every install target, in the order they are planned, applied and printed. */
export const INSTALL_TARGETS: readonly InstallTarget[] = [gitTarget, claudeTarget, codexTarget];
