/**
 * Validators of the official output schemas in this folder (README.md gives each one's source and
 * licence): SARIF 2.1.0 (draft-04, formats checked), reviewdog's rdjson / rdjsonl and GitLab's
 * `.gitlab-ci.yml` schema (draft-07). Tests only.
 *
 * @module
 */
import { Ajv as _AjvPeer } from "ajv"; // keeps ajv, the peer of both plugins, in the module graph
import ajvDraft04 from "ajv-draft-04";
import ajvFormats from "ajv-formats";

// Deno types a CJS default import as the module namespace: the class is its `.default`.
const Ajv04 = ajvDraft04.default;
const addFormats = ajvFormats.default;
void _AjvPeer;

const load = (name: string) => JSON.parse(Deno.readTextFileSync(new URL(name, import.meta.url)));

/** A compiled validator: `errors` holds ajv's errors after a `false`. */
export type Validate = ((value: unknown) => boolean) & { errors?: unknown[] | null };

let sarif: Validate | undefined;
let rd: { result: Validate; line: Validate } | undefined;

/** The validator of SARIF 2.1.0 (OASIS errata 01 schema, `uri` / `date-time` formats checked). */
export function sarifValidator(): Validate {
  if (!sarif) {
    const ajv = new Ajv04({ allErrors: true, strict: true, strictRequired: false });
    addFormats(ajv);
    sarif = ajv.compile(load("sarif-schema-2.1.0.json")) as Validate;
  }
  return sarif;
}

/** The validators of reviewdog's rdjson (`DiagnosticResult`) and rdjsonl line (`Diagnostic`). */
export function rdjsonValidators(): { result: Validate; line: Validate } {
  if (!rd) {
    const ajv = new Ajv04({ allErrors: true, strict: true, strictTypes: false });
    rd = {
      result: ajv.compile(load("rdjson-DiagnosticResult.json")) as Validate,
      line: new Ajv04({ allErrors: true, strict: true, strictTypes: false }).compile(
        load("rdjsonl-Diagnostic.json"),
      ) as Validate,
    };
  }
  return rd;
}

/**
 * Throw with ajv's errors when `value` does not fit.
 *
 * @param validate a validator from this module
 * @param value the document
 * @param what its name, for the message
 */
export function assertValid(validate: Validate, value: unknown, what: string): void {
  if (!validate(value)) {
    throw new Error(`${what} does not fit its schema: ${JSON.stringify(validate.errors, null, 2)}`);
  }
}

let gitlab: Validate | undefined;

/**
 * The validator of `.gitlab-ci.yml` files (GitLab's CI schema, draft-07, formats checked). The
 * schema's own extensions (`markdownDescription`) and its unions of types are GitLab's: ajv runs
 * with `strict: false` for them, as editors do (SchemaStore serves the same file).
 */
export function gitlabCiValidator(): Validate {
  if (!gitlab) {
    const ajv = new _AjvPeer({ allErrors: true, strict: false });
    addFormats(ajv);
    gitlab = ajv.compile(load("gitlab-ci.json")) as Validate;
  }
  return gitlab;
}
