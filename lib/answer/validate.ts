/**
 * The run-time ajv wrapper: compiles JSON Schemas with Ajv2020 (strict, allErrors, verbose: the
 * options of lib/answer/ajv_options.ts), caches the compiled validators, and turns ajv errors into
 * {@link Refusal}s (lib/answer/ajv_refusal.ts).
 *
 * Loading ajv and compiling one schema costs ~200 ms (docs/design.md "Performance notes"). The
 * decoder uses the validator generated at build time for its kind (`DecoderKind.loadValidator`,
 * scripts/gen_validators.ts) and comes here only for a kind without one; tests use it to check the
 * generated validators against ajv itself. Callers load it with `await import("./validate.ts")`
 * inside the function that needs it — never at the top of a module the hook fast paths import.
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import type { JsonSchema, Refusal } from "./types.ts";
import { ANSWER_AJV_OPTIONS } from "./ajv_options.ts";
import { refusalsOf } from "./ajv_refusal.ts";

export { refusalFromAjvError } from "./ajv_refusal.ts";

let ajv: InstanceType<typeof Ajv2020> | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * Compile a schema (cached per schema object) with Ajv2020 in strict, allErrors mode (verbose, so
 * errors carry the offending value).
 *
 * @param schema a Draft 2020-12 schema; with `$id` it is registered under that id once
 * @returns ajv's validate function
 * @throws {Error} from ajv when the schema itself is invalid or breaks strict mode
 */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  ajv ??= new Ajv2020({ ...ANSWER_AJV_OPTIONS });
  const id = typeof schema.$id === "string" ? schema.$id : undefined;
  const existing = id === undefined ? undefined : ajv.getSchema(id);
  const validate = existing ?? ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/**
 * Validate a value against a schema.
 *
 * @param schema the schema (compiled and cached on first use)
 * @param value parsed JSON
 * @returns refusals, one per ajv error, in ajv's order; empty when the value is valid
 * @throws {Error} when the schema does not compile
 */
export function validateValue(schema: JsonSchema, value: unknown): Refusal[] {
  return refusalsOf(compileSchema(schema), value);
}
