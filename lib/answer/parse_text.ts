/**
 * Step 1 of the decoder (docs/design.md "Decoder"): parse the whole answer text as
 * JSON. A fence around the whole message (```json … ``` or bare ``` … ```) is unwrapped and
 * recorded. Never "first `{` to last `}`", never bracket repair of truncated JSON: a model that
 * wrapped prose around its JSON gets a refusal and one corrective resume. Pure.
 *
 * @module
 */

import type { Refusal } from "./types.ts";

/** Parsed answer text, or the refusal saying why it is not JSON. */
export type ParsedText =
  | { ok: true; value: unknown; notes: string[]; body: string }
  | { ok: false; refusal: Refusal[] };

const WHOLE_FENCE = /^```([A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;
const EXCERPT_CHARS = 60;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return JSON.stringify(flat.length > EXCERPT_CHARS ? flat.slice(0, EXCERPT_CHARS) + "…" : flat);
}

/**
 * Parse an answer text.
 *
 * @param text the provider's answer text (Codex last agent message, Vibe last assistant content,
 *   Claude `result` when no `structured_output` came back)
 * @returns the parsed value, the JSON text it came from (`body`, fence removed) and notes (e.g. "unwrapped a ```json fence around the whole answer"),
 *   or one refusal at path "" when the text is empty or not JSON (with an excerpt of its start)
 */
export function parseAnswerText(text: string): ParsedText {
  let body = text.trim();
  const notes: string[] = [];
  if (body === "") {
    return {
      ok: false,
      refusal: [{ path: "", problem: "the answer is empty: reply with the JSON object only" }],
    };
  }
  const fence = WHOLE_FENCE.exec(body);
  if (fence && (fence[1] === "" || fence[1].toLowerCase() === "json")) {
    body = fence[2].trim();
    notes.push(`unwrapped a \`\`\`${fence[1]} fence around the whole answer`);
  }
  try {
    return { ok: true, value: JSON.parse(body), notes, body };
  } catch (error) {
    const starts = body.startsWith("{") || body.startsWith("[");
    const reason = starts && error instanceof SyntaxError ? ` (${error.message})` : "";
    const what = starts ? "is not valid JSON" : "is not JSON";
    return {
      ok: false,
      refusal: [{
        path: "",
        problem: `the answer ${what}${reason}; it starts with ${
          excerpt(body)
        }: reply with the whole JSON object only, no prose or fences`,
      }],
    };
  }
}
