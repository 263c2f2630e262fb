/**
 * The verdict cache: `cache/<sha256>.json`, keyed by a hash of (change fingerprint, schema, prompt
 * template, provider, model, focus, review kind, review plan, acknowledgements told to the model,
 * the team's rules that applied) —
 * docs/design.md "Store", "Cache identity". A hit costs no
 * model call. Only successful verdicts (`approved`, `needs-attention`) are cached; a corrupt or
 * foreign cache file is a miss, never a crash. Each entry is sealed with the user's key
 * (lib/store/sealed.ts) for its own cache key: an entry anyone else wrote, edited or moved from
 * another key does not verify, is a miss (the change is reviewed again), and is named in the
 * gate's output.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { RunRecord } from "./run_record.ts";
import { writeStoreFile } from "./_write.ts";
import { noteUnverified, openSealed, sealJsonPieces } from "./sealed.ts";
import { guardStore } from "./_guard.ts";
import { sha256Hex } from "../base/sha256.ts";

/** Everything a cached verdict depends on. */
export interface CacheKeyParts {
  /** Change fingerprint (lib/git). */
  fingerprint: string;
  /** Schema `$id` or hash of the canonical schema. */
  schemaId: string;
  /** Hash of the prompt template text. */
  promptTemplateHash: string;
  provider: string;
  /** Model name; absent when the provider default is used. */
  model?: string;
  focus?: string;
  /** "review" or "adversarial-review". */
  reviewKind: string;
  /** Review plan id (lib/git `Change.planId`): which parts of the change the model is shown. */
  planId?: string;
  /** Digest of the acknowledgements told to the model (lib/acks/match.ts `acksDigest`). */
  acks: string;
  /** Guidelines sent and files excluded by rule (lib/rules/report.ts `rulesIdentity`). */
  rules?: string;
  /**
   * sha256 of the answer kind's input (compliance: the plan), when the kind takes one. The kind
   * itself is in `schemaId`. Absent for reviews, whose keys stay as they were.
   */
  kindInputHash?: string;
}

/** Statuses worth caching. */
const CACHEABLE = new Set(["approved", "needs-attention"]);
const KEY = /^[0-9a-f]{64}$/;
const VERSION = 1;

/** A cached verdict: a summary of the run that produced it, and the decoded answer. */
export interface CacheEntry<A = unknown> {
  record: Pick<RunRecord, "id" | "status"> & Partial<RunRecord>;
  answer: A;
}

/**
 * The cache key: sha256 (hex) of the parts in a fixed order (absent fields count as null).
 *
 * @param parts what the verdict depends on
 * @returns 64 lowercase hex characters
 */
export function cacheKey(parts: CacheKeyParts): Promise<string> {
  const ordered = [
    `v${VERSION}`,
    parts.fingerprint,
    parts.schemaId,
    parts.promptTemplateHash,
    parts.provider,
    parts.model ?? null,
    parts.focus ?? null,
    parts.reviewKind,
    parts.planId ?? null,
    parts.acks,
    parts.rules ?? null,
    ...(parts.kindInputHash === undefined ? [] : [parts.kindInputHash]),
  ];
  return sha256Hex(JSON.stringify(ordered));
}

function cachePath(state: string, key: string): string {
  if (!KEY.test(key)) throw new TypeError(`Invalid cache key "${key}": expected 64 hex characters`);
  return join(state, "cache", `${key}.json`);
}

/**
 * Look a verdict up.
 *
 * @param state the state dir
 * @param key from {@linkcode cacheKey}
 * @returns the entry, or null on a miss, a corrupt file, an uncacheable status or an entry that
 *   does not verify (then noted for the gate's output: lib/store/sealed.ts `takeStateNotes`)
 * @throws {TypeError} when `key` is not a cache key
 */
export async function readCache<A = unknown>(
  state: string,
  key: string,
): Promise<CacheEntry<A> | null> {
  const path = cachePath(state, key);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const opened = await openSealed(text, `cache/${key}`);
  if (!opened.ok) {
    noteUnverified(
      `a cached verdict for this change (cache/${key}.json)`,
      opened.why,
      "it was ignored and the change is reviewed again",
    );
    return null;
  }
  // deno-lint-ignore no-explicit-any
  const data = opened.value as any;
  if (data?.version !== VERSION || data.key !== key) return null;
  const { record, answer } = data;
  if (typeof record !== "object" || record === null || typeof record.id !== "string") return null;
  if (!CACHEABLE.has(record.status)) return null;
  if (typeof answer !== "object" || answer === null) return null;
  return { record, answer };
}

/**
 * Store a verdict atomically; anything but `approved` / `needs-attention` is not stored.
 *
 * @param state the state dir
 * @param key from {@linkcode cacheKey}
 * @param entry the run summary and the answer
 * @returns true when written, false when the status is not cacheable
 * @throws {TypeError} for a bad key; StoreError (lib/base/errors.ts) on a
 *   file-system failure or when there is no key to seal it with
 */
export async function writeCache(state: string, key: string, entry: CacheEntry): Promise<boolean> {
  const path = cachePath(state, key);
  if (!CACHEABLE.has(entry.record.status)) return false;
  await guardStore(path, async () => {
    await Deno.mkdir(join(state, "cache"), { recursive: true, mode: 0o700 });
    // a verdict's record names every omitted hunk: sealed and written in pieces, never whole
    const sealed = await sealJsonPieces({ version: VERSION, key, ...entry }, `cache/${key}`);
    await writeStoreFile(path, sealed);
  }, "the verdict cache");
  return true;
}
