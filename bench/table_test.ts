import assert from "node:assert/strict";
import { renderTable } from "./table.ts";

Deno.test("renderTable() gives each row its ratio to its own group's baseline", () => {
  const text = renderTable([
    { group: "g1", name: "base", baseline: true, runs: 3, medianMs: 20, maxRssMb: 5 },
    {
      group: "g1",
      name: "slow",
      baseline: false,
      runs: 3,
      medianMs: 500,
      maxRssMb: 7.5,
      note: "a note",
    },
    { group: "g2", name: "base2", baseline: true, runs: 3, medianMs: 100, maxRssMb: 10 },
    { group: "g2", name: "x", baseline: false, runs: 3, medianMs: 150, maxRssMb: 10 },
    { group: "g3", name: "lonely", baseline: false, runs: 1, medianMs: 1, maxRssMb: 1 },
  ]);
  const rows = text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| #"));
  assert.equal(rows[0], "| 1 | g1 | base | 3 | 20.0 | ×1.0 | 5.0 | ×1.0 |  |");
  assert.equal(rows[1], "| 2 | g1 | slow | 3 | 500.0 | ×25 | 7.5 | ×1.5 |  |");
  assert.equal(rows[3], "| 4 | g2 | x | 3 | 150.0 | ×1.5 | 10.0 | ×1.0 |  |");
  assert.equal(rows[4], "| 5 | g3 | lonely | 1 | 1.0 | – | 1.0 | – |  |");
  assert.match(text, /Notes:\n- #2: a note\n$/);
});

Deno.test("renderTable() prints each target's verdict in its row and in the summary", () => {
  const text = renderTable([
    { group: "g", name: "floor", baseline: true, runs: 3, medianMs: 100, maxRssMb: 30 },
    {
      group: "g",
      name: "fast",
      baseline: false,
      runs: 3,
      medianMs: 140,
      maxRssMb: 60,
      speedTarget: { id: "T1", floor: "floor", max: 1.5 },
      rssLimitMb: 150,
    },
    {
      group: "g",
      name: "slow",
      baseline: false,
      runs: 3,
      medianMs: 251,
      maxRssMb: 151,
      speedTarget: { id: "T2", floor: "floor", max: 2 },
      rssLimitMb: 150,
    },
  ]);
  assert.match(
    text,
    /\| 2 \| g \| fast .*\| T1 ×1\.40 of #1 \(≤ ×1\.5\) met; RSS 60\.0 MB \(≤ 150 MB\) met \|/,
  );
  assert.match(text, /\| 3 \| g \| slow .*\| T2 ×2\.51 of #1 \(≤ ×2\) MISSED; RSS 151\.0 MB/);
  assert.match(text, /Targets: 2 of 4 met\n- #2 fast: T1 ×1\.40 of #1 \(≤ ×1\.5\) met\n/);
  assert.match(text, /- #3 slow: RSS 151\.0 MB \(≤ 150 MB\) MISSED\n$/);
});
