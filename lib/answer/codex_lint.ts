/**
 * Lint a schema against OpenAI structured-outputs strict mode, which Codex uses for
 * `--output-schema` (docs/providers.md "Codex strict mode"). A violating schema fails the Codex
 * turn with "Invalid schema for response_format", so the session lints the Codex dialect before
 * spawning and tests lint the dialect of every answer schema.
 *
 * Pure: no I/O, no ajv.
 *
 * @module
 */

import type { JsonSchema } from "./types.ts";

/**
 * Keywords strict mode rejects, with what to use instead (docs/providers.md "Codex strict mode",
 * OpenAI docs).
 */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  minLength: 'use "pattern": "\\\\S" for non-empty strings',
  maxLength: "drop it and check the length in the decoder",
  allOf: "merge the subschemas",
  not: "drop it and check it in the decoder",
  if: "drop it and check it in the decoder",
  then: "drop it and check it in the decoder",
  else: "drop it and check it in the decoder",
  oneOf: "use anyOf",
  dependentSchemas: "drop it and check it in the decoder",
  dependentRequired: "drop it and check it in the decoder",
  dependencies: "drop it and check it in the decoder",
  uniqueItems: "drop it and check it in the decoder",
  patternProperties: "list the properties",
  propertyNames: "list the properties",
  minProperties: "list the properties",
  maxProperties: "list the properties",
  unevaluatedProperties: 'use "additionalProperties": false',
  unevaluatedItems: "drop it",
  contains: "drop it and check it in the decoder",
  minContains: "drop it",
  maxContains: "drop it",
  prefixItems: "use items",
};

/** `format` values strict mode accepts. */
export const CODEX_FORMATS: readonly string[] = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
];

/** Strict-mode limits (docs/providers.md "Codex strict mode"). */
export const CODEX_LIMITS = { nesting: 10, properties: 5000, enumValues: 1000 } as const;

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function pointer(base: string, ...keys: (string | number)[]): string {
  return base +
    keys.map((k) => "/" + String(k).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

function isObjectSchema(schema: JsonSchema): boolean {
  const type = schema.type;
  return type === "object" || (Array.isArray(type) && type.includes("object")) ||
    isSchema(schema.properties);
}

/**
 * Find every strict-mode violation in a schema (the Codex dialect, i.e. after `schemaDialect()`).
 *
 * Checks: root is an object schema and not `anyOf`; every object has `additionalProperties: false`
 * and lists every property in `required`; no unsupported keyword (minLength, maxLength, allOf, not,
 * if/then/else, oneOf, dependent*, uniqueItems, patternProperties, min/maxProperties, …); `format`
 * only from {@link CODEX_FORMATS}; at most 10 levels of object nesting, 5000 properties and 1000
 * enum values in total.
 *
 * @param schema a JSON Schema object
 * @returns one line per problem, starting with the schema location as a JSON pointer ("" = root);
 *   empty when the schema is acceptable
 */
export function lintCodexSchema(schema: JsonSchema): string[] {
  const problems: string[] = [];
  const totals = { properties: 0, enumValues: 0, deepest: 0 };
  if (Array.isArray(schema.anyOf)) problems.push("(root): must not be anyOf, wrap it in an object");
  if (schema.type !== "object") problems.push('(root): must have "type": "object"');
  lintNode(schema, "", 0, problems, totals);
  if (totals.deepest > CODEX_LIMITS.nesting) {
    problems.push(
      `(root): ${totals.deepest} levels of object nesting, at most ${CODEX_LIMITS.nesting} allowed`,
    );
  }
  if (totals.properties > CODEX_LIMITS.properties) {
    problems.push(
      `(root): ${totals.properties} properties, at most ${CODEX_LIMITS.properties} allowed`,
    );
  }
  if (totals.enumValues > CODEX_LIMITS.enumValues) {
    problems.push(
      `(root): ${totals.enumValues} enum values, at most ${CODEX_LIMITS.enumValues} allowed`,
    );
  }
  return problems;
}

function lintNode(
  node: JsonSchema,
  at: string,
  depth: number,
  problems: string[],
  totals: { properties: number; enumValues: number; deepest: number },
): void {
  const where = at === "" ? "(root)" : at;
  for (const [keyword, instead] of Object.entries(UNSUPPORTED)) {
    if (keyword in node) {
      problems.push(`${where}: "${keyword}" is not supported in strict mode, ${instead}`);
    }
  }
  if (typeof node.format === "string" && !CODEX_FORMATS.includes(node.format)) {
    problems.push(
      `${where}: format "${node.format}" is not supported, use one of ${CODEX_FORMATS.join(", ")}`,
    );
  }
  if (Array.isArray(node.enum)) totals.enumValues += node.enum.length;
  let childDepth = depth;
  if (isObjectSchema(node)) {
    childDepth = depth + 1;
    totals.deepest = Math.max(totals.deepest, childDepth);
    if (node.additionalProperties !== false) {
      problems.push(`${where}: object must have "additionalProperties": false`);
    }
    const properties = isSchema(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    for (const key of Object.keys(properties)) {
      totals.properties += 1;
      if (!required.includes(key)) {
        problems.push(
          `${where}: property "${key}" must be listed in "required" (make it nullable instead)`,
        );
      }
    }
    for (const [key, child] of Object.entries(properties)) {
      if (isSchema(child)) {
        lintNode(child, pointer(at, "properties", key), childDepth, problems, totals);
      }
    }
  }
  if (isSchema(node.items)) {
    lintNode(node.items, pointer(at, "items"), childDepth, problems, totals);
  }
  if (isSchema(node.additionalProperties)) {
    lintNode(
      node.additionalProperties,
      pointer(at, "additionalProperties"),
      childDepth,
      problems,
      totals,
    );
  }
  if (Array.isArray(node.anyOf)) {
    node.anyOf.forEach((child, i) => {
      if (isSchema(child)) lintNode(child, pointer(at, "anyOf", i), childDepth, problems, totals);
    });
  }
  for (const defsKey of ["$defs", "definitions"]) {
    const defs = node[defsKey];
    if (isSchema(defs)) {
      for (const [key, child] of Object.entries(defs)) {
        if (isSchema(child)) lintNode(child, pointer(at, defsKey, key), depth, problems, totals);
      }
    }
  }
}
