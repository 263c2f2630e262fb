/**
 * The decoder, the only judge of an answer (DESIGN.md "Decoder: the only judge", contract):
 * 1. parse the whole text as JSON (a whole-message fence is unwrapped and noted; no bracket
 *    repair), or take an already-parsed value (Claude's `structured_output`);
 * 2. validate with ajv (Ajv2020, strict, allErrors) against the kind's canonical schema;
 * 3. check coherence for the kind against the reviewed tree.
 * Same outcome whichever provider answered. ajv is loaded lazily (`await import`) so modules that
 * import the decoder stay cheap on hook fast paths.
 *
 * @module
 */

import { parseAnswerText } from "./parse_text.ts";
import { canonicalSchema } from "./registry.ts";
import { checkReviewCoherence } from "./review_coherence.ts";
import type { AnswerKind, Decision, ReviewAnswer, TreeView } from "./types.ts";

/** What the decoder judges: the provider's answer text, or a value the provider already parsed. */
export type DecoderInput = { text: string } | { value: unknown };

/**
 * Judge one answer.
 *
 * @param kind answer kind (selects the schema and the coherence checks)
 * @param input `{text}` — Codex last agent message, Vibe last assistant content, Claude `result`;
 *   or `{value}` — Claude's `structured_output` (PROVIDERS.md "Claude Code")
 * @param tree the reviewed tree, for file presence and line counts
 * @returns `{ok: true, answer, notes}` with repo-relative file paths, or `{ok: false, refusal}`
 *   listing every problem (JSON-pointer paths; "" = the whole answer). Parse failures stop before
 *   ajv; ajv failures stop before coherence.
 * @throws {Error} only on programming errors (unknown kind, a schema that does not compile)
 */
export async function decode(
  kind: AnswerKind,
  input: DecoderInput,
  tree: TreeView,
): Promise<Decision> {
  let value: unknown;
  const notes: string[] = [];
  if ("text" in input) {
    const parsed = parseAnswerText(input.text);
    if (!parsed.ok) return parsed;
    value = parsed.value;
    notes.push(...parsed.notes);
  } else {
    value = input.value;
  }
  const { validateValue } = await import("./validate.ts");
  const schemaRefusal = validateValue(canonicalSchema(kind), value);
  if (schemaRefusal.length > 0) return { ok: false, refusal: schemaRefusal };
  switch (kind) {
    case "review": {
      const coherence = await checkReviewCoherence(value as ReviewAnswer, tree);
      if (coherence.refusal.length > 0) return { ok: false, refusal: coherence.refusal };
      return { ok: true, answer: coherence.answer, notes: [...notes, ...coherence.notes] };
    }
    default:
      throw new Error(`No coherence checks for answer kind "${kind as string}"`);
  }
}
