/**
 * Schema dialects: the shapes a provider CLI may receive, derived from the canonical schema, never
 * hand-kept (docs/design.md "Answer schemas"). Each provider names its dialect in its folder's
 * `meta.ts` (lib/providers/registry.ts).
 *
 * - without-root-ids: for a CLI that compiles the schema with a draft-07 Ajv, which refuses a
 *   2020-12 `$schema` (Claude Code's `--json-schema`, docs/providers.md "Claude Code argv"): drop
 *   root `$schema` and `$id`.
 * - openai-strict: OpenAI strict mode (Codex's `--output-schema`, docs/providers.md "Codex strict
 *   mode"): also drop root `$schema`/`$id`; `minLength ≥ 1`
 *   becomes `pattern: "\\S"`, other `minLength`/`maxLength` are dropped (the decoder still enforces
 *   the canonical schema); the result is linted and must be clean. Descriptions are kept.
 * - canonical: the canonical schema as it is, for a CLI with no schema flag (Vibe: it goes into
 *   the prompt as text).
 *
 * Pure: no I/O, no ajv.
 *
 * @module
 */

import { lintCodexSchema } from "./codex_lint.ts";
import { type JsonSchema, SCHEMA_DIALECTS, type SchemaDialect } from "./types.ts";

/** The openai-strict dialect of a schema still breaks strict mode (a defect in the canonical schema). */
export class SchemaDialectError extends Error {
  /** One line per strict-mode problem, from `lintCodexSchema()`. */
  readonly problems: readonly string[];
  constructor(message: string, problems: readonly string[]) {
    super(message);
    this.name = "SchemaDialectError";
    this.problems = problems;
  }
}

function withoutRootIds(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema) as JsonSchema;
  delete copy.$schema;
  delete copy.$id;
  return copy;
}

const SCHEMA_MAPS = new Set([
  "properties",
  "$defs",
  "definitions",
  "patternProperties",
  "dependentSchemas",
]);
const SCHEMA_LISTS = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_VALUES = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);

function toStrict(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === "maxLength") continue;
    if (key === "minLength") {
      if (typeof child === "number" && child >= 1 && !("pattern" in node)) out.pattern = "\\S";
      continue;
    }
    if (SCHEMA_MAPS.has(key) && isSchema(child)) {
      out[key] = Object.fromEntries(
        Object.entries(child).map(([name, sub]) => [name, isSchema(sub) ? toStrict(sub) : sub]),
      );
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(child)) {
      out[key] = child.map((sub) => isSchema(sub) ? toStrict(sub) : sub);
    } else if (SCHEMA_VALUES.has(key) && isSchema(child)) {
      out[key] = toStrict(child);
    } else {
      out[key] = structuredClone(child);
    }
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Derive the schema a provider receives.
 *
 * @param schema canonical Draft 2020-12 schema (not modified)
 * @param dialect `"without-root-ids"` (no root `$schema`/`$id`), `"openai-strict"` (strict mode) or
 *   `"canonical"` (the canonical schema, copied)
 * @returns a fresh schema object
 * @throws {SchemaDialectError} when the openai-strict dialect still breaks strict mode
 */
export function schemaDialect(schema: JsonSchema, dialect: SchemaDialect): JsonSchema {
  switch (dialect) {
    case "without-root-ids":
      return withoutRootIds(schema);
    case "openai-strict": {
      const strict = toStrict(withoutRootIds(schema));
      const problems = lintCodexSchema(strict);
      if (problems.length > 0) {
        const name = typeof schema.$id === "string" ? `"${schema.$id}"` : "the schema";
        throw new SchemaDialectError(
          `The Codex dialect of ${name} breaks OpenAI strict mode: ${
            problems.join("; ")
          }; fix the canonical schema`,
          problems,
        );
      }
      return strict;
    }
    case "canonical":
      return structuredClone(schema) as JsonSchema;
    default:
      throw new Error(
        `Unknown schema dialect "${dialect as string}": use ${SCHEMA_DIALECTS.join(", ")}`,
      );
  }
}

/**
 * The exact text a provider receives: the `--json-schema` argument (without-root-ids: Claude
 * Code), the `--output-schema` file content (openai-strict: Codex), or the schema block of the
 * prompt (canonical: Vibe).
 *
 * @param schema canonical schema
 * @param dialect provider dialect
 * @returns compact JSON for without-root-ids (one argv element), 2-space indented JSON otherwise
 * @throws {SchemaDialectError} as `schemaDialect()`
 */
export function dialectText(schema: JsonSchema, dialect: SchemaDialect): string {
  const derived = schemaDialect(schema, dialect);
  return dialect === "without-root-ids"
    ? JSON.stringify(derived)
    : JSON.stringify(derived, null, 2);
}
