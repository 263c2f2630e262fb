/**
 * `install --codex --guard`: a Codex permission profile that keeps the agent's shell commands from
 * reading the key that authenticates review-gate's state. Verified with Codex 0.171.0 on Linux
 * (test/contract/codex_sandbox_test.ts): under `:workspace` (as under `--sandbox workspace-write`)
 * `.git/` is read-only to its commands, so `.git/review-gate/` and `.git/hooks` cannot be written,
 * and paths outside the workspace (the per-user state folder, the user config) are not writable;
 * but every path is readable, the key included. A profile that extends `:workspace` with
 * `"<state folder>" = "none"` makes the state folder unreadable ("Permission denied").
 *
 * Written into the user's `$CODEX_HOME/config.toml` as text, every line ours carrying the
 * `managed-by: review-gate` comment: `default_permissions = "review-gate"` as the file's first line
 * (a top-level key must precede every table) and the profile's tables appended at the end.
 * Uninstall cuts exactly those lines, so the rest of the file comes back byte for byte. Codex
 * ignores profiles while `sandbox_mode` is set in a config layer or `--sandbox` is passed, and a
 * `default_permissions` of the user's own is theirs: in either case nothing is written and the
 * report says why (`doctor` then says "none").
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { parse as parseToml } from "smol-toml";
import { MANAGED_MARKER } from "../git/stub.ts";
import type { FileAction } from "../file_actions.ts";
import { fileMode, readTextOrNull } from "../file_actions.ts";
import { userStateDir } from "../../store/user_state.ts";
import { resolveExisting } from "../guard_paths.ts";
import { codexHome } from "./install.ts";

/** The profile's name. */
export const CODEX_PROFILE = "review-gate";

const BEGIN = `# >>> ${MANAGED_MARKER}: keeps the agent from reading review-gate's key`;
const END = `# <<< ${MANAGED_MARKER}`;

/** Our lines for a state folder: the first line, and the block appended at the end. */
function ourLines(stateDir: string): { head: string; block: string } {
  return {
    head: `default_permissions = "${CODEX_PROFILE}" # ${MANAGED_MARKER}\n`,
    block: [
      BEGIN,
      `[permissions.${CODEX_PROFILE}]`,
      `extends = ":workspace"`,
      `[permissions.${CODEX_PROFILE}.filesystem]`,
      `${JSON.stringify(stateDir)} = "none"`,
      END,
      "",
    ].join("\n"),
  };
}

/**
 * The text without our lines: the marked first line and the marked block.
 *
 * @param text config.toml's text
 * @returns the text as it was before install (unchanged when nothing of ours is in it)
 */
export function withoutCodexGuard(text: string): string {
  let out = text.replace(new RegExp(`^default_permissions = [^\\n]*# ${MANAGED_MARKER}\\n`), "");
  const begin = out.indexOf(`\n${BEGIN}\n`);
  const end = out.indexOf(`${END}\n`, begin);
  if (begin >= 0 && end > begin) out = out.slice(0, begin) + out.slice(end + END.length + 1);
  return out;
}

/** True when the text holds our profile for `stateDir` and selects it. */
export function hasCodexGuard(text: string, stateDir: string): boolean {
  const lines = ourLines(stateDir);
  return text.startsWith(lines.head) && text.includes(lines.block);
}

/** Why our profile cannot take effect in this config, or `null`. */
function blocker(text: string): string | null {
  let value: Record<string, unknown>;
  try {
    value = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return `config.toml does not parse (${(error as Error).message})`;
  }
  if (value.sandbox_mode !== undefined) {
    return "config.toml sets sandbox_mode, and Codex ignores permission profiles then";
  }
  if (value.default_permissions !== undefined) {
    return `config.toml already selects the permission profile "${value.default_permissions}" (add "<state folder>" = "none" to it yourself)`;
  }
  return null;
}

/**
 * Plan adding (`install` true) or removing our profile.
 *
 * @param install add (true) or remove
 * @param env `CODEX_HOME`, `HOME`, `XDG_STATE_HOME`
 * @returns the actions and one line saying what happens (or why nothing can)
 */
export async function planCodexGuard(
  install: boolean,
  env: Record<string, string | undefined>,
): Promise<{ actions: FileAction[]; text: string }> {
  const home = codexHome(env);
  const state = userStateDir(env);
  if (!home || !state) return { actions: [], text: "Codex guard: no CODEX_HOME or HOME\n" };
  const path = join(home, "config.toml");
  const read = await readTextOrNull(path);
  const current = typeof read === "string" ? read : "";
  const bare = withoutCodexGuard(current);
  const lines = ourLines(await resolveExisting(state));
  const mode = (await fileMode(path, 0o600)) & 0o777;
  if (!install) {
    if (bare === current) return { actions: [], text: "" };
    return {
      actions: [{
        op: "write",
        path,
        text: bare,
        mode,
        before: current,
        why: "remove review-gate's Codex permission profile",
      }],
      text: `Codex guard: removed from ${path}\n`,
    };
  }
  const problem = blocker(bare);
  if (problem) {
    return {
      actions: [],
      text:
        `Codex guard: NOT added (${problem}): Codex's shell commands can still read review-gate's key\n`,
    };
  }
  // one "\n" before the block: it ends the user's last line or makes a blank line; uninstall cuts
  // that same "\n" with the block, so either way the user's bytes come back
  const text = lines.head + bare + "\n" + lines.block;
  if (text === current) return { actions: [], text: `Codex guard: already in ${path}\n` };
  return {
    actions: [{
      op: "write",
      path,
      text,
      mode,
      before: typeof read === "string" ? read : null,
      why: "add a Codex permission profile that keeps its commands from reading review-gate's key",
    }],
    text: `Codex guard: ${path} selects the "${CODEX_PROFILE}" permission profile\n`,
  };
}

/**
 * Does the user's Codex config keep its commands from reading the key? (for `doctor`)
 *
 * @param env `CODEX_HOME`, `HOME`, `XDG_STATE_HOME`
 * @returns `true` when our profile is there, selected, and nothing makes Codex ignore it; else
 *   why not
 */
export async function codexGuardStatus(
  env: Record<string, string | undefined>,
): Promise<{ on: true } | { on: false; why: string }> {
  const home = codexHome(env);
  const state = userStateDir(env);
  if (!home || !state) return { on: false, why: "no CODEX_HOME or HOME" };
  const text = await readTextOrNull(join(home, "config.toml"));
  if (typeof text !== "string" || !hasCodexGuard(text, await resolveExisting(state))) {
    return { on: false, why: `"review-gate install --codex --guard" adds the permission profile` };
  }
  const problem = blocker(withoutCodexGuard(text));
  return problem ? { on: false, why: problem } : { on: true };
}
