/**
 * Whether a path exists, as `lstat` sees it (a dangling symlink exists; it is not followed).
 *
 * @module
 */

/**
 * True when `lstat(path)` succeeds; any error (missing, no permission) reads as absent.
 *
 * @param path an absolute or cwd-relative path
 */
export function pathExists(path: string): Promise<boolean> {
  return Deno.lstat(path).then(() => true, () => false);
}
