/**
 * Fill `{{name}}` placeholders of the hook templates in `hooks/`. Unknown or missing placeholders
 * throw (STYLE.md 7: a silently blank placeholder produces a broken hook).
 *
 * @module
 */

/**
 * Replace every `{{key}}` in `template` with `values[key]`.
 *
 * @param template text with `{{key}}` placeholders (key: letters, digits, `_`)
 * @param values one string per placeholder; every key must be used
 * @returns the filled text
 * @throws {Error} when the template names a key `values` lacks, or `values` has a key the template does not use
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  const used = new Set<string>();
  const out = template.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    if (!Object.hasOwn(values, key)) throw new Error(`Template placeholder "${key}" has no value`);
    used.add(key);
    return values[key];
  });
  for (const key of Object.keys(values)) {
    if (!used.has(key)) throw new Error(`Template has no placeholder "${key}"`);
  }
  return out;
}
