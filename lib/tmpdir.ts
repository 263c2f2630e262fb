/**
 * Private temp dirs: a `0700` directory for the files a provider invocation needs (the Codex
 * schema, last-message files), removed on every exit path (DESIGN.md "One structured call").
 * Live dirs are kept in a registry so `main.ts` can remove them synchronously on SIGINT/SIGTERM
 * before it exits ({@linkcode cleanupAllTempDirs}).
 *
 * @module
 */

const live = new Set<string>();

/** Options for {@linkcode withPrivateTempDir}. */
export interface TempDirOptions {
  /** Directory name prefix; default "review-gate-". */
  prefix?: string;
}

/**
 * Make a private (`0700`) temp dir, run `fn` with its absolute path, then remove it recursively —
 * on success, on a throw and on an abort (an aborted call returns or throws through here too).
 *
 * @param fn work to do with the directory
 * @param options name prefix
 * @returns what `fn` returns
 * @throws whatever `fn` throws (after removing the dir), or a Deno.errors error when the dir
 *   cannot be created
 */
export async function withPrivateTempDir<T>(
  fn: (dir: string) => Promise<T>,
  options: TempDirOptions = {},
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: options.prefix ?? "review-gate-" });
  live.add(dir);
  try {
    await Deno.chmod(dir, 0o700);
    return await fn(dir);
  } finally {
    live.delete(dir);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Absolute paths of the temp dirs currently alive (for tests and diagnostics). */
export function liveTempDirs(): string[] {
  return [...live];
}

/**
 * Remove every live temp dir synchronously; errors are ignored. For signal handlers in `main.ts`,
 * which must clean up before `Deno.exit`.
 *
 * @returns how many dirs were removed
 */
export function cleanupAllTempDirs(): number {
  let removed = 0;
  for (const dir of live) {
    try {
      Deno.removeSync(dir, { recursive: true });
      removed++;
    } catch {
      // already gone
    }
    live.delete(dir);
  }
  return removed;
}
