/**
 * Answer-kind registry (docs/design.md "Review kinds"): one line per kind, mapping its name to the
 * kind's definition in its own folder (lib/kinds/definition.ts: schema, decoder kind, prompt,
 * policy, stored files, command-line input, renderers). Schemas are embedded through JSON imports
 * so a compiled binary carries them. This module never loads ajv (hook fast paths import it);
 * validation lives in lib/answer/validate.ts, imported lazily by the decoder.
 *
 * Adding a kind is one folder (`kinds/<name>/` with its `definition.ts`, and
 * `schemas/<name>.schema.json`) plus one line in `KINDS`.
 *
 * @module
 */

import type { JsonSchema } from "../answer/types.ts";
import type { KindDefinition } from "./definition.ts";
import type { KindName } from "./names.ts";
import { complianceDefinition } from "./compliance/definition.ts";
import { reviewDefinition } from "./review/definition.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const KINDS = {
  review: reviewDefinition,
  compliance: complianceDefinition,
} as const satisfies Record<KindName, KindDefinition>;
// Every caller shares the schema objects: none may change them in place.
for (const kind of Object.values(KINDS)) deepFreeze(kind.schema);

/** The answer kinds review-gate asks providers for; each has one canonical schema in `schemas/`. */
export type AnswerKind = keyof typeof KINDS;

/**
 * The definition of an answer kind.
 *
 * @param kind answer kind, e.g. `"review"`
 * @throws {Error} when the kind is unknown (a programming error)
 */
export function getKind(kind: AnswerKind): KindDefinition {
  const found = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (found === undefined) {
    throw new Error(`Unknown answer kind "${kind}": use one of ${listKinds().join(", ")}`);
  }
  return found;
}

/**
 * The canonical (Draft 2020-12) schema of an answer kind, deep-frozen: copy it before changing it
 * (`schemaDialect()` does).
 *
 * @param kind answer kind, e.g. `"review"`
 * @returns the schema object from `schemas/<kind>.schema.json`
 * @throws {Error} when the kind is unknown (a programming error)
 */
export function canonicalSchema(kind: AnswerKind): JsonSchema {
  return getKind(kind).schema;
}

/** Every registered answer kind, in registry order. */
export function listKinds(): AnswerKind[] {
  return Object.keys(KINDS) as AnswerKind[];
}

/** True for a registered kind name. */
export function isAnswerKind(name: string | undefined): name is AnswerKind {
  return name !== undefined && Object.hasOwn(KINDS, name);
}

/**
 * The definition of the kind a run record names (`answerKind`; records from before kinds existed
 * have none and are reviews).
 *
 * @param name the record's `answerKind`
 * @returns the definition, or `undefined` for a name this version does not know
 */
export function kindOfRecord(name: string | undefined): KindDefinition | undefined {
  if (name === undefined) return KINDS.review;
  return isAnswerKind(name) ? KINDS[name] : undefined;
}
