/**
 * What the adapters of CLIs that take the schema in the prompt and print JSONL events share
 * (lib/providers/opencode/adapter.ts, lib/providers/copilot/adapter.ts; docs/providers.md): the
 * prompt with the schema text and the reply rule, reading stdout's events, naming stderr in an
 * error, and telling an answer text from an empty one. Pure; nothing here throws but
 * {@linkcode promptWithSchema}.
 *
 * @module
 */
import { dialectText } from "../answer/dialect.ts";
import type { SchemaDialect } from "../answer/types.ts";
import { excerptOf, isObject, type Json } from "./envelope_values.ts";
import type { Envelope, EnvelopeMeta, ProviderRequest } from "./provider.ts";

/**
 * The prompt on stdin: the review prompt, the schema text in the CLI's dialect and the reply rule.
 *
 * @param request prompt (the corrective one on a resume) and canonical schema
 * @param dialect the CLI's schema dialect (its adapter's meta)
 * @throws {SchemaDialectError} as `dialectText()` (lib/answer/dialect.ts)
 */
export function promptWithSchema(request: ProviderRequest, dialect: SchemaDialect): string {
  return [
    request.prompt.trimEnd(),
    "",
    "Your answer must be one JSON object matching this JSON Schema:",
    dialectText(request.schema, dialect).trim(),
    "",
    "Reply with the JSON object only.",
  ].join("\n");
}

/**
 * The JSON objects of stdout, one a line; other lines (not starting with `{`, not JSON, not an
 * object) are skipped.
 */
export function readJsonLines(stdout: string): Json[] {
  return stdout.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      const parsed: unknown = JSON.parse(line);
      return isObject(parsed) ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

/** `message`, with an excerpt of `stderr` after `; stderr: ` when it has any. */
export function withStderr(message: string, stderr: string): string {
  const tail = excerptOf(stderr);
  return tail === "" ? message : `${message}; stderr: ${tail}`;
}

/**
 * The envelope of a finished turn's text: an answer for the decoder to judge, or `refused` with
 * `problem` when the text is empty or whitespace.
 */
export function textAnswer(meta: EnvelopeMeta, text: string, problem: string): Envelope {
  if (text.trim() === "") return { ...meta, outcome: "refused", text: "", problem };
  return { ...meta, outcome: "answer", text };
}
