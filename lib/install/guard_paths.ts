/**
 * What `install --guard` keeps the agent out of (README "Gates" →
 * "Guard"): the state review-gate decides from and the key that authenticates it. An agent running
 * as the user could otherwise rewrite a cached verdict, a stamp or a baseline, or read the key and
 * sign a forged one. Writes are denied to the repository's state (`<git common dir>/review-gate/`),
 * the directory git runs hooks from, the per-user state folder (anchors, stop stamps, the key),
 * review-gate's user config folder, and the settings file that holds these rules; reads are denied
 * to the per-user state folder, which holds the key (the folder, not the file: the key may not
 * exist yet, and it is replaced by rename). Every path is absolute and resolved through symlinks
 * (macOS `/var` → `/private/var`), since the agents' sandboxes compare resolved paths.
 *
 * @module
 */
import { dirname, join } from "../base/path.ts";
import { userConfigPath } from "../config/config.ts";
import type { Repo } from "../git/repo.ts";
import { userStateDir } from "../store/user_state.ts";

/** The paths the agent's rules name, each absolute and resolved. */
export interface GuardTargets {
  /** Directories and files the agent may not write (a directory covers its subtree). */
  writeDenied: string[];
  /** Directories and files the agent may not read. */
  readDenied: string[];
  /** The entries above that are single files, not directories (a rule names them without `/**`). */
  files?: string[];
}

/**
 * `path` with its deepest existing ancestor resolved through symlinks (the rest appended as is).
 *
 * @param path an absolute path (it need not exist)
 * @returns the resolved absolute path
 */
export async function resolveExisting(path: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await Deno.realPath(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return path;
      rest.push(at.slice(up.length).replace(/^\//, ""));
      at = up;
    }
  }
}

/**
 * The paths `install --guard` protects for one repository and user.
 *
 * @param input the repository (its common dir and hooks dir), the environment (`HOME`,
 *   `XDG_STATE_HOME`, `XDG_CONFIG_HOME`) and extra files to keep unwritable (the settings file
 *   holding the rules; listed in `files` too)
 * @returns write- and read-denied paths, without duplicates, in a fixed order
 */
export async function guardTargets(input: {
  repo: Pick<Repo, "commonDir" | "hooksDir">;
  env: Record<string, string | undefined>;
  extraWriteDenied?: readonly string[];
}): Promise<GuardTargets> {
  const stateDir = userStateDir(input.env);
  const configPath = userConfigPath(input.env);
  const write = [
    join(input.repo.commonDir, "review-gate"),
    input.repo.hooksDir ?? join(input.repo.commonDir, "hooks"),
    ...(stateDir ? [stateDir] : []),
    ...(configPath ? [dirname(configPath)] : []),
    ...(input.extraWriteDenied ?? []),
  ];
  const read = stateDir ? [stateDir] : [];
  const resolve = async (paths: string[]) => [
    ...new Set(await Promise.all(paths.map(resolveExisting))),
  ];
  return {
    writeDenied: await resolve(write),
    readDenied: await resolve(read),
    files: await resolve([...(input.extraWriteDenied ?? [])]),
  };
}
