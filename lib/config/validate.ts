/**
 * Config validation through the ajv standalone validator generated from
 * `schemas/config.schema.json` (`deno task gen`), so loading config never loads ajv itself. The
 * validator (~66 KB of generated code) loads on the first non-empty value checked: a review with no
 * config file, no `REVIEW_GATE_*` setting and no policy flag never loads it (docs/design.md
 * "Performance notes": code loads where it is used).
 *
 * @module
 */

/** One error of an ajv validator (the fields the messages use). */
export interface AjvError {
  instancePath: string;
  /** Where in the schema the failed rule is, `#/properties/budgets/additionalProperties`. */
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Check a parsed config value against the config schema.
 *
 * @param value parsed JSON of one config layer
 * @returns problems like `gates.pre_push.on_error must be one of "allow", "block"`; empty when valid
 *   (an empty object is valid without loading the validator)
 */
export async function configProblems(value: unknown): Promise<string[]> {
  return (await configErrors(value)).map((error) => describeError(error, "the config"));
}

/**
 * {@linkcode configProblems} with a "did you mean" after each unknown key that is near a known
 * one (lib/config/key_hint.ts); the schema is loaded only when there is a problem.
 *
 * @param value parsed JSON of one config layer
 * @returns problems like `unknown key "on_eror" (did you mean "gates.pre_push.on_error"?)`
 */
export async function configProblemsWithHints(value: unknown): Promise<string[]> {
  const errors = await configErrors(value);
  if (errors.length === 0) return [];
  const [{ default: schema }, { unknownKeyHint }] = await Promise.all([
    import("../../schemas/config.schema.json", { with: { type: "json" } }),
    import("./key_hint.ts"),
  ]);
  return errors.map((error) => describeError(error, "the config") + unknownKeyHint(error, schema));
}

/** The config validator's errors for a value (none when valid). */
async function configErrors(value: unknown): Promise<AjvError[]> {
  // An empty layer (no flag given, the usual case) is valid: skip loading the whole validator.
  if (isEmptyObject(value)) return [];
  const { default: validateConfig } = await import("../generated/config_validator.js");
  if (validateConfig(value)) return [];
  return [...(validateConfig as unknown as { errors?: AjvError[] }).errors ?? []];
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
