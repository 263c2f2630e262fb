/**
 * The decoder, the only judge of an answer (docs/design.md "Decoder", contract):
 * 1. parse the whole text as JSON (a whole-message fence is unwrapped and noted; no bracket
 *    repair), or take an already-parsed value (Claude's `structured_output`);
 * 2. validate with ajv (Ajv2020, strict, allErrors) against the kind's canonical schema — the
 *    kind's validator generated at build time (no schema is compiled at run time), or ajv itself
 *    for a kind without one;
 * 3. check coherence for the kind against the reviewed tree (the kind's own step: lib/kinds/).
 * An answer nested deeper than {@linkcode MAX_ANSWER_DEPTH} levels is refused first, before any
 * recursive step (parse, duplicate keys, ajv) can overflow the stack.
 * Text with a duplicate key in any object is refused after parsing (`JSON.parse` would silently keep
 * the last one). The kind is a parameter ({@linkcode DecoderKind}): this room never imports the
 * kinds. A refusal lists at most
 * {@linkcode MAX_REFUSAL_LINES} problems plus one line counting the rest.
 * Same outcome whichever provider answered. Validators are loaded lazily (`await import`) so
 * modules that import the decoder stay cheap on hook fast paths.
 *
 * @module
 */

import { depthRefusal, textDepth, valueDepth } from "./depth.ts";
import { findDuplicateKeys } from "./duplicate_keys.ts";
import { parseAnswerText } from "./parse_text.ts";
import { capRefusal } from "./refusal.ts";
import { refusalsOf } from "./ajv_refusal.ts";
import type { Decision, DecoderKind, TreeView } from "./types.ts";

export { MAX_ANSWER_DEPTH } from "./depth.ts";

/** Most problems one refusal lists; the rest are counted in one extra line. */
export const MAX_REFUSAL_LINES = 20;

/** What the decoder judges: the provider's answer text, or a value the provider already parsed. */
export type DecoderInput = { text: string } | { value: unknown };

/**
 * Judge one answer.
 *
 * @param kind the answer kind (lib/kinds/registry.ts): its schema and coherence checks
 * @param input `{text}` — Codex last agent message, Vibe last assistant content, Claude `result`;
 *   or `{value}` — Claude's `structured_output` (docs/providers.md "Claude Code result envelope")
 * @param tree the reviewed tree, for file presence and line counts
 * @returns `{ok: true, answer, notes}` with repo-relative file paths, or `{ok: false, refusal}`
 *   listing the problems (JSON-pointer paths; "" = the whole answer; at most
 *   {@linkcode MAX_REFUSAL_LINES} plus a line counting the rest). Parse failures and duplicate keys
 *   stop before ajv; ajv failures stop before the kind's coherence step.
 * @throws {Error} only on programming errors (a schema that does not compile)
 */
export async function decode<T>(
  kind: DecoderKind<T>,
  input: DecoderInput,
  tree: TreeView,
): Promise<Decision<T>> {
  const decision = await judge(kind, input, tree);
  return decision.ok
    ? decision
    : { ok: false, refusal: capRefusal(decision.refusal, MAX_REFUSAL_LINES) };
}

async function judge<T>(
  kind: DecoderKind<T>,
  input: DecoderInput,
  tree: TreeView,
): Promise<Decision<T>> {
  let value: unknown;
  const notes: string[] = [];
  const deep = depthRefusal("text" in input ? textDepth(input.text) : valueDepth(input.value));
  if (deep.length > 0) return { ok: false, refusal: deep };
  if ("text" in input) {
    const parsed = parseAnswerText(input.text);
    if (!parsed.ok) return parsed;
    const duplicates = await findDuplicateKeys(parsed.body);
    if (duplicates.length > 0) return { ok: false, refusal: duplicates };
    value = parsed.value;
    notes.push(...parsed.notes);
  } else {
    value = input.value;
  }
  const schemaRefusal = kind.loadValidator
    ? refusalsOf(await kind.loadValidator(), value)
    : (await import("./validate.ts")).validateValue(kind.schema, value);
  if (schemaRefusal.length > 0) return { ok: false, refusal: schemaRefusal };
  const checked = await kind.check(value, tree);
  if (checked.refusal.length > 0) return { ok: false, refusal: checked.refusal };
  return { ok: true, answer: checked.answer, notes: [...notes, ...checked.notes] };
}
