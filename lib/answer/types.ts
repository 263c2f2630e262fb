/**
 * Shapes shared by the decoder and its callers: refusals, the decoder's decision, the view of the
 * reviewed tree that coherence checks consult, and what the decoder needs of an answer kind
 * ({@linkcode DecoderKind}). Generic: the kinds themselves (their answers, schemas and coherence)
 * live in lib/kinds/, which this room never imports.
 *
 * @module
 */

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
  /**
   * Text (UTF-8) of a repo-relative file in the reviewed tree, or `null` when the file is not in
   * it. Read afresh on every call (not cached): for fingerprints, once per file of a finding.
   */
  text(path: string): Promise<string | null>;
  /** True when the change deletes this repo-relative path (findings may point at deleted files). */
  isDeleted(path: string): boolean;
  /**
   * The lines of a repo-relative file that the change added or edited, in the file as changed:
   * sorted, disjoint, 1-based inclusive ranges (a pure deletion counts as the lines on either side
   * of it). `[]` when the change leaves the file's lines alone (a file outside the change); `null`
   * when it is not known (no change at hand, a binary file, a file changed without hunks such as a
   * pure rename): then scope checks are skipped for it.
   */
  changedLines(path: string): readonly LineRange[] | null;
}

/** A range of lines of one file: 1-based, inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** The decoder's verdict on one answer. */
export type Decision<T = unknown> =
  | {
    ok: true;
    answer: T;
    /** Notes on what the decoder normalised, e.g. "unwrapped a ```json fence", "stripped ./ from /findings/0/file". */
    notes: string[];
  }
  | { ok: false; refusal: Refusal[] };

/** A JSON Schema document or subschema, as plain JSON data. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The schema shapes providers receive (lib/answer/dialect.ts, docs/providers.md): without root
 * `$schema`/`$id` (Claude Code's `--json-schema`), OpenAI strict mode (Codex's `--output-schema`),
 * or the canonical schema (Vibe's prompt text).
 */
export const SCHEMA_DIALECTS = ["without-root-ids", "openai-strict", "canonical"] as const;

/** One of {@linkcode SCHEMA_DIALECTS}. */
export type SchemaDialect = typeof SCHEMA_DIALECTS[number];

/** What a kind's coherence step found: the normalised answer, notes, refusals. */
export interface KindCheck<T> {
  /** A copy of the schema-valid answer, normalised (e.g. repo-relative paths). */
  answer: T;
  /** What was normalised, one line each. */
  notes: string[];
  /** Every incoherence found; empty when the answer is coherent. */
  refusal: Refusal[];
}

/**
 * A compiled JSON Schema validator (ajv's validate function: standalone or compiled at run time):
 * true when the value is valid, else false with `errors` set.
 */
export type CompiledValidator = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/**
 * What the decoder needs of an answer kind: its name, canonical schema (step 2) and coherence check
 * (step 3). A kind's definition (lib/kinds/definition.ts) builds one per review, bound to the
 * kind's input when it has one (compliance: the plan).
 */
export interface DecoderKind<T> {
  /** The kind's name, e.g. `"review"` (`schemas/<name>.schema.json`). */
  readonly name: string;
  /** The canonical Draft 2020-12 schema, deep-frozen. */
  readonly schema: JsonSchema;
  /**
   * Step 2 without compiling: load the ajv standalone validator generated at build time from
   * exactly {@linkcode schema} (scripts/gen_validators.ts). Without it the decoder compiles the
   * schema with ajv at run time (slow: for a kind whose schema is built at run time).
   */
  loadValidator?(): Promise<CompiledValidator>;
  /**
   * Step 3: check a value that passed the schema against the reviewed tree.
   *
   * @param value a schema-valid answer (not modified)
   * @param tree the reviewed tree
   */
  check(value: unknown, tree: TreeView): Promise<KindCheck<T>>;
}
