/**
 * The skip record of a push the disabled pre-push gate let through (README "Skips";
 * lib/gates/skip_record.ts): one record per push and place the gate was off, naming the refs.
 *
 * @module
 */
import type { Repo } from "../../git/repo.ts";
import type { HookInput } from "../hook_io.ts";
import { pushSkip, recordSkip } from "../skip_record.ts";
import type { PushUpdate } from "./stdin.ts";

/**
 * Record that the gate, off in `where`, let `updates` through unreviewed.
 *
 * @param input the hook's environment, cwd and clock
 * @param push the remote git named, the repository, the updates not reviewed (deletions left out)
 * @param where where the gate was off, in words
 * @returns a stderr line when the record could not be written, else ""
 */
export async function recordDisabledPush(
  input: Pick<HookInput, "env" | "cwd" | "now">,
  push: { remote: string; repo: Repo; updates: readonly PushUpdate[] },
  where: string,
): Promise<string> {
  const updates = push.updates.filter((u) => !u.deletion);
  if (updates.length === 0) return "";
  const lines = updates.map((u) => `${u.localRef} ${u.localOid} ${u.remoteRef} ${u.remoteOid}`);
  const record = pushSkip(
    { env: input.env, cwd: push.repo.root, now: input.now() },
    { lines: lines.join("\n"), remote: push.remote, repo: push.repo.commonDir },
    { reason: "disabled", where },
  );
  return await recordSkip(input.env, record);
}
