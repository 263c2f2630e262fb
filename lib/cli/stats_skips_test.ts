import assert from "node:assert/strict";
import { skipsText, type StatsSkips } from "./stats_skips.ts";
import { summarizeSkips } from "../store/skip_stats.ts";
import type { SkipRecord } from "../store/skips.ts";

const RECORDS: SkipRecord[] = [
  { at: "2026-12-01T08:00:00Z", gate: "pre-push", reason: "env", value: "0", user: "alice" },
  { at: "2026-12-02T09:30:00Z", gate: "pre-push", reason: "disabled", user: "alice" },
  {
    at: "2026-12-03T09:12:45.123Z",
    gate: "claude-stop",
    reason: "env",
    value: "0",
    user: "bob",
  },
  {
    at: "2026-12-03T09:00:00Z",
    gate: "pre-push",
    reason: "env",
    value: "0",
    user: "bob",
    agent: "CLAUDECODE",
  },
];

function skips(records: SkipRecord[], unreadable = 0): StatsSkips {
  return { ...summarizeSkips(records), records, unreadable };
}

Deno.test("skipsText() gives the period, then one row per gate and reason with its count, latest and who", () => {
  assert.equal(
    skipsText(skips(RECORDS)),
    [
      "skipped without a review: 4 (2026-12-01 08:00 UTC to 2026-12-03 09:12 UTC)",
      "  gate         reason         count  last                  who",
      "  claude-stop  REVIEW_GATE=0      1  2026-12-03 09:12 UTC  bob",
      "  pre-push     gate disabled      1  2026-12-02 09:30 UTC  alice",
      "  pre-push     REVIEW_GATE=0      2  2026-12-03 09:00 UTC  alice, bob (1 from an agent session)",
      "  (git push --no-verify, and HUSKY=0 under husky, run no hook of review-gate's: never counted)",
      "",
    ].join("\n"),
  );
});

Deno.test("skipsText() says when none was recorded, and names lines it could not read", () => {
  assert.equal(
    skipsText(skips([], 2)),
    "skipped without a review: none recorded (git push --no-verify, and HUSKY=0 under husky, run no hook of review-gate's: never counted)\n" +
      "  2 line(s) of the skip records could not be read\n",
  );
  assert.match(skipsText(skips([{ ...RECORDS[0], at: null }])), /^skipped without a review: 1\n/);
});

Deno.test("skipsText() shows a forged record's escapes and line breaks as text, and a bad time as -", () => {
  const forged: SkipRecord[] = [{
    at: "not a time",
    gate: "pre-push\x1b[2J",
    reason: "env",
    value: "0\nREVIEW_GATE=1",
    user: "m\x1b]8;;https://evil/\x1b\\CLICK\x1b]8;;\x1b\\",
  }];
  const text = skipsText(skips(forged));
  assert.ok(!text.includes("\x1b"), "no escape reaches the terminal");
  assert.match(text, /pre-push\\u\{1b\}\[2J/);
  assert.match(text, /REVIEW_GATE=0\\nREVIEW_GATE=1/, "one row, the break shown");
  assert.match(text, /\n {2}pre-push\S* +REVIEW_GATE=\S+ +1 {2}- +m\\u\{1b\}\]8/);
});
