import assert from "node:assert/strict";
import { judgeTargets } from "./targets.ts";

const row = { group: "g", medianMs: 100, maxRssMb: 10 };

Deno.test("judgeTargets() holds a row to its floor in the same group, at the limit included", () => {
  const verdicts = judgeTargets([
    { ...row, name: "floor" },
    {
      ...row,
      name: "at limit",
      medianMs: 150,
      speedTarget: { id: "T1", floor: "floor", max: 1.5 },
    },
    { ...row, name: "over", medianMs: 151, speedTarget: { id: "T1", floor: "floor", max: 1.5 } },
    { ...row, group: "other", name: "floor", medianMs: 1 },
  ]);
  assert.deepEqual(verdicts.map((v) => [v.row, v.verdict]), [[1, "met"], [2, "MISSED"]]);
  assert.equal(verdicts[1].text, "×1.51 of #1 (≤ ×1.5)");
});

Deno.test("judgeTargets() judges nothing it cannot: a missing floor row, a stale floor", () => {
  const verdicts = judgeTargets([
    { ...row, name: "floor" },
    { ...row, name: "a", speedTarget: { id: "T1", floor: "nowhere", max: 9 } },
    {
      ...row,
      name: "b",
      speedTarget: { id: "T2", floor: "floor", max: 9 },
      floorProblem: "git status ×2 not in the floor",
    },
  ]);
  assert.deepEqual(verdicts.map((v) => v.verdict), ["NOT JUDGED", "NOT JUDGED"]);
  assert.match(verdicts[0].text, /floor row "nowhere" not measured/);
  assert.match(verdicts[1].text, /floor stale: git status ×2 not in the floor/);
});

Deno.test("judgeTargets() holds every row with a memory limit to its peak RSS", () => {
  const verdicts = judgeTargets([
    { ...row, name: "small", maxRssMb: 150, rssLimitMb: 150 },
    { ...row, name: "big", maxRssMb: 150.1, rssLimitMb: 150 },
  ]);
  assert.deepEqual(verdicts.map((v) => [v.id, v.verdict]), [["RSS", "met"], ["RSS", "MISSED"]]);
});
