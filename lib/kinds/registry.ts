/**
 * Answer-kind registry (docs/design.md "Review kinds"): one line per kind, mapping its name to the
 * kind's definition in its own folder (lib/kinds/definition.ts: schema, decoder kind, prompt,
 * policy, stored files, command-line input, renderers). Schemas are embedded through JSON imports
 * so a compiled binary carries them; each kind's definition loads when a run of it is asked for or
 * shown. This module never loads ajv (hook fast paths import it);
 * validation lives in lib/answer/validate.ts, imported lazily by the decoder.
 *
 * Adding a kind is one folder (`kinds/<name>/` with its `definition.ts`, and
 * `schemas/<name>.schema.json`) plus one line in `KINDS`.
 *
 * @module
 */

import type { JsonSchema } from "../answer/types.ts";
import type { KindDefinition } from "./definition.ts";
import { KIND_NAMES, type KindName } from "./names.ts";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Every kind's definition, loaded when a run of that kind is asked for or shown: a review never
 * loads the compliance kind (docs/design.md "Performance notes": code loads where it is used).
 */
const KINDS: Record<KindName, () => Promise<KindDefinition>> = {
  review: async () => (await import("./review/definition.ts")).reviewDefinition,
  compliance: async () => (await import("./compliance/definition.ts")).complianceDefinition,
};

/** The answer kinds review-gate asks providers for; each has one canonical schema in `schemas/`. */
export type AnswerKind = KindName;

/**
 * The definition of an answer kind, its module loaded. Every caller shares its schema object,
 * deep-frozen: none may change it in place.
 *
 * @param kind answer kind, e.g. `"review"`
 * @throws {Error} (rejects) when the kind is unknown (a programming error)
 */
export async function getKind(kind: AnswerKind): Promise<KindDefinition> {
  if (!isAnswerKind(kind)) {
    throw new Error(`Unknown answer kind "${kind}": use one of ${listKinds().join(", ")}`);
  }
  const definition = await KINDS[kind]();
  deepFreeze(definition.schema);
  return definition;
}

/**
 * The canonical (Draft 2020-12) schema of an answer kind, deep-frozen: copy it before changing it
 * (`schemaDialect()` does).
 *
 * @param kind answer kind, e.g. `"review"`
 * @returns the schema object from `schemas/<kind>.schema.json`
 * @throws {Error} (rejects) when the kind is unknown (a programming error)
 */
export async function canonicalSchema(kind: AnswerKind): Promise<JsonSchema> {
  return (await getKind(kind)).schema;
}

/** Every registered answer kind, in registry order. */
export function listKinds(): AnswerKind[] {
  return [...KIND_NAMES];
}

/** True for a registered kind name. */
export function isAnswerKind(name: string | undefined): name is AnswerKind {
  return name !== undefined && Object.hasOwn(KINDS, name);
}

/**
 * The definition of the kind a run record names (`answerKind`; records from before kinds existed
 * have none and are reviews), its module loaded.
 *
 * @param name the record's `answerKind`
 * @returns the definition, or `undefined` for a name this version does not know
 */
export async function kindOfRecord(name: string | undefined): Promise<KindDefinition | undefined> {
  if (name === undefined) return await getKind("review");
  return isAnswerKind(name) ? await getKind(name) : undefined;
}
