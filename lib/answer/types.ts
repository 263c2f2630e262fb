/**
 * Shapes shared by the decoder and its callers: answer kinds, the review answer, refusals, and the
 * view of the reviewed tree that coherence checks consult.
 *
 * @module
 */

/** The answer kinds review-gate asks providers for; each has one canonical schema in `schemas/`. */
export type AnswerKind = "review";

/** Finding severities, most severe first (schemas/review.schema.json). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
/** One finding severity. */
export type Severity = typeof SEVERITIES[number];

/** One finding of a review answer (schemas/review.schema.json). */
export interface Finding {
  severity: Severity;
  title: string;
  body: string;
  /** Repo-relative path, normalised by the decoder. */
  file: string;
  /** 1-based first line. */
  line_start: number;
  /** 1-based last line, ≥ line_start. */
  line_end: number;
  /** 0..1 */
  confidence: number;
  recommendation: string;
}

/** The review answer (schemas/review.schema.json). */
export interface ReviewAnswer {
  verdict: "approve" | "needs-attention";
  summary: string;
  findings: Finding[];
  next_steps: string[];
}

/** One reason the decoder refused an answer: a JSON pointer-ish path and what is wrong there. */
export interface Refusal {
  /** Where: "" for the whole answer, "/findings/0/line_end" for a field. */
  path: string;
  /** What is wrong, one sentence, no final period. */
  problem: string;
}

/**
 * The reviewed tree as coherence checks see it. For a worktree review it is the worktree; for a
 * commit or push review it is that commit's tree.
 */
export interface TreeView {
  /** Absolute path of the repository root (worktree top level), no trailing slash. */
  readonly root: string;
  /**
   * Line count of a repo-relative file in the reviewed tree, or `null` when the file is not in it.
   * A file whose last line has no newline still counts that line.
   */
  lineCount(path: string): Promise<number | null>;
  /** True when the change deletes this repo-relative path (findings may point at deleted files). */
  isDeleted(path: string): boolean;
}

/** The decoder's verdict on one answer. */
export type Decision<T = ReviewAnswer> =
  | {
    ok: true;
    answer: T;
    /** Notes on what the decoder normalised, e.g. "unwrapped a ```json fence", "stripped ./ from /findings/0/file". */
    notes: string[];
  }
  | { ok: false; refusal: Refusal[] };

/** A JSON Schema document or subschema, as plain JSON data. */
export type JsonSchema = { [key: string]: unknown };

/** The schema shapes providers receive (PROVIDERS.md): Claude `--json-schema`, Codex `--output-schema`, Vibe prompt text. */
export type SchemaDialect = "claude" | "codex" | "vibe";
