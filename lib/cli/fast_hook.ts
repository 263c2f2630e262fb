/**
 * Which argv `main.ts` sends straight to lib/gates/run_hook.ts — a plain `hook <name> …` call —
 * without loading the command-line parser or the review pipeline (the hooks' fast path: they run
 * on every push and every agent turn). Help for a hook (`hook pre-push --help`) goes through the
 * parser like every other command (lib/cli/hook.ts).
 *
 * @module
 */
import { isHookName } from "../gates/registry.ts";

/**
 * True when argv is a plain hook call that can take the fast path (no help flags).
 *
 * @param args argv without the program name
 */
export function isFastHookCall(args: readonly string[]): boolean {
  return args[0] === "hook" && isHookName(args[1]) &&
    !args.some((a) => a === "-h" || a === "--help");
}
