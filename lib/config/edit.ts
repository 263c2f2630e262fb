/**
 * Editing a config file's text in place (JSON with comments): jsonc-parser `modify` changes one key
 * and keeps every other byte — comments, formatting, key order. The caller validates the result and
 * writes it.
 *
 * @module
 */

/**
 * Set `gates.<key>.enabled` in a JSONC config text, keeping everything else byte for byte.
 *
 * @param text current file text ("" for a new file)
 * @param gateKeys config keys under `gates`, e.g. `["pre_push", "claude_stop"]`
 * @param enabled the new value
 * @returns the new text (validated by the caller)
 * @example
 * ```ts
 * import { setGateEnabled } from "./edit.ts";
 * await setGateEnabled("{}\n", ["pre_push"], false);
 * // '{\n  "gates": {\n    "pre_push": {\n      "enabled": false\n    }\n  }\n}\n'
 * ```
 */
export async function setGateEnabled(
  text: string,
  gateKeys: readonly string[],
  enabled: boolean,
): Promise<string> {
  const { applyEdits, modify } = await import("jsonc-parser");
  let out = text.trim() === "" ? "{}\n" : text;
  for (const key of gateKeys) {
    const edits = modify(out, ["gates", key, "enabled"], enabled, {
      formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" },
    });
    out = applyEdits(out, edits);
  }
  return out;
}
