/**
 * Answer-kind registry: maps each {@link AnswerKind} to its canonical JSON Schema in `schemas/`.
 * Schemas are embedded through JSON imports so a compiled binary carries them. This module never
 * loads ajv (hook fast paths import it); validation lives in `validate.ts`, imported lazily.
 *
 * Adding a kind is one schema file plus one line in `SCHEMAS`.
 *
 * @module
 */

import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };
import type { AnswerKind, JsonSchema } from "./types.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const SCHEMAS: Readonly<Record<AnswerKind, JsonSchema>> = {
  review: deepFreeze(reviewSchema as JsonSchema),
};

/**
 * The canonical (Draft 2020-12) schema of an answer kind, deep-frozen: copy it before changing it
 * (`schemaDialect()` does).
 *
 * @param kind answer kind, e.g. `"review"`
 * @returns the schema object from `schemas/<kind>.schema.json`
 * @throws {Error} when the kind is unknown (a programming error)
 */
export function canonicalSchema(kind: AnswerKind): JsonSchema {
  const schema = SCHEMAS[kind];
  if (schema === undefined) {
    throw new Error(`Unknown answer kind "${kind}": use one of ${listKinds().join(", ")}`);
  }
  return schema;
}

/** Every registered answer kind, in registry order. */
export function listKinds(): AnswerKind[] {
  return Object.keys(SCHEMAS) as AnswerKind[];
}
