/**
 * A minimal `{{name}}` template filler that throws on an unknown or missing placeholder (the
 * reference plugin silently replaced unknown keys with "", which produced blank prompts).
 *
 * @module
 */

const PLACEHOLDER = /\{\{([a-z_][a-z0-9_]*)\}\}/g;

/**
 * Fill a template's `{{name}}` placeholders.
 *
 * @param template text with `{{snake_case}}` placeholders
 * @param values one string per placeholder; every key must be used and every placeholder given
 * @returns the filled text (values are inserted verbatim, never re-scanned)
 * @throws {Error} naming the placeholder when one has no value or a value has no placeholder
 * @example
 * ```ts
 * import { fillTemplate } from "./template.ts";
 * import { equal } from "node:assert/strict";
 * equal(fillTemplate("Hi {{name}}", { name: "Ada" }), "Hi Ada");
 * ```
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  const used = new Set<string>();
  const out = template.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(values, name)) {
      throw new Error(`Template placeholder "{{${name}}}" has no value`);
    }
    used.add(name);
    return values[name];
  });
  for (const name of Object.keys(values)) {
    if (!used.has(name)) {
      throw new Error(`Template has no placeholder "{{${name}}}" for the value given`);
    }
  }
  return out;
}
