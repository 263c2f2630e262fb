/**
 * Reading a small text file the repository (or the agent under review) controls — review-gate's
 * config, acknowledgements, settings and hook files — without following it into a device, a FIFO or
 * a file of any size: a committed `.review-gate.json` that is a symlink to `/dev/zero` must give a
 * clear error at once, never a hook that hangs while its memory grows.
 *
 * @module
 */

/** Most bytes read from one such file (8 MiB). */
export const MAX_REGULAR_TEXT_BYTES = 8 * 1024 * 1024;

/**
 * Read `path` as UTF-8 text when it is (or a symlink leads to) a regular file of at most
 * `maxBytes` bytes.
 *
 * @param path the file
 * @param maxBytes the largest size accepted, bytes
 * @returns the text (invalid UTF-8 replaced, as `Deno.readTextFile` does)
 * @throws {Deno.errors.NotFound} when it does not exist; {@linkcode Deno.errors.InvalidData} when
 *   it is not a regular file or is larger than `maxBytes`; other `Deno.errors` from the file system
 */
export async function readRegularText(
  path: string,
  maxBytes: number = MAX_REGULAR_TEXT_BYTES,
): Promise<string> {
  const info = await Deno.stat(path); // follows symlinks: what a read would open
  if (!info.isFile) {
    throw new Deno.errors.InvalidData(`"${path}" is not a regular file`);
  }
  if (info.size > maxBytes) {
    throw new Deno.errors.InvalidData(
      `"${path}" has ${info.size} bytes, more than the ${maxBytes} read from such a file`,
    );
  }
  using file = await Deno.open(path);
  // room for what stat saw plus some growth; a file still growing past that is refused
  const limit = Math.min(maxBytes, info.size + 65536);
  const bytes = new Uint8Array(limit + 1);
  let length = 0;
  while (length < bytes.length) {
    const n = await file.read(bytes.subarray(length));
    if (n === null) break;
    length += n;
  }
  if (length > limit) {
    throw new Deno.errors.InvalidData(`"${path}" grew past ${limit} bytes while it was read`);
  }
  return new TextDecoder().decode(bytes.subarray(0, length));
}
