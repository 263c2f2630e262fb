/**
 * The per-user state folder, outside every repository: `$XDG_STATE_HOME/review-gate/` (default
 * `~/.local/state/review-gate/`). It holds the session anchors and stop stamps
 * (lib/store/anchors.ts, lib/store/stop_stamps.ts) and the key review-gate authenticates its own
 * state with (`key`, mode `0600`; docs: README "Security model"). Tools that confine an agent (the
 * `--guard` rules) name these paths. Paths are joined with `/` by hand: this module is on the hooks'
 * fast path, which loads no Node-compat module (lib/cli/start_test.ts), and POSIX is the only path.
 *
 * @module
 */

/**
 * The per-user state folder.
 *
 * @param env the environment (`XDG_STATE_HOME`, `HOME`)
 * @returns the absolute path, or `undefined` when neither variable is set
 */
export function userStateDir(env: Record<string, string | undefined>): string | undefined {
  const base = env.XDG_STATE_HOME || (env.HOME ? `${trimSlash(env.HOME)}/.local/state` : undefined);
  return base ? `${trimSlash(base)}/review-gate` : undefined;
}

/**
 * Where the per-user key that authenticates review-gate's state lives.
 *
 * @param env the environment (`XDG_STATE_HOME`, `HOME`)
 * @returns the absolute path, or `undefined` when no state folder is known
 */
export function stateKeyPath(env: Record<string, string | undefined>): string | undefined {
  const dir = userStateDir(env);
  return dir ? `${dir}/key` : undefined;
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
