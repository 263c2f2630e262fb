/**
 * Find duplicate keys in JSON text. `JSON.parse` keeps the last of duplicate keys silently, so
 * `{"verdict":"needs-attention",…,"verdict":"approve"}` would decode as an approval the text also
 * contradicts; the decoder refuses such an answer instead. jsonc-parser's `visit` (an npm import,
 * loaded lazily so hook fast paths do not pay for it) reports every property with the path of its
 * object.
 *
 * @module
 */

import type { Refusal } from "./types.ts";

/**
 * List every duplicate key of every object in `text`.
 *
 * @param text JSON text that `JSON.parse` accepted
 * @returns one refusal per duplicate (path: JSON pointer of the repeated key, e.g. "/verdict";
 *   problem: `duplicate key "verdict"…`); empty when no object repeats a key
 */
export async function findDuplicateKeys(text: string): Promise<Refusal[]> {
  const { visit } = await import("jsonc-parser");
  const stack: Set<string>[] = [];
  const refusal: Refusal[] = [];
  visit(text, {
    onObjectBegin: () => void stack.push(new Set()),
    onObjectEnd: () => void stack.pop(),
    onObjectProperty(property, _offset, _length, _line, _column, pathSupplier) {
      const seen = stack.at(-1);
      if (!seen) return;
      if (!seen.has(property)) {
        seen.add(property);
        return;
      }
      refusal.push({
        path: pointer([...pathSupplier(), property]),
        problem: `duplicate key ${
          JSON.stringify(property)
        }: give each key once in the whole JSON object`,
      });
    },
  });
  return refusal;
}

/** JSON pointer (RFC 6901) of a path. */
function pointer(path: readonly (string | number)[]): string {
  return path.map((s) => `/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
