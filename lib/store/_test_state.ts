/**
 * Test helper for the store modules (folder-private): a throwaway state directory that is removed
 * after the test body, also when it throws. While the body runs, `XDG_STATE_HOME` points inside it,
 * so the key that seals the store's files (lib/store/state_key.ts) is the test's own, never the
 * user's.
 *
 * @module
 */
import { join } from "../base/path.ts";

/** Run `fn` with the path of a fresh temporary state directory, then remove that directory. */
export async function withState(fn: (state: string) => Promise<void>): Promise<void> {
  const state = await Deno.makeTempDir();
  const before = Deno.env.get("XDG_STATE_HOME");
  Deno.env.set("XDG_STATE_HOME", join(state, ".user-state"));
  try {
    await fn(state);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_STATE_HOME");
    else Deno.env.set("XDG_STATE_HOME", before);
    await Deno.remove(state, { recursive: true });
  }
}
