/**
 * The verdict memo: maps an immutable review target — two object ids plus everything else the
 * verdict cache key depends on — to that cache key, so a gate can find a cached verdict without
 * collecting the change again (a re-push of the same commits then costs a file read, not a diff).
 * Stored as `cache/memo/<sha256>.json`, sealed with the user's key for its memo key
 * (lib/store/sealed.ts); a missing, corrupt or unverified memo is a miss (an unverified one is
 * named in the gate's output).
 *
 * @module
 */
import { join } from "../base/path.ts";
import { writeStoreFile } from "./_write.ts";
import { noteUnverified, openSealed, sealJson } from "./sealed.ts";
import { guardStore } from "./_guard.ts";
import { sha256Hex } from "../base/sha256.ts";

/** What identifies a review of an immutable target. */
export interface MemoParts {
  /** Base side object id (commit or tree). */
  from: string;
  /** Reviewed side object id (commit or tree). */
  to: string;
  provider: string;
  model?: string;
  reviewKind: string;
  focus?: string;
  /** sha256 of the canonical schema and of the prompt template. */
  schemaHash: string;
  templateHash: string;
  /** Diff budgets in bytes and calls (they decide the plan and coverage). */
  budgets: { perFileBytes: number; totalBytes: number; maxCalls?: number };
  /**
   * Digest of every acknowledgement that holds (lib/acks/match.ts `acksDigest`): the change is not
   * collected on this path, so all of them count, not only those on the change's files.
   */
  acks: string;
  /**
   * The team's rule settings and where rule files are read (lib/rules/report.ts
   * `ruleSettingsIdentity`); the rule files themselves are fixed by `to` when read from it.
   */
  rules?: string;
}

/** The memo key of a target (sha256 hex). */
export function memoKey(parts: MemoParts): Promise<string> {
  const ordered = [
    "memo-v2",
    parts.from,
    parts.to,
    parts.provider,
    parts.model ?? null,
    parts.reviewKind,
    parts.focus ?? null,
    parts.schemaHash,
    parts.templateHash,
    parts.budgets.perFileBytes,
    parts.budgets.totalBytes,
    parts.budgets.maxCalls ?? 1,
    parts.acks,
    parts.rules ?? null,
  ];
  return sha256Hex(JSON.stringify(ordered));
}

function memoPath(state: string, key: string): string {
  return join(state, "cache", "memo", `${key}.json`);
}

/**
 * Read the verdict cache key remembered for a target.
 *
 * @returns the cache key, or null (miss, unreadable, corrupt or not verified: then noted)
 */
export async function readMemo(state: string, key: string): Promise<string | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(memoPath(state, key));
  } catch {
    return null;
  }
  const opened = await openSealed(text, `memo/${key}`);
  if (!opened.ok) {
    noteUnverified(
      `the verdict memo of this push (cache/memo/${key}.json)`,
      opened.why,
      "it was ignored and the change is looked up again",
    );
    return null;
  }
  const data = opened.value as { cacheKey?: unknown } | null;
  return typeof data?.cacheKey === "string" && /^[0-9a-f]{64}$/.test(data.cacheKey)
    ? data.cacheKey
    : null;
}

/**
 * Remember the verdict cache key of a target (atomic write).
 *
 * @throws {import("../base/errors.ts").StoreError} on a file-system failure or when there is no
 *   key to seal it with
 */
export async function writeMemo(
  state: string,
  memo: { key: string; cacheKey: string },
): Promise<void> {
  const path = memoPath(state, memo.key);
  await guardStore(path, async () => {
    await Deno.mkdir(join(state, "cache", "memo"), { recursive: true, mode: 0o700 });
    await writeStoreFile(path, await sealJson({ cacheKey: memo.cacheKey }, `memo/${memo.key}`));
  }, "the verdict memo");
}
