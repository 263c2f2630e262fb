/**
 * Install and uninstall the git `pre-push` hook (DESIGN.md "Gates" → "Installer").
 *
 * The hook goes where git runs hooks from (lib/install/git/hooks_dir.ts: honours `core.hooksPath`,
 * linked worktrees share the main repository's hooks, submodules have their own). Three layouts:
 * - **plain**: no hook there → our stub.
 * - **chained**: a foreign `pre-push` is renamed to {@linkcode CHAINED_HOOK_NAME} (a rename keeps its
 *   bytes and mode) and our stub runs it first with the same arguments and stdin bytes.
 * - **husky**: hooks dir is `.husky/_` (husky 9) or `.husky` (husky 5–8) → one marked line in
 *   `.husky/pre-push` instead of a stub.
 * Uninstall removes only what carries the `managed-by: review-gate` marker and renames the foreign
 * hook back. Install is idempotent.
 *
 * @module
 */
import { join } from "node:path";
import type { Runner } from "../../exec/exec.ts";
import { UsageError } from "../../base/errors.ts";
import {
  applyActions,
  type FileAction,
  fileMode,
  lstatOrNull,
  readTextOrNull,
  renderActions,
} from "../file_actions.ts";
import {
  addHuskyLine,
  CHAINED_HOOK_NAME,
  isManaged,
  removeHuskyLines,
  renderHuskyLine,
  renderPrePushStub,
} from "./stub.ts";
import {
  ensureInstallableHooksDir,
  huskyDirOf,
  insideWorktreeNote,
  notADirectory,
  resolveHooksDir,
} from "./hooks_dir.ts";

/** Inputs of {@linkcode installGitHook} and {@linkcode uninstallGitHook}. */
export interface GitHookOptions {
  /** Subprocess seam for git. */
  runner: Runner;
  /** A directory inside the repository (the user's cwd). */
  cwd: string;
  /** Command prefix from `selfCommand()`; needed by install only. */
  command?: string;
  /** Plan and describe, write nothing. */
  dryRun?: boolean;
  /** Override refusals that can be overridden (a non-executable or unreadable foreign hook). */
  force?: boolean;
}

/** What an install or uninstall did (or, with `dryRun`, would do). */
export interface GitHookReport {
  /** Absolute directory git runs hooks from. */
  hooksDir: string;
  layout: "plain" | "chained" | "husky";
  actions: FileAction[];
  /** Extra facts for the user, one sentence each. */
  notes: string[];
  /** Human summary: notes then the rendered actions. */
  text: string;
}

/**
 * Install the pre-push hook (or, with `dryRun`, only plan it).
 *
 * @returns the report; `actions` is empty when already installed
 * @throws {GitError} outside a repository
 * @throws {UsageError} when `command` is missing; when a foreign hook is not executable or not
 *   readable (override with `force`); when a foreign hook and a kept {@linkcode CHAINED_HOOK_NAME}
 *   both exist (never overridable: one of them would be lost)
 */
export async function installGitHook(options: GitHookOptions): Promise<GitHookReport> {
  if (!options.command) throw new UsageError("Cannot install the pre-push hook without a command");
  const hooksDir = await ensureInstallableHooksDir(options.runner, options.cwd);
  const husky = huskyDirOf(hooksDir);
  const plan = husky
    ? await planHuskyInstall(husky, options.command)
    : await planStubInstall(hooksDir, options.command, options.force ?? false);
  const { runner, cwd } = options;
  const note = await insideWorktreeNote(hooksDir, { runner, cwd, husky: husky !== null });
  if (note !== null) plan.notes.push(note);
  return await finish(hooksDir, plan, options.dryRun);
}

/**
 * Uninstall the pre-push hook: remove our stub or husky line, rename a chained foreign hook back.
 *
 * @returns the report; `actions` is empty when nothing of ours was found
 * @throws {GitError} outside a repository
 */
export async function uninstallGitHook(options: GitHookOptions): Promise<GitHookReport> {
  const hooksDir = await resolveHooksDir(options.runner, options.cwd);
  if (await notADirectory(hooksDir)) {
    const notes = [`The git hooks path "${hooksDir}" is not a directory: no hook to remove.`];
    return await finish(hooksDir, { layout: "plain", actions: [], notes }, options.dryRun);
  }
  const husky = huskyDirOf(hooksDir);
  const plan = husky ? await planHuskyUninstall(husky) : await planStubUninstall(hooksDir);
  return await finish(hooksDir, plan, options.dryRun);
}

interface Plan {
  layout: GitHookReport["layout"];
  actions: FileAction[];
  notes: string[];
}

async function finish(hooksDir: string, plan: Plan, dryRun?: boolean): Promise<GitHookReport> {
  if (!dryRun) await applyActions(plan.actions);
  const head = [`hooks directory: ${hooksDir}`, ...plan.notes].join("\n");
  return { hooksDir, ...plan, text: `${head}\n${renderActions(plan.actions)}` };
}

async function planStubInstall(hooksDir: string, command: string, force: boolean): Promise<Plan> {
  const hook = join(hooksDir, "pre-push");
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const actions: FileAction[] = [];
  const notes: string[] = [];
  if (!(await lstatOrNull(hooksDir))) actions.push({ op: "mkdir", path: hooksDir });
  const hookInfo = await lstatOrNull(hook);
  const chainedExists = (await lstatOrNull(chained)) !== null;
  const current = hookInfo ? await readTextOrNull(hook) : null;

  if (hookInfo && typeof current === "string" && isManaged(current)) {
    const text = renderPrePushStub(command, { chained: chainedExists });
    if (current !== text || ((hookInfo.mode ?? 0o755) & 0o111) !== 0o111) {
      actions.push({
        op: "write",
        path: hook,
        text,
        mode: 0o755,
        before: current,
        why: "refresh review-gate's stub",
      });
    } else notes.push("The pre-push hook is already installed.");
    return { layout: chainedExists ? "chained" : "plain", actions, notes };
  }
  if (hookInfo) {
    if (chainedExists) {
      throw new UsageError(
        `Cannot keep the existing pre-push hook: both "${hook}" and "${chained}" exist; move one of them away and run install again`,
      );
    }
    if (hookInfo.isDirectory) {
      throw new UsageError(`Cannot install over the directory "${hook}": remove it first`);
    }
    if (current === undefined && !force) {
      throw new UsageError(
        `Cannot read the existing hook "${hook}": fix its permissions, or pass --force to keep it unread and chain it`,
      );
    }
    const executable = hookInfo.isSymlink || ((hookInfo.mode ?? 0) & 0o111) !== 0;
    if (!executable && !force) {
      throw new UsageError(
        `The existing hook "${hook}" is not executable, so git does not run it: make it executable, or pass --force to keep it (still not run) and install review-gate`,
      );
    }
    if (!executable) notes.push(`The existing hook stays non-executable, so it is still not run.`);
    actions.push({
      op: "rename",
      from: hook,
      to: chained,
      why: "keep the existing hook; review-gate runs it first",
    });
    actions.push({
      op: "write",
      path: hook,
      text: renderPrePushStub(command, { chained: true }),
      mode: 0o755,
      before: null,
      why: "review-gate's stub, chaining the existing hook",
    });
    return { layout: "chained", actions, notes };
  }
  if (chainedExists) {
    notes.push(`Found a kept hook "${chained}" without our stub; chaining it again.`);
  }
  actions.push({
    op: "write",
    path: hook,
    text: renderPrePushStub(command, { chained: chainedExists }),
    mode: 0o755,
    before: null,
    why: "review-gate's stub",
  });
  return { layout: chainedExists ? "chained" : "plain", actions, notes };
}

async function planStubUninstall(hooksDir: string): Promise<Plan> {
  const hook = join(hooksDir, "pre-push");
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const actions: FileAction[] = [];
  const notes: string[] = [];
  const hookInfo = await lstatOrNull(hook);
  const chainedExists = (await lstatOrNull(chained)) !== null;
  const current = hookInfo ? await readTextOrNull(hook) : null;
  const ours = typeof current === "string" && isManaged(current);
  if (hookInfo && !ours) {
    notes.push(`The pre-push hook "${hook}" is not review-gate's; left alone.`);
    if (chainedExists) {
      notes.push(`"${chained}" is left alone too: restore it by hand if you need it.`);
    }
    return { layout: "plain", actions, notes };
  }
  if (ours) {
    actions.push({
      op: "remove",
      path: hook,
      before: current as string,
      why: "review-gate's stub",
    });
  }
  if (chainedExists) {
    actions.push({
      op: "rename",
      from: chained,
      to: hook,
      why: "restore the hook that was there before",
    });
  }
  if (actions.length === 0) notes.push("No review-gate pre-push hook is installed.");
  return { layout: chainedExists ? "chained" : "plain", actions, notes };
}

async function planHuskyInstall(huskyDir: string, command: string): Promise<Plan> {
  const file = join(huskyDir, "pre-push");
  const info = await lstatOrNull(file);
  const current = info ? await readTextOrNull(file) : null;
  if (current === undefined) {
    throw new UsageError(`Cannot read "${file}": fix its permissions and run install again`);
  }
  const text = addHuskyLine(current, renderHuskyLine(command));
  const notes = ["husky manages the hooks here: review-gate adds one line to .husky/pre-push."];
  if (text === current) {
    return { layout: "husky", actions: [], notes: [...notes, "The line is already there."] };
  }
  const mode = info ? await fileMode(file, 0o755) : 0o755; // a symlink's target's mode
  const why = current === null
    ? "husky pre-push with review-gate's line"
    : "add review-gate's line";
  return {
    layout: "husky",
    actions: [{ op: "write", path: file, text, mode, before: current, why }],
    notes,
  };
}

async function planHuskyUninstall(huskyDir: string): Promise<Plan> {
  const file = join(huskyDir, "pre-push");
  const info = await lstatOrNull(file);
  const current = info ? await readTextOrNull(file) : null;
  if (typeof current !== "string") {
    return { layout: "husky", actions: [], notes: ["No review-gate line in .husky/pre-push."] };
  }
  const { text, deleteFile, removed } = removeHuskyLines(current);
  if (removed === 0) {
    return { layout: "husky", actions: [], notes: ["No review-gate line in .husky/pre-push."] };
  }
  const action: FileAction = deleteFile
    ? { op: "remove", path: file, before: current, why: "created by review-gate install" }
    : {
      op: "write",
      path: file,
      text,
      mode: await fileMode(file, 0o644),
      before: current,
      why: "remove review-gate's line",
    };
  return { layout: "husky", actions: [action], notes: [] };
}
