/**
 * ajv's errors as refusals ({@link Refusal}: a JSON-pointer path and a readable problem), for a
 * validator generated at build time (scripts/gen_validators.ts) or compiled at run time
 * (lib/answer/validate.ts). Imports no ajv: the error shape is a type.
 *
 * @module
 */
import type { CompiledValidator, Refusal } from "./types.ts";

/** The fields of an ajv error object the refusals use (https://ajv.js.org/api.html#error-objects). */
export interface AjvErrorObject {
  /** JSON pointer of the value, "" for the whole document. */
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** The offending value (with the `verbose` option). */
  data?: unknown;
}

/**
 * Validate a value with a compiled validator.
 *
 * @param validate an ajv validate function (standalone or compiled), built with the options of
 *   lib/answer/ajv_options.ts
 * @param value parsed JSON
 * @returns refusals, one per ajv error, in ajv's order; empty when the value is valid
 */
export function refusalsOf(validate: CompiledValidator, value: unknown): Refusal[] {
  if (validate(value)) return [];
  return ((validate.errors ?? []) as AjvErrorObject[]).map(refusalFromAjvError);
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
export function refusalFromAjvError(error: AjvErrorObject): Refusal {
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
