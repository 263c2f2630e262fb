/**
 * Sealed state: review-gate's own files that a gate decides from (cached verdicts, the verdict
 * memo, session records, anchors) carry an HMAC-SHA256 (Web Crypto) made with the user's key
 * (lib/store/state_key.ts), over the exact bytes of the value's JSON text and what the file is for
 * (`purpose`: its kind and name, so an entry moved to another key or session does not verify). The
 * file stays JSON:
 *
 * ```
 * {"review-gate sealed":1,"hmac":"<64 hex>","value":<the value's JSON text>}
 * ```
 *
 * An entry that does not verify — edited, truncated, copied from another key or purpose, or with
 * no trusted key to check it against — is absent to its reader, never a verdict, and the reader's
 * note on it is kept here ({@linkcode takeStateNotes}) for the gate's output to name.
 *
 * The hook scripts cannot run HMAC with the tools they may rely on (sh builtins and git), so what
 * they check uses {@linkcode gitTag} instead: git's blob id of `<secret>\n<text>`, which
 * `git hash-object --no-filters --stdin` computes. Git hashes `blob <length>\0` before the bytes,
 * so the length is fixed first and the tag cannot be extended; without the secret it cannot be
 * made.
 *
 * @module
 */
import { jsonPieces } from "../base/json_pieces.ts";
import { blobId } from "../git/blob_id.ts";
import { loadStateKey } from "./state_key.ts";

const encoder = new TextEncoder();
const PREFIX = '{"review-gate sealed":1,"hmac":"';
const ENVELOPE = /^\{"review-gate sealed":1,"hmac":"([0-9a-f]{64})","value":([\s\S]*)\}\n?$/;

/** What opening a sealed file gave. */
export type Opened =
  | { ok: true; value: unknown }
  | { ok: false; /** one phrase: why it did not verify */ why: string };

const notes = new Set<string>();

/**
 * The notes readers left about state that did not verify, since the last call (each once).
 *
 * @returns one sentence each, e.g. `review-gate: a cached verdict … did not verify (…) and was
 *   ignored`
 */
export function takeStateNotes(): string[] {
  const out = [...notes];
  notes.clear();
  return out;
}

/**
 * Record that an entry did not verify, for {@linkcode takeStateNotes}.
 *
 * @param what what the entry is, e.g. "a cached verdict for this change (cache/<key>.json)"
 * @param why from {@linkcode openSealed}
 * @param then what the reader does instead (default "it was ignored")
 */
export function noteUnverified(what: string, why: string, then = "it was ignored"): void {
  notes.add(`review-gate: ${what} did not verify (${why}); ${then}`);
}

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(text));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A name only review-gate can compute: the HMAC-SHA256 of `purpose` and `text` under the user's
 * key (made when there is none). For state whose mere existence decides (a stop's claim file):
 * without the key no one can create the file a gate looks for.
 *
 * @param purpose what the name is for
 * @param text what it names
 * @param env where the key is (default the process's environment)
 * @returns 64 lowercase hex characters, or `null` when there is no key to trust
 */
export async function stateMac(
  purpose: string,
  text: string,
  env?: Record<string, string | undefined>,
): Promise<string | null> {
  const key = await loadStateKey(env, { create: true });
  return key.ok ? await hmacHex(key.secret, macInput(purpose, text)) : null;
}

/** HMACs of one purpose under one loaded key (for many small items, e.g. ledger lines). */
export interface Macs {
  /** The HMAC (64 hex) of `text`. */
  mac(text: string): Promise<string>;
  /** True when `mac` is the HMAC of `text`. */
  check(text: string, mac: string): Promise<boolean>;
}

/**
 * Load the user's key once for many HMACs of one purpose.
 *
 * @param purpose what the items are
 * @param options `create`: make the key when there is none (writers); `env`: where it is
 * @returns the HMAC functions, or why there is no key to trust
 */
export async function macsFor(
  purpose: string,
  options: { create?: boolean; env?: Record<string, string | undefined> } = {},
): Promise<Macs | { problem: string }> {
  const key = await loadStateKey(options.env, { create: options.create });
  if (!key.ok) return { problem: `review-gate's key ${key.path ?? ""} ${key.problem}` };
  const imported = await crypto.subtle.importKey(
    "raw",
    encoder.encode(key.secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = async (text: string) =>
    hex(await crypto.subtle.sign("HMAC", imported, encoder.encode(macInput(purpose, text))));
  return { mac, check: async (text, given) => timingSafeEqual(given, await mac(text)) };
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function macInput(purpose: string, valueText: string): string {
  return `review-gate sealed 1\n${purpose}\n${valueText}`;
}

/**
 * Seal a value for a file, creating the user's key when there is none.
 *
 * @param value any JSON-serialisable value
 * @param purpose what the file is for (its kind and name); the reader must pass the same
 * @param env where the key is (default the process's environment)
 * @returns the file's text (final newline)
 * @throws {Error} when there is no key to trust and none can be made (the message says why)
 */
export async function sealJson(
  value: unknown,
  purpose: string,
  env?: Record<string, string | undefined>,
): Promise<string> {
  const key = await loadStateKey(env, { create: true });
  if (!key.ok) {
    throw new Error(`review-gate's key ${key.path ? `"${key.path}" ` : ""}${key.problem}`);
  }
  const valueText = JSON.stringify(value, null, 2);
  return `${PREFIX}${await hmacHex(
    key.secret,
    macInput(purpose, valueText),
  )}","value":${valueText}}\n`;
}

/**
 * The text {@linkcode sealJson} gives, in pieces (lib/base/json_pieces.ts), for a value that may be
 * large (a cached verdict carries its run's coverage: ~13 MB of JSON for a 1M-line change). The
 * value's JSON is made twice, piece by piece — once for the HMAC, which the file names before the
 * value, then for the file — and never held whole. A value of one piece is sealed as
 * {@linkcode sealJson} does; a larger one's HMAC is computed incrementally with node:crypto
 * (loaded only then: ~20 ms of module load the usual review does not pay).
 *
 * @param value any JSON-serialisable value (not changed until the pieces are consumed)
 * @param purpose what the file is for (its kind and name); the reader must pass the same
 * @param env where the key is (default the process's environment)
 * @returns the file's text in pieces (final newline), to consume once
 * @throws {Error} when there is no key to trust and none can be made (the message says why)
 */
export async function sealJsonPieces(
  value: unknown,
  purpose: string,
  env?: Record<string, string | undefined>,
): Promise<Iterable<string>> {
  const key = await loadStateKey(env, { create: true });
  if (!key.ok) {
    throw new Error(`review-gate's key ${key.path ? `"${key.path}" ` : ""}${key.problem}`);
  }
  const first = jsonPieces(value);
  const head = first.next();
  const second = first.next();
  if (second.done) {
    const valueText = head.done ? "undefined" : head.value;
    const mac = await hmacHex(key.secret, macInput(purpose, valueText));
    return [`${PREFIX}${mac}","value":${valueText}}\n`];
  }
  const { createHmac } = await import("node:crypto");
  const hmac = createHmac("sha256", encoder.encode(key.secret)).update(macInput(purpose, ""));
  hmac.update(head.value as string).update(second.value);
  for (const piece of first) hmac.update(piece);
  const mac = hmac.digest("hex");
  return (function* () {
    yield `${PREFIX}${mac}","value":`;
    yield* jsonPieces(value);
    yield "}\n";
  })();
}

/**
 * Open a sealed file's text: the value when its HMAC verifies under the user's key.
 *
 * @param text the file's text
 * @param purpose as given to {@linkcode sealJson}
 * @param env where the key is (default the process's environment)
 * @returns the value, or why it did not verify (not sealed, garbled, wrong HMAC, no trusted key)
 */
export async function openSealed(
  text: string,
  purpose: string,
  env?: Record<string, string | undefined>,
): Promise<Opened> {
  const match = ENVELOPE.exec(text);
  if (!match) return { ok: false, why: "it is not sealed with review-gate's key" };
  const key = await loadStateKey(env);
  if (!key.ok) return { ok: false, why: `review-gate's key ${key.path ?? ""} ${key.problem}` };
  const [, mac, valueText] = match;
  if (!timingSafeEqual(mac, await hmacHex(key.secret, macInput(purpose, valueText)))) {
    return { ok: false, why: "its HMAC does not match: it was changed or written by someone else" };
  }
  try {
    return { ok: true, value: JSON.parse(valueText) };
  } catch {
    return { ok: false, why: "its value is not JSON" };
  }
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The tag the hook scripts check: git's blob id of `<secret>\n<text>` (what
 * `printf '%s\n%s' "$secret" "$text" | git hash-object --no-filters --stdin` prints).
 *
 * @param secret the key's 64 hex characters
 * @param text what is tagged (UTF-8)
 * @param format the repository's object format (the script's git hashes with it)
 * @returns 40 or 64 lowercase hex characters
 */
export function gitTag(
  secret: string,
  text: string,
  format: "sha1" | "sha256",
): Promise<string> {
  return blobId(encoder.encode(`${secret}\n${text}`), format);
}
