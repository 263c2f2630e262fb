/**
 * The ajv wrapper: compiles JSON Schemas with Ajv2020 (strict, allErrors), caches the compiled
 * validators, and turns ajv errors into {@link Refusal}s with JSON-pointer paths and readable
 * problems.
 *
 * Loading ajv and compiling one schema costs ~200 ms (DESIGN.md "Performance notes"), so this is
 * the only module that imports ajv, and callers load it with `await import("./validate.ts")` inside
 * the function that needs it — never at the top of a module the hook fast paths import.
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema, Refusal } from "./types.ts";

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
  ajv ??= new Ajv2020({ strict: true, allErrors: true, verbose: true });
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
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(refusalFromAjvError);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  }
  return `${typeof value} ${String(value)}`;
}

/**
 * Turn one ajv error into a refusal. Key problems (missing or unexpected key) are reported at the
 * object's path; value problems at the value's path.
 *
 * @param error an ajv `ErrorObject` (https://ajv.js.org/api.html#error-objects)
 * @returns `{path, problem}`, problem in sentence case without a final period
 */
export function refusalFromAjvError(error: ErrorObject): Refusal {
  const path = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path, problem: `missing required key "${params.missingProperty}"` };
    case "additionalProperties":
      return { path, problem: `unexpected key "${params.additionalProperty}"` };
    case "type":
      return { path, problem: `must be ${params.type}, got ${describe(error.data)}` };
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
      return { path, problem: `must be one of ${allowed}, got ${describe(error.data)}` };
    }
    case "minLength":
      if (params.limit === 1) return { path, problem: "must not be empty" };
      break;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return {
        path,
        problem: `${error.message ?? "is out of range"}, got ${describe(error.data)}`,
      };
  }
  return { path, problem: error.message ?? `fails "${error.keyword}"` };
}
