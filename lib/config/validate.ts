/**
 * Config validation through the ajv standalone validator generated from
 * `schemas/config.schema.json` (`deno task gen`), so loading config never loads ajv itself.
 *
 * @module
 */
import validateConfig from "../generated/config_validator.js";

/** One error of an ajv validator (the fields the messages use). */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Check a parsed config value against the config schema.
 *
 * @param value parsed JSON of one config layer
 * @returns problems like `gates.pre_push.on_error must be one of "allow", "block"`; empty when valid
 */
export function configProblems(value: unknown): string[] {
  // An empty layer (no flag given, the usual case) is valid: skip compiling the whole validator.
  if (isEmptyObject(value)) return [];
  if (validateConfig(value)) return [];
  const errors = (validateConfig as unknown as { errors?: AjvError[] }).errors ?? [];
  return errors.map((error) => describeError(error, "the config"));
}

/** `{}`: a plain object with no key of its own. */
function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype && Reflect.ownKeys(value).length === 0;
}

/**
 * One ajv error as a line for people: `unknown key "a.b"`, `"a.b" must be one of …`.
 *
 * @param error the ajv error
 * @param whole what to call the document itself (e.g. "the config")
 */
export function describeError(error: AjvError, whole: string): string {
  const path = error.instancePath.split("/").slice(1).map((s) =>
    s.replaceAll("~1", "/").replaceAll("~0", "~")
  )
    .join(".");
  const at = path === "" ? whole : `"${path}"`;
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown key "${path === "" ? "" : path + "."}${error.params.additionalProperty}"`;
    case "enum":
      return `${at} must be one of ${
        (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    case "type":
      return `${at} must be ${
        error.params.type === "integer" ? "a whole number" : `a ${error.params.type}`
      }`;
    default:
      return `${at} ${error.message ?? "is invalid"}`;
  }
}
