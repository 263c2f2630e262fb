/**
 * Test helper for the store modules (folder-private): a throwaway state directory that is removed
 * after the test body, also when it throws.
 *
 * @module
 */

/** Run `fn` with the path of a fresh temporary state directory, then remove that directory. */
export async function withState(fn: (state: string) => Promise<void>): Promise<void> {
  const state = await Deno.makeTempDir();
  try {
    await fn(state);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
}
