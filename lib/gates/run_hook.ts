/**
 * Running one hook (`review-gate hook <name>`): read stdin once, let the hook's entry module decide
 * (lib/gates/registry.ts), write stdout/stderr. `main.ts` calls {@linkcode runHook} straight for a
 * plain hook call, without loading the command-line parser or the review pipeline (the fast path).
 *
 * @module
 */
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import {
  type HookEntry,
  hookFailureText,
  type HookInput,
  type HookOutput,
  hooksSwitchedOff,
  reviewGateSkips,
} from "./hook_io.ts";
import { isHookName, loadHook } from "./registry.ts";
import { takeStateNotes } from "../store/sealed.ts";

/** The I/O a hook call gets from `main.ts` (a subset of the command's dependencies). */
export interface HookDeps extends Omit<HookInput, "stdinText"> {
  stdout: { write(text: string): void };
  stderr: { write(text: string): void };
  /** Read all of stdin (once). */
  readStdin: () => Promise<Uint8Array>;
}

/**
 * Run one hook: read stdin once, decide, write stdout/stderr. Never throws and never blocks on an
 * infrastructure error (invalid config, broken state dir, not a repository): the hook's `failed`
 * answers instead. A gate the user's `REVIEW_GATE` switch turns off only leaves its skip record
 * (lib/gates/skip_record.ts).
 *
 * @param name a hook name (lib/gates/registry.ts)
 * @param args the hook's own arguments (pre-push: remote, url)
 * @returns the exit code
 */
export async function runHook(
  name: string,
  args: readonly string[],
  deps: HookDeps,
): Promise<number> {
  if (hooksSwitchedOff(deps.env)) {
    // the user's switch, or the review child's marker (anything can set it by hand): a gate
    // leaves its skip record (README "Skips"); no git, no config
    const skips = await import("./skip_record.ts");
    if (skips.isGateHook(name)) {
      if (deps.env.REVIEW_GATE_CHILD === "1") {
        await skips.recordChildSkip(name, args, { ...deps, now: deps.now() });
      } else if (reviewGateSkips(deps.env)) {
        await skips.recordSwitchedOff(name, args, { ...deps, now: deps.now() });
      }
    }
    return 0; // before touching git
  }
  if (!isHookName(name)) throw new Error(`Unknown hook "${name}"`);
  const input: HookInput = {
    stdinText: "",
    env: deps.env,
    cwd: deps.cwd,
    runner: deps.runner,
    now: deps.now,
    signal: deps.signal,
    self: deps.self,
  };
  let hook: HookEntry;
  try {
    hook = await loadHook(name);
  } catch (error) {
    // a broken installation: say so, never block on it
    deps.stderr.write(sanitizeForTerminal(
      `review-gate: WARNING: the ${name} hook could not start: ${hookFailureText(error)}\n`,
    ));
    return 0;
  }
  let output: HookOutput;
  try {
    input.stdinText = new TextDecoder().decode(await deps.readStdin());
    output = await hook.run(input, args);
  } catch (error) {
    output = await hook.failed(error, input);
  }
  // State that did not verify was ignored (lib/store/sealed.ts): named, never silent. The Stop
  // gates put these notes in their own answer; whatever is left is said here.
  const notes = takeStateNotes().map((note) => `${note}\n`).join("");
  if (output.stdout) deps.stdout.write(output.stdout);
  if (output.stderr || notes) deps.stderr.write(sanitizeForTerminal(output.stderr + notes));
  return output.exitCode;
}
