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
export function setGateEnabled(
  text: string,
  gateKeys: readonly string[],
  enabled: boolean,
): Promise<string> {
  return setGateSetting(text, gateKeys, "enabled", enabled);
}

/**
 * Set `gates.<key>.<setting>` in a JSONC config text, keeping everything else byte for byte.
 *
 * @param text current file text ("" for a new file)
 * @param gateKeys config keys under `gates`, e.g. `["pre_push", "claude_stop"]`
 * @param setting the gate's key, e.g. `"mode"`
 * @param value the new value
 * @returns the new text (validated by the caller)
 * @example
 * ```ts
 * import { setGateSetting } from "./edit.ts";
 * await setGateSetting("{}\n", ["pre_push"], "mode", "warn");
 * // '{\n  "gates": {\n    "pre_push": {\n      "mode": "warn"\n    }\n  }\n}\n'
 * ```
 */
export async function setGateSetting(
  text: string,
  gateKeys: readonly string[],
  setting: string,
  value: unknown,
): Promise<string> {
  const { applyEdits, modify } = await import("jsonc-parser");
  let out = text.trim() === "" ? "{}\n" : text;
  for (const key of gateKeys) {
    const edits = modify(out, ["gates", key, setting], value, {
      formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" },
    });
    out = applyEdits(out, edits);
  }
  return out;
}
