import assert from "node:assert/strict";
import { sumTallies, tallyOf, type WorkTally } from "./work_ledger.ts";

Deno.test("tallyOf() charges the Stop's reused parts to their background calls, the rest as wasted", () => {
  const background = {
    calls: 6,
    spent: { "part:a": 1, "part:b": 2, "part:c": 1, "(resume)": 1, "whole:a": 1 },
    answered: ["part:a", "part:b", "part:c", "whole:a"],
  };
  const stop = [
    { digest: "a", cached: true, calls: 0 }, // reused
    { digest: "b", cached: true, calls: 0 }, // reused, its first call was superseded
    { digest: "d", cached: false, calls: 1 }, // changed since: asked at the Stop
  ];
  assert.deepEqual(tallyOf(background, stop), {
    backgroundCalls: 6,
    reused: 2,
    // c (its bytes are gone), the resume no part is charged with, and a's verdict as a whole change
    // (when it was the turn's only part), which a plan of several parts cannot take
    wasted: 3,
    stopCalls: 1,
    parts: 3,
  });
  // a part cached before the turn is not the background's to claim
  assert.equal(tallyOf({ calls: 0, spent: {}, answered: [] }, stop).reused, 0);
  // a Stop whose plan is one part takes the whole change's verdict
  const one = tallyOf(background, [{ digest: "a", cached: true, calls: 0 }]);
  assert.deepEqual([one.reused, one.wasted], [1, 5]);
});

Deno.test("tallyOf() counts a part's verdict kept from the one-part change it first was as reused", () => {
  // the turn's first edit was a one-part change (whole:a), then the change grew to two parts
  const background = {
    calls: 2,
    spent: { "whole:a": 1, "part:b": 1 },
    answered: ["whole:a", "part:b"],
  };
  const stop = [{ digest: "a", cached: true, calls: 0 }, { digest: "b", cached: true, calls: 0 }];
  assert.deepEqual(tallyOf(background, stop), {
    backgroundCalls: 2,
    reused: 2,
    wasted: 0,
    stopCalls: 0,
    parts: 2,
  });
  // a part's verdict of a plan of several never serves a one-part plan
  const shrunk = tallyOf({ calls: 1, spent: { "part:b": 1 }, answered: ["part:b"] }, [
    { digest: "b", cached: false, calls: 1 },
  ]);
  assert.deepEqual([shrunk.reused, shrunk.wasted], [0, 1]);
});

Deno.test("sumTallies() sums turns since a time, with the most of one turn", () => {
  const t = (at: string, calls: number, wasted: number): WorkTally => ({
    at,
    gate: "claude-stop",
    backgroundCalls: calls,
    reused: calls - wasted,
    wasted,
    stopCalls: 1,
    parts: calls,
    waitedMs: 1000,
  });
  const all = [t("2026-11-01T00:00:00Z", 4, 1), t("2026-11-02T00:00:00Z", 6, 3)];
  const sum = sumTallies(all);
  assert.deepEqual(
    [
      sum.turns,
      sum.backgroundCalls,
      sum.wasted,
      sum.maxBackgroundCalls,
      sum.maxWasted,
      sum.waitedMs,
    ],
    [2, 10, 4, 6, 3, 2000],
  );
  assert.equal(sumTallies(all, new Date("2026-11-01T12:00:00Z")).turns, 1);
});
