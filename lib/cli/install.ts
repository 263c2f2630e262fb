/**
 * `review-gate install` / `uninstall`: the git pre-push hook, the Claude Code hook entries and,
 * with `--codex`, the Codex hooks; `--dry-run` prints what would change (one line per file, with
 * its line counts; `--diff` adds the exact change). This file defines the
 * commands; their work, lib/cli/install_action.ts, loads when one runs.
 *
 * @module
 */
import { INSTALL_TARGETS } from "../install/registry.ts";
import { type CliContext, type CommandRoutes, defineCommand, flag, text } from "./command.ts";
import type { InstallFlags } from "./install_action.ts";
import type { ClaudeScope } from "../install/claude/install.ts";

const SCOPE_BRIEF =
  "Claude settings: local (.claude/settings.local.json), project or user; Codex hooks: user ($CODEX_HOME/hooks.json, also for local) or project (.codex/hooks.json)";

/** The scopes `--scope` takes. */
const SCOPES = ["local", "project", "user"] as const;

/** The flags of `uninstall`, besides one per target (`InstallFlags` has them all). */
type SharedFlags = { scope?: ClaudeScope; projectDir?: string; dryRun?: boolean; diff?: boolean };

/**
 * The flags `install` and `uninstall` share: one per target (from the registry, so untyped here:
 * the action reads them by name), the project, dry run. `--scope` differs (a default for install).
 */
function sharedFlags(verb: "install" | "uninstall") {
  const targets: NonNullable<unknown> = Object.fromEntries(
    INSTALL_TARGETS.map((target) => [target.flag, flag(`${verb} ${target.what} only`)]),
  );
  return {
    ...targets,
    projectDir: text(
      "dir",
      "directory Claude Code is started in (default: the repository root)",
    ),
    dryRun: flag(
      "print what would change, one line per file with its +added/-removed lines; write nothing",
    ),
    diff: flag("show each file's change line by line (with --dry-run: the exact change)"),
  };
}

/** `install` and `uninstall`. */
export const installRoutes: CommandRoutes = {
  install: defineCommand({
    docs: {
      brief:
        "Install the git pre-push gate and the Claude Code Stop gate (default: both; --codex for Codex)",
    },
    parameters: {
      flags: {
        ...sharedFlags("install"),
        scope: {
          kind: "enum",
          values: SCOPES,
          default: "local",
          placeholder: "scope",
          brief: SCOPE_BRIEF,
        },
        force: flag("replace a foreign hook that cannot be chained (it is kept as a backup)"),
        guard: {
          kind: "boolean",
          optional: true,
          brief:
            "Claude Code: also refuse the agent's shell commands that skip or switch off the gates and sandbox it away from review-gate's state and key; Codex: a permission profile that keeps the key unreadable; --no-guard removes them (default: keep what is installed)",
        },
      },
    },
    async func(
      this: CliContext,
      flags: SharedFlags & { scope: ClaudeScope; force?: boolean; guard?: boolean },
    ) {
      await (await import("./install_action.ts")).act(true, flags as InstallFlags, this.deps);
    },
  }),
  uninstall: defineCommand({
    docs: {
      brief:
        "Remove what install added and restore what was there before (review-gate's stored state stays: review-gate prune --older-than 0s removes it)",
    },
    parameters: {
      flags: {
        ...sharedFlags("uninstall"),
        scope: {
          kind: "enum",
          values: SCOPES,
          optional: true,
          placeholder: "scope",
          brief: SCOPE_BRIEF + " (default: every scope)",
        },
      },
    },
    async func(this: CliContext, flags: SharedFlags) {
      await (await import("./install_action.ts")).act(false, flags as InstallFlags, this.deps);
    },
  }),
};
