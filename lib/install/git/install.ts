/**
 * Install and uninstall the git `pre-push` hook (docs/design.md "Installer").
 *
 * The hook goes where git runs hooks from (lib/install/git/hooks_dir.ts: honours `core.hooksPath`,
 * linked worktrees share the main repository's hooks, submodules have their own). Four layouts:
 * - **plain**: no hook there → our stub.
 * - **chained**: a foreign `pre-push` is renamed to {@linkcode CHAINED_HOOK_NAME} (a rename keeps its
 *   bytes and mode) and our stub runs it first, as its own process, with the same arguments and
 *   stdin bytes; nothing it does can skip our review (a refusal stops the push).
 * - **inline**: a foreign shell hook that finds itself through `$0` (husky 4 and other dispatchers
 *   run what is named like the file) would change behaviour under another name → our line goes
 *   before its first command instead (lib/install/git/line_plan.ts).
 * - **husky**: hooks dir is `.husky/_` (husky 9) or `.husky` (husky 5–8) → our line goes before the
 *   first command of `.husky/pre-push`, where nothing of the user's can end the script first.
 * A file that cannot take our line safely (not a shell script, not UTF-8) is refused with the
 * reason. Uninstall removes only what carries the `managed-by: review-gate` marker and renames the
 * foreign hook back. Install is idempotent.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";
import { UsageError } from "../../base/errors.ts";
import {
  type ActionDetail,
  applyActions,
  type FileAction,
  lstatOrNull,
  readTextOrNull,
  renderActions,
} from "../file_actions.ts";
import { CHAINED_HOOK_NAME, isManaged, isOurStub, renderPrePushStub } from "./stub.ts";
import { planLineInstall, planLineUninstall } from "./line_plan.ts";
import { isShellScript, refersToOwnPath } from "./placement.ts";
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
  /**
   * What review-gate's line in a hook file it does not own runs instead of `command` when
   * `REVIEW_GATE=0` skips it: the skip record's script (lib/install/self_command.ts
   * `pushSkipScript`); absent, the line records nothing (a compiled binary has no script on disk).
   */
  skipCommand?: string;
  /** Plan and describe, write nothing. */
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
  /** Override refusals that can be overridden (a non-executable or unreadable foreign hook). */
  force?: boolean;
}

/** What an install or uninstall did (or, with `dryRun`, would do). */
export interface GitHookReport {
  /** Absolute directory git runs hooks from. */
  hooksDir: string;
  layout: "plain" | "chained" | "inline" | "husky";
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
  const line = { command: options.command, skip: options.skipCommand };
  const plan = husky
    ? await planHuskyInstall(husky, line)
    : await planStubInstall(hooksDir, line, options.force ?? false);

  const { runner, cwd } = options;
  const note = await insideWorktreeNote(hooksDir, { runner, cwd, husky: husky !== null });
  if (note !== null) plan.notes.push(note);
  return await finish(hooksDir, plan, options);
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
    return await finish(hooksDir, { layout: "plain", actions: [], notes }, options);
  }
  const husky = huskyDirOf(hooksDir);
  const plan = husky ? await planHuskyUninstall(husky) : await planStubUninstall(hooksDir);
  return await finish(hooksDir, plan, options);
}

interface Plan {
  layout: GitHookReport["layout"];
  actions: FileAction[];
  notes: string[];
}

async function finish(
  hooksDir: string,
  plan: Plan,
  options: Pick<GitHookOptions, "dryRun" | "diff">,
): Promise<GitHookReport> {
  if (!options.dryRun) await applyActions(plan.actions);
  const head = [`hooks directory: ${hooksDir}`, ...plan.notes].join("\n");
  return {
    hooksDir,
    ...plan,
    text: `${head}\n${renderActions(plan.actions, { diff: options.diff })}`,
  };
}

/** The commands our line runs: the review, and the skip record under `REVIEW_GATE=0`. */
interface LineCommands {
  command: string;
  skip?: string;
}

async function planStubInstall(
  hooksDir: string,
  line: LineCommands,
  force: boolean,
): Promise<Plan> {
  const { command } = line;
  const hook = join(hooksDir, "pre-push");
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const actions: FileAction[] = [];
  const notes: string[] = [];
  if (!(await lstatOrNull(hooksDir))) actions.push({ op: "mkdir", path: hooksDir });
  const hookInfo = await lstatOrNull(hook);
  const chainedExists = (await lstatOrNull(chained)) !== null;
  const current = hookInfo ? await readTextOrNull(hook) : null;

  if (hookInfo && typeof current === "string" && !isOurStub(current) && isManaged(current)) {
    return { layout: "inline", ...await planLineInstall(hook, { ...line, husky: false }) };
  }
  if (hookInfo && typeof current === "string" && isOurStub(current)) {
    return refreshStub({ hook, info: hookInfo, current, command, chainedExists });
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
    // Only a hook git runs can carry our line; a non-executable one (--force) is chained unrun.
    const inline = executable
      ? await planInlineInstead(hook, { current, info: hookInfo, line, force })
      : null;
    if (inline) return inline;
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

/** Our stub is there: rewrite it when its text or executable bit is not what install writes. */
function refreshStub(found: {
  hook: string;
  info: Deno.FileInfo;
  current: string;
  command: string;
  chainedExists: boolean;
}): Plan {
  const { hook, info, current, chainedExists } = found;
  const layout = chainedExists ? "chained" : "plain";
  const text = renderPrePushStub(found.command, { chained: chainedExists });
  if (current === text && ((info.mode ?? 0o755) & 0o111) === 0o111) {
    return { layout, actions: [], notes: ["The pre-push hook is already installed."] };
  }
  return {
    layout,
    actions: [{
      op: "write",
      path: hook,
      text,
      mode: 0o755,
      before: current,
      why: "refresh review-gate's stub",
    }],
    notes: [],
  };
}

/**
 * A foreign shell hook that finds itself through `$0` cannot be renamed without changing what it
 * does: our line goes before its first command instead. One that is not a shell script is refused
 * (with `force` it is chained anyway). `null` → rename and chain as usual.
 */
async function planInlineInstead(
  hook: string,
  found: {
    current: string | null | undefined;
    info: Deno.FileInfo;
    line: LineCommands;
    force: boolean;
  },
): Promise<Plan | null> {
  const { current, info } = found;
  if (typeof current !== "string" || info.isSymlink || !refersToOwnPath(current)) return null;
  const why =
    `The existing hook "${hook}" finds itself through $0 (its name or folder), so renaming it to chain it would change what it does`;
  if (isShellScript(current)) {
    const plan = await planLineInstall(hook, { ...found.line, husky: false });
    return {
      layout: "inline",
      ...plan,
      notes: [`${why}: review-gate's line goes before its first command instead.`, ...plan.notes],
    };
  }
  if (found.force) return null;
  throw new UsageError(
    `${why}, and it is not a shell script, so a line cannot go in it. Call review-gate from it yourself, first thing, with git's arguments and stdin (${found.line.command} hook pre-push "$@"), or pass --force to rename and chain it anyway`,
  );
}

async function planStubUninstall(hooksDir: string): Promise<Plan> {
  const hook = join(hooksDir, "pre-push");
  const chained = join(hooksDir, CHAINED_HOOK_NAME);
  const actions: FileAction[] = [];
  const notes: string[] = [];
  const hookInfo = await lstatOrNull(hook);
  const chainedExists = (await lstatOrNull(chained)) !== null;
  const current = hookInfo ? await readTextOrNull(hook) : null;
  if (typeof current === "string" && !isOurStub(current) && isManaged(current)) {
    return { layout: "inline", ...await planLineUninstall(hook) };
  }
  const ours = typeof current === "string" && isOurStub(current);
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

async function planHuskyInstall(huskyDir: string, line: LineCommands): Promise<Plan> {
  const plan = await planLineInstall(join(huskyDir, "pre-push"), { ...line, husky: true });
  const notes = [
    "husky manages the hooks here: review-gate adds one line to .husky/pre-push, before its first command.",
    ...plan.notes,
  ];
  return { layout: "husky", actions: plan.actions, notes };
}

async function planHuskyUninstall(huskyDir: string): Promise<Plan> {
  return { layout: "husky", ...await planLineUninstall(join(huskyDir, "pre-push")) };
}
