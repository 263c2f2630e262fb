/**
 * The fix for a program that exists but cannot be started because it lacks the execute bit — a
 * provider binary copied or unpacked without its mode (the one `REVIEW_GATE_*_BIN` names, say).
 *
 * @module
 */
import { SpawnError } from "./exec.ts";

/**
 * The message for a failed start of `bin` that was refused permission: it names the fix.
 *
 * @param error what starting `bin` threw
 * @param bin the program as it was started (a path or a name on PATH)
 * @returns `"<bin>" is not executable: run chmod +x "<bin>"`, or null for any other failure
 */
export function notExecutableText(error: unknown, bin: string): string | null {
  if (!(error instanceof SpawnError) || !(error.cause instanceof Deno.errors.PermissionDenied)) {
    return null;
  }
  return `"${bin}" is not executable: run chmod +x "${bin}"`;
}
