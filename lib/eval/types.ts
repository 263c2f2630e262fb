/**
 * The shapes of an eval suite (docs/eval.md "The suite format"): a case's `case.json`
 * (schemas/eval_case.schema.json) and a case as loaded from its folder.
 *
 * @module
 */
import type { Severity } from "../kinds/review/types.ts";

/** One planted defect of a case's oracle: where it is after the change, and how severe a finding of it must be. */
export interface Defect {
  /** Path relative to the case's tree root, `/`-separated. */
  file: string;
  /** 1-based first line, in the file after the change. */
  line_start: number;
  /** 1-based last line, ≥ line_start. */
  line_end: number;
  /** The least severity of a finding that counts as catching the defect. */
  min_severity: Severity;
}

/** What a review of a case must say: planted defects, or a clean change that must not block. */
export type Oracle = { clean: true } | { defects: Defect[] };

/** `case.json` (schemas/eval_case.schema.json). */
export interface CaseFile {
  title: string;
  description?: string;
  language: string;
  kind: string;
  oracle: Oracle;
}

/** How a case's change is given: the whole tree after it, or a patch applied to its base. */
export type CaseChange = { form: "after"; dir: string } | { form: "patch"; file: string };

/** One case of a suite, as loaded from its folder. */
export interface EvalCase {
  /** The folder's path relative to the suite, `/`-separated: `ts/off-by-one`. */
  id: string;
  /** Absolute path of the case's folder. */
  dir: string;
  title: string;
  description?: string;
  language: string;
  kind: string;
  /** True for a clean change (the oracle says `clean`). */
  clean: boolean;
  /** The planted defects (empty for a clean case). */
  defects: Defect[];
  /** Absolute path of `base/`, the tree before the change. */
  base: string;
  change: CaseChange;
}

/** A suite: its folder and the cases chosen from it, in id order. */
export interface EvalSuite {
  /** Absolute path of the suite's folder. */
  dir: string;
  cases: EvalCase[];
  /** Cases in the folder before `--cases` chose among them. */
  total: number;
}
