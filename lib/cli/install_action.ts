/**
 * The work of `review-gate install` / `uninstall` (lib/cli/install.ts defines the commands and
 * loads this when one runs): the git pre-push hook (where git runs hooks: honours
 * `core.hooksPath`, linked worktrees, husky), the Claude Code `UserPromptSubmit` + `Stop` hook
 * entries (settings scope local, project or user; `--guard` adds the `PreToolUse` guard and the
 * sandbox and permission rules of lib/install/claude/guard_rules.ts; with `--codex`, the permission
 * profile of lib/install/codex/guard.ts) and, with
 * `--codex`, the Codex hooks (scope user or project). `--dry-run` prints one line per file with
 * the lines it adds and removes, `--diff` the exact change. Every
 * plan is made before anything is written.
 *
 * @module
 */
import { type Repo, resolveRepo } from "../git/repo.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import type { ClaudeScope } from "../install/claude/install.ts";
import { INSTALL_TARGETS, planPersonalIgnore } from "../install/registry.ts";
import {
  applyActions,
  type FileAction,
  installStatePath,
  planCreatedDirRemovals,
  pruneCreatedDirs,
  recordCreatedDirs,
  renderActions,
} from "../install/file_actions.ts";
import { pushSkipScript, selfCommand, stopScriptPrefix } from "../install/self_command.ts";
import { visibleExecPath } from "../install/visible_exec_path.ts";
import type { CliDeps } from "./deps.ts";
import { gateChangeNote, guardedWords } from "./gate_change_note.ts";

/** `install`'s and `uninstall`'s parsed flags. */
export interface InstallFlags {
  /** One per install target: `git`, `claude`. */
  [target: string]: unknown;
  scope?: ClaudeScope;
  projectDir?: string;
  dryRun?: boolean;
  /** `--diff`: show each file's change line by line. */
  diff?: boolean;
  force?: boolean;
  guard?: boolean;
}

/**
 * Plan both installs (or uninstalls) first, then apply them, so an error in either plan (an invalid
 * settings file, a hooks path that is not a directory) leaves nothing half installed. Install records
 * the directories it created; uninstall removes them once empty.
 */
export async function act(install: boolean, flags: InstallFlags, deps: CliDeps): Promise<void> {
  const chosen = INSTALL_TARGETS.filter((t) => flags[t.flag] === true);
  const targets = chosen.length > 0 ? chosen : INSTALL_TARGETS.filter((t) => !install || !t.optIn);
  const repo = await resolveRepo(deps.runner, deps.cwd);
  // a Homebrew keg's path goes away with `brew upgrade`: the hooks name the link on PATH
  const self = {
    ...deps.self,
    execPath: visibleExecPath(deps.self.execPath, { path: deps.env.PATH }),
  };
  const context = {
    runner: deps.runner,
    cwd: deps.cwd,
    env: deps.env,
    repo,
    command: install ? selfCommand(self) : undefined,
    stopPrefix: install ? stopScriptPrefix(self) : undefined,
    pushSkip: install ? pushSkipScript(self) : undefined,
    scope: flags.scope,
    projectDir: flags.projectDir,
    force: flags.force,
    guard: flags.guard,
    // a dry run: one line per file with its line counts (`--diff`: the exact change); a real run
    // says what it wrote where, not the content
    diff: flags.diff === true ? true : flags.dryRun === true ? "counts" as const : false,
  };
  const reports: { actions: FileAction[]; text: string }[] = [];
  for (const target of targets) reports.push(await target.plan(install, context));
  const ignore = await planPersonalIgnore(install, context, reports);
  if (ignore) reports.push(ignore);
  const statePath = installStatePath(repo.commonDir);
  const planned = reports.flatMap((r) => r.actions);
  const rmdirs = install ? [] : await planCreatedDirRemovals(statePath, planned);
  if (rmdirs.length > 0) {
    reports.push({
      actions: rmdirs,
      text: `directories install created\n${renderActions(rmdirs)}`,
    });
  }
  // a dry run says so once, above every target's report
  if (flags.dryRun) deps.stdout.write("(dry run: nothing written)\n");
  if (!flags.dryRun) {
    for (const report of reports) await applyActions(report.actions);
    if (install) await recordCreatedDirs(statePath, planned);
    else await pruneCreatedDirs(statePath);
  }
  for (const report of reports) deps.stdout.write(`${report.text.trimEnd()}\n`);
  if (flags.dryRun) {
    if (flags.diff !== true && planned.some((a) => a.op === "write")) {
      deps.stdout.write("(add --diff to see each change line by line)\n");
    }
    return;
  }
  const touched = planned.flatMap((a) =>
    a.op === "rename" ? [a.from, a.to] : a.op === "mkdir" || a.op === "rmdir" ? [] : [a.path]
  );
  const note = gateChangeNote(await guardedWords(deps.runner, { repo, env: deps.env }, touched));
  if (note) deps.stdout.write(`${note}\n`);
  if (install) await warnSetupProblems(deps, repo.root);
  if (install && flags.guard === true) await sayGuards(deps, repo, targets.map((t) => t.flag));
  const named = self.launcher ?? self.execPath;
  if (install && transientExec(named)) {
    deps.stderr.write(
      `review-gate: warning: the hooks name ${named}, inside npx's cache, which npm may clean at any time (every push and stop would then fail until you install again): install review-gate globally (npm i -g review-gate), or Deno (npm i -g deno@2.9.6), and run "install" again from it\n`,
    );
  }
}

/**
 * Whether the program the hooks would start lives in a cache npm cleans (`npx`'s `_npx/` folder)
 * rather than in an install (docs/design.md "Installer").
 *
 * @param execPath the path hooks will name
 */
export function transientExec(execPath: string): boolean {
  return /[\\/]_npx[\\/]/.test(execPath);
}

/**
 * Warn, once the hooks are written, about what would make their first review fail (`doctor`'s
 * checks: lib/cli/doctor_action.ts `setupProblems`) — each with its fix.
 */
async function warnSetupProblems(deps: CliDeps, root: string): Promise<void> {
  const { setupProblems } = await import("./doctor_action.ts");
  for (const problem of await setupProblems(deps, root)) {
    deps.stderr.write(
      sanitizeForTerminal(`review-gate: warning: ${problem.area}: ${problem.detail}\n`),
    );
  }
}

/** Say what `--guard` reached, per agent installed (doctor's "state protection" checks). */
async function sayGuards(deps: CliDeps, repo: Repo, targets: readonly string[]): Promise<void> {
  const { guardChecks } = await import("./doctor_action.ts");
  for (const check of await guardChecks(deps, repo, targets)) {
    deps.stdout.write(sanitizeForTerminal(`guard: ${check.area}: ${check.detail}\n`));
  }
}
