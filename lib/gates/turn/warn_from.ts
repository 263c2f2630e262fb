/**
 * Which config put a turn gate in warn mode (README "Warn first"), so that its "would block"
 * message names exactly the `gate block` command that undoes it: the repository's
 * `.review-gate.json` (`review-gate gate block <gate>`, which edits that file) or the user config
 * (`… --user`). A Stop reads the worktree's file over the user's (lib/config/config.ts
 * `loadConfig`) and the environment sets no mode, so the repository's file read alone tells them
 * apart.
 *
 * @module
 */
import { type Config, loadConfig } from "../../config/config.ts";
import type { WarnModeFrom } from "../pre_push/messages.ts";

/**
 * Where a turn gate's warn mode is set, as the files are now.
 *
 * @param at the repository's root, the environment, and the gate's settings in a config
 *   (lib/gates/turn/door.ts `gateConfig`)
 * @returns `repo` when the repository's file alone says warn (or cannot be read: the user must
 *   fix that file first, and `gate block` names the problem), else `user`
 */
export async function turnWarnFrom(at: {
  root: string;
  env: Record<string, string | undefined>;
  gateConfig: (config: Config) => { mode?: string };
}): Promise<WarnModeFrom> {
  try {
    const { config } = await loadConfig({ root: at.root, env: at.env, userText: null });
    return at.gateConfig(config).mode === "warn" ? "repo" : "user";
  } catch {
    return "repo";
  }
}
