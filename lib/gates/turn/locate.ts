/**
 * Which repository a turn hook gates (docs/design.md "Turn gate"). An agent's hook payload carries
 * its
 * *current* cwd, which moves when the agent `cd`s (docs/providers.md "Claude Code hooks"), so the
 * cwd alone would review the wrong repository — or none — and let the turn's edits
 * through unseen. The turn's start anchors the session: the project directory the agent names
 * (Claude Code's `CLAUDE_PROJECT_DIR`) when it is in a repository, else the cwd's repository; the
 * baseline goes there and lib/store/anchors.ts remembers it. The stop goes back to that anchor
 * from any cwd — a subdirectory, a submodule or nested repository, another repository, outside
 * every repository, a directory that no longer exists. When the anchor is gone the stop says the
 * turn was NOT reviewed and why; when the agent's cwd is in another repository the answer says that
 * repository's changes are not reviewed here.
 *
 * @module
 */
import { isAbsolute, resolve } from "../../base/path.ts";
import { type Repo, resolveRepo } from "../../git/repo.ts";
import type { Runner } from "../../exec/exec.ts";
import { readAnchor } from "../../store/anchors.ts";
import type { HookInput } from "../hook_io.ts";
import type { TurnDoor, TurnPayload } from "./door.ts";

/** Where a stop goes: a repository (with notes for the user), NOT reviewed (why), or nowhere. */
export type StopLocation =
  | { kind: "repo"; repo: Repo; notes: string[] }
  | { kind: "not-reviewed"; reason: string }
  | { kind: "none" };

async function tryRepo(runner: Runner, dir: string | undefined): Promise<Repo | null> {
  if (!dir) return null;
  try {
    return await resolveRepo(runner, dir);
  } catch {
    return null; // not a repository, missing, or git cannot run
  }
}

/** The payload's cwd as an absolute path (a relative one is taken from the process cwd). */
function payloadCwd(input: HookInput, payload: TurnPayload): string {
  const cwd = payload.cwd || input.cwd;
  return isAbsolute(cwd) ? cwd : resolve(input.cwd, cwd);
}

/**
 * The repository a turn's start anchors on: the door's project directory when it is in a
 * repository, else the cwd's repository.
 *
 * @returns the repository, or `null` when neither is in one (nothing to gate)
 */
export async function locatePromptRepo(
  input: HookInput,
  door: TurnDoor,
  payload: TurnPayload,
): Promise<Repo | null> {
  return await tryRepo(input.runner, door.projectDir(input.env)) ??
    await tryRepo(input.runner, payloadCwd(input, payload));
}

/**
 * The repository a stop reviews: the session's anchor (where its baseline was recorded), else the
 * door's project directory, else the cwd's repository.
 *
 * @returns where to go; `none` when no repository is known for the session (nothing to gate)
 */
export async function locateStopRepo(
  input: HookInput,
  door: TurnDoor,
  payload: TurnPayload,
): Promise<StopLocation> {
  const cwd = payloadCwd(input, payload);
  const anchor = await readAnchor(input.env, payload.session_id);
  if (anchor) {
    const repo = await tryRepo(input.runner, anchor.root);
    if (!repo) {
      return {
        kind: "not-reviewed",
        reason:
          `the repository this session's turn started in ("${anchor.root}") is no longer a git checkout`,
      };
    }
    return { kind: "repo", repo, notes: await cwdNotes(input.runner, cwd, repo) };
  }
  const project = await tryRepo(input.runner, door.projectDir(input.env));
  if (project) {
    return { kind: "repo", repo: project, notes: await cwdNotes(input.runner, cwd, project) };
  }
  const here = await tryRepo(input.runner, cwd);
  if (here) return { kind: "repo", repo: here, notes: [] };
  if (!(await Deno.stat(cwd).catch(() => null))) {
    return {
      kind: "not-reviewed",
      reason:
        `the agent's directory "${cwd}" does not exist and this session's start was not seen, so its repository is unknown`,
    };
  }
  return { kind: "none" };
}

/**
 * What the user must know about the agent's cwd besides the review: a cwd in another repository
 * (a submodule, a nested or unrelated repository) holds changes this gate does not review. Costs a
 * git call only when the cwd is not the repository's root.
 */
async function cwdNotes(runner: Runner, cwd: string, repo: Repo): Promise<string[]> {
  if (cwd === repo.root) return [];
  const here = await tryRepo(runner, cwd);
  if (!here || here.root === repo.root) return [];
  return [
    `review-gate reviewed "${repo.root}", where this session's turn started; the agent is now in another repository ("${here.root}"): changes there are NOT reviewed by this gate`,
  ];
}
