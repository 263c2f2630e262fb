/**
 * The skip records' arithmetic for `stats` (pure): of one repository's records
 * (lib/store/skips.ts, lib/store/skip_repo.ts), those of a period, counted per gate and reason.
 *
 * @module
 */
import { compareCodeUnits } from "../base/compare.ts";
import type { SkipReason, SkipRecord } from "./skips.ts";

/** The skips of one gate for one reason. */
export interface SkipGroup {
  gate: string;
  reason: SkipReason;
  count: number;
  /** Earliest and latest `at` (ISO), null when no record of the group had a time. */
  first: string | null;
  last: string | null;
  /** `REVIEW_GATE`'s values (reason `env`), distinct, in order of first use. */
  values: string[];
  /** Who skipped: the records' `user`s, distinct, in order of first use. */
  users: string[];
  /** Records of pushes made inside an agent session (an agent marker was set). */
  fromAgent: number;
}

/** What `stats` shows of the skips. */
export interface SkipTotals {
  total: number;
  first: string | null;
  last: string | null;
  /** Per gate, then reason (sorted by code units). */
  groups: SkipGroup[];
}

/**
 * The records of a period: at or after `since` (records without a time count only when there is
 * no `since`).
 *
 * @param records the records
 * @param since the period's start; none: all of them
 */
export function skipsSince(records: readonly SkipRecord[], since?: Date): SkipRecord[] {
  if (!since) return [...records];
  const from = since.getTime();
  return records.filter((r) => r.at !== null && Date.parse(r.at) >= from);
}

/**
 * Count records per gate and reason.
 *
 * @param records one repository's records of the period
 */
export function summarizeSkips(records: readonly SkipRecord[]): SkipTotals {
  const groups = new Map<string, SkipGroup>();
  for (const record of records) {
    const key = `${record.gate}\n${record.reason}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        gate: record.gate,
        reason: record.reason,
        count: 0,
        first: null,
        last: null,
        values: [],
        users: [],
        fromAgent: 0,
      };
      groups.set(key, group);
    }
    group.count++;
    widen(group, record.at);
    if (record.reason !== "disabled" && typeof record.value === "string") {
      addOnce(group.values, record.value.trim());
    }
    if (typeof record.user === "string" && record.user !== "") addOnce(group.users, record.user);
    if (typeof record.agent === "string" && record.agent !== "") group.fromAgent++;
  }
  const sorted = [...groups.values()].sort((a, b) =>
    compareCodeUnits(a.gate, b.gate) || compareCodeUnits(a.reason, b.reason)
  );
  const span = { first: null as string | null, last: null as string | null };
  for (const group of sorted) (widen(span, group.first), widen(span, group.last));
  return { total: records.length, ...span, groups: sorted };
}

/** Widen a span's `first`/`last` to hold `at`. */
function widen(span: { first: string | null; last: string | null }, at: string | null): void {
  if (at === null) return;
  const time = Date.parse(at);
  if (span.first === null || time < Date.parse(span.first)) span.first = at;
  if (span.last === null || time > Date.parse(span.last)) span.last = at;
}

function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
