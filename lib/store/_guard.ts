/**
 * Folder-private helper: turn a file-system failure of a store write into a {@linkcode StoreError}
 * naming the path, so the CLI shows "Cannot write … check permissions and free space" (exit 3)
 * instead of an internal error. A full disk or `ulimit -f` surfaces as a plain `Error` ("File too
 * large (os error 27)"), not a `Deno.errors` class, so every error is wrapped except a
 * `TypeError` (a programming error such as a bad run id) and an error that already knows its exit
 * code.
 *
 * @module
 */
import { ReviewGateError, StoreError } from "../base/errors.ts";

/**
 * Run `fn`; rethrow its file-system failure as a {@linkcode StoreError}.
 *
 * @param path the path being written (named in the message)
 * @param fn the write
 * @param what what the path is, for the message (default "the run folder")
 * @returns what `fn` returns
 * @throws {StoreError} on a file-system failure; `TypeError` and `ReviewGateError` unchanged
 */
export async function guardStore<T>(
  path: string,
  fn: () => Promise<T>,
  what?: string,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof TypeError || error instanceof ReviewGateError) throw error;
    throw new StoreError(path, error, what);
  }
}
