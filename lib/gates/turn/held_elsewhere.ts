/**
 * A gate disabled in the config on disk while a session of this repository holds that change back
 * (lib/gates/turn/guard_config.ts): the agent of session A wrote `enabled: false` unasked and sat
 * out `max_blocks`; a new session B must not find the gate off — its turns start from A's held
 * config (lib/gates/turn/inherit.ts) until a prompt of the user's asks for the change
 * (docs/design.md "Turn gate"). Session records are sealed (lib/store/sessions.ts): only verified
 * ones count; a record that cannot be read holds nothing (the session's own Stop names it lost).
 *
 * @module
 */
import type { Config } from "../../config/config.ts";
import { readAllSessions } from "../../store/sessions.ts";
import type { TurnDoor } from "./door.ts";

/** The session whose held config keeps a gate on, and that config. */
export interface HeldOn {
  /** The session record's file name (`<id>.json`). */
  session: string;
  /** The config from before the change (that session's `configAtStart`), gate enabled. */
  config: Config;
  /** The held setting, dotted (`gates.claude_stop.enabled`), or the whole file (`invalid`). */
  setting: string;
  /** Whether the asking session's prompts name the setting (the hold is lifted for it). */
  asked: boolean;
}

/**
 * The hold that keeps `door`'s gate on although the config on disk disables it, if any session of
 * the repository carries one its user did not ask to lift.
 *
 * @param state the repository's state dir
 * @param at the door, the environment (the user's key), and the user's prompts of the asking
 *   session (a prompt naming the setting lifts the hold for it, as guard_config.ts `settingAsked`)
 * @returns the hold (`asked` when the prompts lift it), or `null` (also when `sessions/` is
 *   absent: one directory read)
 */
export async function heldOnElsewhere(
  state: string,
  at: { door: TurnDoor; env: Record<string, string | undefined>; prompt?: string },
): Promise<HeldOn | null> {
  const { settingAsked } = await import("./guard_config.ts");
  for (const { name, read } of await readAllSessions(state, at.env)) {
    if (read.kind !== "ok") continue;
    const start = read.state.answered ?? read.state;
    const held = start.heldConfig;
    const before = start.configAtStart;
    if (!held || !before || !at.door.gateConfig(before).enabled) continue;
    const setting = held.invalid
      ? "the whole config"
      : held.settings.find((s) => /\.enabled$/.test(s) || s === "gates");
    if (!setting) continue;
    const asked = !held.invalid && settingAsked(at.prompt, setting);
    return { session: name, config: before, setting, asked };
  }
  return null;
}
