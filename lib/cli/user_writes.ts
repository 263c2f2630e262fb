/**
 * Recording what the user's own commands wrote (`gate enable|disable`, `install`, `uninstall`) for
 * the turn gates (lib/store/user_writes.ts), so the user switching a gate off or reinstalling in the
 * middle of an agent's turn is not taken for the agent's doing.
 *
 * @module
 */
import { agentMarker } from "../base/agent_env.ts";
import { resolveRepo } from "../git/repo.ts";
import { ensureStateDir } from "../store/state.ts";
import { stampUserWrites } from "../store/user_writes.ts";
import type { CliDeps } from "./deps.ts";

/**
 * Record the user's change for the turn gates; nothing when run inside an agent's session or
 * outside a repository (best effort: a failure to record never fails the command).
 *
 * @param files absolute path → the text written, or `null` for a file removed
 */
export async function stampForTurnGates(
  deps: CliDeps,
  files: ReadonlyArray<{ path: string; text: string | null }>,
): Promise<void> {
  if (agentMarker(deps.env) || files.length === 0) return;
  const repo = await resolveRepo(deps.runner, deps.cwd).catch(() => null);
  if (!repo) return;
  await stampUserWrites(await ensureStateDir(repo.commonDir), files).catch(() => {});
}
