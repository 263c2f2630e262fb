/**
 * `review-gate install` / `uninstall`: the git pre-push hook (where git runs hooks: honours
 * `core.hooksPath`, linked worktrees, husky), the Claude Code `UserPromptSubmit` + `Stop` hook
 * entries (settings scope local, project or user; `--guard` adds the `PreToolUse` guard) and, with
 * `--codex`, the Codex hooks (scope user or project). `--dry-run` prints the exact change. Every
 * plan is made before anything is written.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { resolveRepo } from "../git/repo.ts";
import type { ClaudeScope } from "../install/claude/install.ts";
import { INSTALL_TARGETS } from "../install/registry.ts";
import {
  applyActions,
  type FileAction,
  installStatePath,
  planCreatedDirRemovals,
  pruneCreatedDirs,
  recordCreatedDirs,
  renderActions,
} from "../install/file_actions.ts";
import { selfCommand, stopScriptPrefix } from "../install/self_command.ts";
import type { CliDeps } from "./deps.ts";
import { stampForTurnGates } from "./user_writes.ts";

interface InstallFlags {
  /** One per install target: `git`, `claude`. */
  [target: string]: unknown;
  scope?: ClaudeScope;
  projectDir?: string;
  dryRun?: boolean;
  force?: boolean;
  guard?: boolean;
}

function addFlags(command: Command, verb: string): Command {
  for (const target of INSTALL_TARGETS) {
    command.option(`--${target.flag}`, `${verb} ${target.what} only`);
  }
  const scope = new Option(
    "--scope <scope>",
    "Claude settings: local (.claude/settings.local.json), project or user; Codex hooks: user ($CODEX_HOME/hooks.json, also for local) or project (.codex/hooks.json)" +
      (verb === "install" ? "" : " (default: every scope)"),
  ).choices(["local", "project", "user"]);
  return command
    .addOption(verb === "install" ? scope.default("local") : scope)
    .option(
      "--project-dir <dir>",
      "directory Claude Code is started in (default: the repository root)",
    )
    .option("--dry-run", "print the exact change, write nothing");
}

/**
 * Plan both installs (or uninstalls) first, then apply them, so an error in either plan (an invalid
 * settings file, a hooks path that is not a directory) leaves nothing half installed. Install records
 * the directories it created; uninstall removes them once empty.
 */
async function act(install: boolean, flags: InstallFlags, deps: CliDeps): Promise<void> {
  const chosen = INSTALL_TARGETS.filter((t) => flags[t.flag] === true);
  const targets = chosen.length > 0 ? chosen : INSTALL_TARGETS.filter((t) => !install || !t.optIn);
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const context = {
    runner: deps.runner,
    cwd: deps.cwd,
    env: deps.env,
    repo,
    command: install ? selfCommand(deps.self) : undefined,
    stopPrefix: install ? stopScriptPrefix(deps.self) : undefined,
    scope: flags.scope,
    projectDir: flags.projectDir,
    force: flags.force,
    guard: flags.guard,
  };
  const reports: { actions: FileAction[]; text: string }[] = [];
  for (const target of targets) reports.push(await target.plan(install, context));
  const statePath = installStatePath(repo.commonDir);
  const planned = reports.flatMap((r) => r.actions);
  const rmdirs = install ? [] : await planCreatedDirRemovals(statePath, planned);
  if (rmdirs.length > 0) {
    reports.push({
      actions: rmdirs,
      text: `directories install created\n${renderActions(rmdirs)}`,
    });
  }
  const prefix = flags.dryRun ? "(dry run: nothing written)\n" : "";
  if (!flags.dryRun) {
    for (const report of reports) await applyActions(report.actions);
    await stampForTurnGates(deps, writtenFiles(reports.flatMap((r) => r.actions)));
    if (install) await recordCreatedDirs(statePath, planned);
    else await pruneCreatedDirs(statePath);
  }
  for (const report of reports) deps.stdout.write(`${prefix}${report.text.trimEnd()}\n`);
}

/** The files an applied plan left, with their text (`null`: removed), for the turn gates. */
function writtenFiles(actions: readonly FileAction[]): { path: string; text: string | null }[] {
  return actions.flatMap((a): { path: string; text: string | null }[] =>
    a.op === "write"
      ? [{ path: a.path, text: a.text }]
      : a.op === "remove"
      ? [{ path: a.path, text: null }]
      : []
  );
}

/** Register `install` and `uninstall` on the program. */
export function registerInstall(program: Command, deps: CliDeps): void {
  addFlags(program.command("install"), "install")
    .description(
      "Install the git pre-push gate and the Claude Code Stop gate (default: both; --codex for Codex)",
    )
    .option("--force", "replace a foreign hook that cannot be chained (it is kept as a backup)")
    .option(
      "--guard",
      "Claude Code: also refuse the agent's shell commands that skip or switch off the gates",
    )
    .option("--no-guard", "Claude Code: remove that guard (default: keep what is installed)")
    .action((flags: InstallFlags) => act(true, flags, deps));
  addFlags(program.command("uninstall"), "uninstall")
    .description("Remove what install added and restore what was there before")
    .action((flags: InstallFlags) => act(false, flags, deps));
}
