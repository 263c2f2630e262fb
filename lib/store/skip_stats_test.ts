import assert from "node:assert/strict";
import { skipsSince, summarizeSkips } from "./skip_stats.ts";
import type { SkipRecord } from "./skips.ts";

const push = (at: string | null, extra: Partial<SkipRecord> = {}): SkipRecord => ({
  at,
  gate: "pre-push",
  reason: "env",
  value: "0",
  user: "alice",
  ...extra,
});

Deno.test("summarizeSkips() counts per gate and reason, with the span, values, users and agent pushes", () => {
  const records: SkipRecord[] = [
    push("2026-12-02T10:00:00Z"),
    { at: "2026-12-01T08:00:00.000Z", gate: "claude-stop", reason: "env", value: "0", user: "bob" },
    push("2026-12-03T09:12:00Z", { value: " off ", user: "bob", agent: "CLAUDECODE" }),
    push(null, { reason: "disabled", value: undefined, where: "user config" }),
    push("2026-12-02T11:00:00Z", { reason: "disabled", value: undefined, user: "" }),
  ];
  assert.deepEqual(summarizeSkips(records), {
    total: 5,
    first: "2026-12-01T08:00:00.000Z",
    last: "2026-12-03T09:12:00Z",
    groups: [
      {
        gate: "claude-stop",
        reason: "env",
        count: 1,
        first: "2026-12-01T08:00:00.000Z",
        last: "2026-12-01T08:00:00.000Z",
        values: ["0"],
        users: ["bob"],
        fromAgent: 0,
      },
      {
        gate: "pre-push",
        reason: "disabled",
        count: 2,
        first: "2026-12-02T11:00:00Z",
        last: "2026-12-02T11:00:00Z",
        values: [],
        users: ["alice"],
        fromAgent: 0,
      },
      {
        gate: "pre-push",
        reason: "env",
        count: 2,
        first: "2026-12-02T10:00:00Z",
        last: "2026-12-03T09:12:00Z",
        values: ["0", "off"],
        users: ["alice", "bob"],
        fromAgent: 1,
      },
    ],
  });
  assert.deepEqual(summarizeSkips([]), { total: 0, first: null, last: null, groups: [] });
});

Deno.test("skipsSince() keeps the records at or after the start; a record without a time only for all time", () => {
  const records = [push("2026-12-01T00:00:00Z"), push("2026-12-02T00:00:00Z"), push(null)];
  assert.equal(skipsSince(records).length, 3);
  assert.deepEqual(skipsSince(records, new Date("2026-12-02T00:00:00Z")), [records[1]]);
});
