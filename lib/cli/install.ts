/**
 * `review-gate install` / `uninstall`: the git pre-push hook, the Claude Code hook entries and,
 * with `--codex`, the Codex hooks; `--dry-run` prints the exact change. This file defines the
 * commands; their work, lib/cli/install_action.ts, loads when one runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { INSTALL_TARGETS } from "../install/registry.ts";
import type { CliDeps } from "./deps.ts";
import type { InstallFlags } from "./install_action.ts";

/** The flags `install` and `uninstall` share: one per target, the scope, the project, dry run. */
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
    .action(async (flags: InstallFlags) =>
      await (await import("./install_action.ts")).act(true, flags, deps)
    );
  addFlags(program.command("uninstall"), "uninstall")
    .description("Remove what install added and restore what was there before")
    .action(async (flags: InstallFlags) =>
      await (await import("./install_action.ts")).act(false, flags, deps)
    );
}
