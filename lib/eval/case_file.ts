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
      const problem = treePathProblem(defect.file);
      if (problem) {
        throw new UsageError(
          `Invalid ${label}: "oracle.defects.${i}.file" ${problem}: it must be a path inside the case's tree, relative to its root ("src/a.ts")`,
        );
      }
      if (defect.line_end < defect.line_start) {
        throw new UsageError(
          `Invalid ${label}: "oracle.defects.${i}" ends at line ${defect.line_end}, before its line_start ${defect.line_start}`,
        );
      }
    }
  }
  return file;
}

/**
 * Why a defect's file is not a plain path inside the case's tree, or `undefined` when it is one:
 * relative, `/`-separated, no `.`, `..` or empty segment, no `.git`, no backslash or control
 * character. Checked on the text alone — nothing is read — so an oracle naming
 * `../../etc/shadow` or `/dev/stdin` is refused before any file is opened.
 *
 * @param path the defect's `file`
 */
export function treePathProblem(path: string): string | undefined {
  if (path.startsWith("/")) return "is absolute";
  // deno-lint-ignore no-control-regex -- control characters are what is refused here
  if (/[\\\x00-\x1f\x7f]/.test(path)) return "holds a backslash or a control character";
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return 'has an empty, "." or ".." segment';
  }
  if (segments.some((s) => s.toLowerCase() === ".git")) return "is inside .git";
  return undefined;
}
