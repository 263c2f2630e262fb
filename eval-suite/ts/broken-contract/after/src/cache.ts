import { parseDuration } from "./duration.ts";

/** A cache entry's expiry, ms since the epoch, for a TTL such as "5m". */
export function expiresAt(now: number, ttl: string): number {
  return now + parseDuration(ttl) * 1000;
}
