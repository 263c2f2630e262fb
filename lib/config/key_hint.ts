/**
 * "Did you mean …?" for an unknown config key (pure): the known keys near it at the same place in
 * `schemas/config.schema.json`, else keys of that name (or near it) elsewhere in the config, by
 * their full path — `on_error` at the top level is `gates.pre_push.on_error`.
 *
 * @module
 */
import { closestNames } from "../base/closest.ts";

/** The parts of a JSON Schema the hint walks. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** The fields of an ajv error the hint reads (lib/config/validate.ts `AjvError`). */
interface KeyError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Most keys one hint names. */
const MAX_NAMED = 3;

/**
 * The hint after `unknown key "…"`: ` (did you mean "budgets.total_bytes"?)`, or `""`.
 *
 * @param error an ajv error of the config validator (`additionalProperties` ones get a hint)
 * @param schema the config schema (its `properties` and `items` are walked)
 */
export function unknownKeyHint(error: KeyError, schema: unknown): string {
  if (error.keyword !== "additionalProperties" || !error.schemaPath) return "";
  const key = String(error.params.additionalProperty);
  const at = error.instancePath.split("/").slice(1).map((s) =>
    s.replaceAll("~1", "/").replaceAll("~0", "~")
  );
  const prefix = at.length > 0 ? at.join(".") + "." : "";
  const root = schema as SchemaNode;
  const node = nodeAt(root, error.schemaPath.replace(/^#\/?/, "").split("/").slice(0, -1));
  const here = Object.keys(node?.properties ?? {}).filter((k) => k !== "$schema");
  const near = closestNames(key, here).map((k) => prefix + k);
  const named = near.length > 0 ? near : elsewhere(key, root).filter((p) => p !== prefix + key);
  if (named.length === 0) return "";
  const shown = named.slice(0, MAX_NAMED).map((k) => JSON.stringify(k));
  return ` (did you mean ${shown.length === 1 ? shown[0] : `one of ${shown.join(", ")}`}?)`;
}

/** The schema node at a JSON Pointer's segments, or `undefined`. */
function nodeAt(schema: SchemaNode, segments: readonly string[]): SchemaNode | undefined {
  let node: unknown = schema;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return typeof node === "object" && node !== null ? node as SchemaNode : undefined;
}

/** Full paths of the keys anywhere in the config named `key` or near it (exact names first). */
function elsewhere(key: string, schema: SchemaNode): string[] {
  const paths = keyPaths(schema, "");
  const last = (p: string) => p.slice(p.lastIndexOf(".") + 1);
  const exact = paths.filter((p) => last(p) === key);
  if (exact.length > 0) return exact;
  const names = closestNames(key, [...new Set(paths.map(last))]);
  return paths.filter((p) => names.includes(last(p)));
}

/** Every key path of the schema, `budgets.total_bytes`, in schema order (list items skipped). */
function keyPaths(node: SchemaNode, prefix: string): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([k, child]) =>
    k === "$schema" ? [] : [prefix + k, ...keyPaths(child, `${prefix}${k}.`)]
  );
}
