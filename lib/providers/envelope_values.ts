/**
 * Small readers the provider adapters share (pure): telling a JSON object from other values, a
 * finite number from anything else, and cutting a CLI's stream to an excerpt for an error message.
 * The adapters (claude.ts, codex.ts, vibe.ts) read different envelopes with the same care.
 *
 * @module
 */

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/**
 * Whether a parsed JSON value is an object (not `null`, not an array).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isObject({ a: 1 }), true);
 * assert.equal(isObject([1]), false);
 * ```
 */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A finite number, or `undefined` for anything else (a string, `NaN`, `Infinity`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(num(3), 3);
 * assert.equal(num("3"), undefined);
 * ```
 */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * A stream's text for an error message, at most about `maxChars` characters: whole when short;
 * otherwise stack-frame lines (`    at …`) are left out first (with a count), then the middle is cut,
 * keeping the start — where a CLI's uncaught error prints its message — and the end.
 *
 * @param text stdout or stderr
 * @param maxChars how much to keep (characters), default 600
 * @returns the trimmed excerpt; `…` marks what was cut
 */
export function excerptOf(text: string, maxChars = 600): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed;
  const lines = trimmed.split("\n");
  const frames = lines.filter((line) => /^\s+at\s/.test(line)).length;
  const kept = frames === 0
    ? trimmed
    : `${
      lines.filter((line) => !/^\s+at\s/.test(line)).join("\n").trim()
    } (${frames} stack lines left out)`;
  if (kept.length <= maxChars) return kept;
  const half = Math.floor(maxChars / 2);
  return `${kept.slice(0, half).trimEnd()} … ${kept.slice(-half).trimStart()}`;
}
