/**
 * Reading one case's `case.json` (schemas/eval_case.schema.json, docs/eval.md "The suite format"),
 * checked by the validator generated from the schema (`deno task gen`) and then for what a schema
 * cannot say (a defect's `line_end` before its `line_start`). Every problem names the file.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { type AjvError, describeError } from "../config/validate.ts";
import type { CaseFile } from "./types.ts";

/**
 * Parse and check the text of a `case.json`.
 *
 * @param text the file's content (a leading BOM is dropped)
 * @param label the file as the message names it (`eval-suite/ts/off-by-one/case.json`)
 * @returns the case file
 * @throws {UsageError} for text that is not JSON, does not fit the schema, or has a defect whose
 *   range ends before it starts (exit 2: the suite is wrong, nothing was asked)
 */
export async function parseCaseFile(text: string, label: string): Promise<CaseFile> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UsageError(`Invalid ${label}: not JSON (${(error as Error).message})`);
  }
  const { default: validate } = await import("../generated/eval_case_validator.js");
  if (!validate(value)) {
    const errors = (validate as unknown as { errors?: AjvError[] }).errors ?? [];
    const problems = errors.slice(0, 5).map((e) => describeError(e, "the file"));
    throw new UsageError(
      `Invalid ${label}: ${problems.join("; ")} (see \`review-gate schema eval-case\`)`,
    );
  }
  const file = value as CaseFile;
  if ("defects" in file.oracle) {
    for (const [i, defect] of file.oracle.defects.entries()) {
      if (defect.line_end < defect.line_start) {
        throw new UsageError(
          `Invalid ${label}: "oracle.defects.${i}" ends at line ${defect.line_end}, before its line_start ${defect.line_start}`,
        );
      }
    }
  }
  return file;
}
