/**
 * Folder-private helper: reading a small JSON object of strings by path
 * (`output-writes.json`) the way the store's records of written files need it: anything missing,
 * unreadable or not such an object reads as empty, so a damaged record costs a false alarm at most,
 * never a crash.
 *
 * @module
 */

/**
 * Read a JSON object of strings (key → string) from `path`.
 *
 * @param path the record file
 * @returns its entries whose values are strings; `{}` when absent, unreadable or of another shape
 */
export async function readPathRecord(path: string): Promise<Record<string, string>> {
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(path));
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] =>
      typeof entry[1] === "string"
    ),
  );
}
