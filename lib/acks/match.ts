/**
 * Applying acknowledgements (pure): which are active today, which finding each one covers (by
 * fingerprint), which are told to the model for a change, and a digest of them for the verdict
 * cache key and memo (docs/design.md "Cache identity": acknowledgements told to the model are part
 * of a verdict's identity).
 *
 * @module
 */
import { sha256Hex } from "../base/sha256.ts";
import { UsageError } from "../base/errors.ts";
import type { FindingNote } from "../kinds/review/types.ts";
import type { Ack } from "./types.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** Today's date in UTC, `YYYY-MM-DD` (the unit of `expires`). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * True when an acknowledgement holds on `now`'s UTC day (it holds through its `expires` day).
 */
export function isActive(ack: Pick<Ack, "expires">, now: Date): boolean {
  return ack.expires === undefined || ack.expires >= utcDay(now);
}

/** The acknowledgements that hold on `now`'s UTC day. */
export function activeAcks(acks: readonly Ack[], now: Date): Ack[] {
  return acks.filter((ack) => isActive(ack, now));
}

/**
 * The notes of an answer's findings: each fingerprint, with the acknowledgement that matches it.
 *
 * @param fingerprints one per finding, in answer order
 * @param acks the active acknowledgements
 * @returns one note per finding, same order
 */
export function noteFindings(fingerprints: readonly string[], acks: readonly Ack[]): FindingNote[] {
  const byPrint = new Map(acks.map((ack) => [ack.fingerprint, ack]));
  return fingerprints.map((fingerprint) => {
    const ack = byPrint.get(fingerprint);
    if (!ack) return { fingerprint };
    return {
      fingerprint,
      acknowledged: {
        reason: ack.reason,
        ...(ack.expires ? { expires: ack.expires } : {}),
        ...(ack.by ? { by: ack.by } : {}),
      },
    };
  });
}

/**
 * The acknowledgements worth telling the model for a change: those on files the change touches,
 * at most `limit` (the most recent first), in a stable order.
 *
 * @param acks the active acknowledgements
 * @param paths repository-relative paths of the change's files
 */
export function acksForChange(
  acks: readonly Ack[],
  paths: ReadonlySet<string>,
  limit = 50,
): Ack[] {
  return acks.filter((ack) => paths.has(ack.file))
    .sort((a, b) =>
      compareCodeUnits(b.created, a.created) || compareCodeUnits(a.fingerprint, b.fingerprint)
    )
    .slice(0, limit);
}

/**
 * A digest of acknowledgements for a cache key: what the model is told (file, title, reason) and
 * what decides blocking (fingerprint), order-independent. Empty list → `"none"`.
 *
 * @returns `"none"` or 64 hex characters
 */
export async function acksDigest(acks: readonly Ack[]): Promise<string> {
  if (acks.length === 0) return "none";
  const parts = acks.map((a) => JSON.stringify([a.fingerprint, a.file, a.title, a.reason])).sort();
  return await sha256Hex(parts.join("\n"));
}

/**
 * Read an `--expires` value: a day `YYYY-MM-DD` (the last day the acknowledgement holds, UTC) or a
 * span from today, `30d` / `12w`.
 *
 * @param text the flag's value
 * @param now today
 * @returns the last day, `YYYY-MM-DD`
 * @throws {UsageError} for another form, an impossible date, or a day already past
 */
export function parseExpiry(text: string, now: Date): string {
  const span = /^(\d{1,4})([dw])$/.exec(text.trim());
  let day: string;
  if (span) {
    const days = Number(span[1]) * (span[2] === "w" ? 7 : 1);
    day = utcDay(new Date(now.getTime() + days * 86_400_000));
  } else {
    day = text.trim();
    const parsed = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
    if (!parsed || Number.isNaN(parsed.getTime()) || utcDay(parsed) !== day) {
      throw new UsageError(
        `Invalid --expires "${text}": give a day (2026-12-31) or a span (30d, 12w)`,
      );
    }
  }
  if (day < utcDay(now)) {
    throw new UsageError(`--expires ${text} is already past (today is ${utcDay(now)} UTC)`);
  }
  return day;
}
