/**
 * What the job commands (`jobs`, `status`, `result`, `cancel`) share: the repository's state dir
 * (jobs live beside the runs, shared by every worktree) and the I/O a job refresh needs.
 *
 * @module
 */
import { resolveRepo } from "../git/repo.ts";
import type { RefreshDeps } from "../jobs/refresh.ts";
import { ensureStateDir } from "../store/state.ts";
import type { CliDeps } from "./deps.ts";

/** The state dir of the repository around the cwd, and the refresh I/O. */
export async function openJobState(
  deps: CliDeps,
): Promise<{ state: string; root: string; io: RefreshDeps }> {
  const repo = await resolveRepo(deps.runner, deps.cwd);
  return {
    state: await ensureStateDir(repo.commonDir),
    root: repo.root,
    io: { runner: deps.runner, now: deps.now },
  };
}
