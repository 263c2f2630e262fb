import assert from "node:assert/strict";
import { QuietTimes } from "./work_quiet.ts";

const part = (key: string, ...paths: string[]) => ({ key, paths });

Deno.test("QuietTimes: a part edited once, or re-edited after its call finished, is asked at once", () => {
  const quiet = new QuietTimes(30_000);
  quiet.planned([part("part:a1", "a.ts")], 1_000);
  assert.equal(quiet.notBefore(part("part:a1", "a.ts")), 0, "edited once");
  quiet.started(part("part:a1", "a.ts"));
  quiet.finished(20_000); // not superseded: it ran to its end
  quiet.planned([part("part:a2", "a.ts")], 40_000);
  assert.equal(quiet.notBefore(part("part:a2", "a.ts")), 0, "re-edited after its call finished");
});

Deno.test("QuietTimes: a superseded part waits until its edits were quiet for one call's latency", () => {
  const quiet = new QuietTimes(30_000);
  const a1 = part("part:a1", "a.ts");
  quiet.planned([a1], 1_000);
  quiet.started(a1);
  const a2 = part("part:a2", "a.ts");
  quiet.planned([a2], 10_000); // a's bytes changed while its call ran
  quiet.superseded(a1);
  assert.equal(quiet.notBefore(a2), 40_000, "no call finished yet: the configured 30 s");
  const a3 = part("part:a3", "a.ts");
  quiet.planned([a3], 25_000); // edited again: quiet counts from this edit
  assert.equal(quiet.notBefore(a3), 55_000);
  // another part's plan does not move a's quiet time; a part sharing a file with it is held too
  const ab = part("part:ab", "a.ts", "b.ts");
  quiet.planned([a3, part("part:c", "c.ts")], 30_000);
  assert.equal(quiet.notBefore(a3), 55_000);
  assert.equal(quiet.notBefore(part("part:c", "c.ts")), 0, "c was never superseded");
  assert.ok(quiet.notBefore(ab) > 0);
  // finished calls set the latency: their median
  for (const ms of [4_000, 6_000, 50_000]) quiet.finished(ms);
  assert.equal(quiet.latencyMs(), 6_000);
  assert.equal(quiet.notBefore(a3), 31_000);
  quiet.finished(8_000);
  assert.equal(quiet.latencyMs(), 7_000, "an even count: the mean of the middle two");
  // the Stop asks: nothing waits
  quiet.urgent = true;
  assert.equal(quiet.notBefore(a3), 0);
  quiet.urgent = false;
  // once its call starts, its next edit is asked at once again, unless that call is superseded
  quiet.started(a3);
  const a4 = part("part:a4", "a.ts");
  quiet.planned([a4], 60_000);
  assert.equal(quiet.notBefore(a4), 0);
  quiet.superseded(a3);
  assert.equal(quiet.notBefore(a4), 67_000);
});

Deno.test("QuietTimes: a change planned as one part waits until its edits were quiet for one call's latency; once it has several parts, a part edited once is asked at once", () => {
  const quiet = new QuietTimes(30_000);
  const a1 = part("whole:a1", "a.ts");
  quiet.planned([a1], 1_000);
  assert.equal(quiet.notBefore(a1), 31_000, "the turn's first edit: any next write supersedes it");
  const a2 = part("whole:a2", "a.ts");
  quiet.planned([a2], 12_000); // edited again, nothing was asked
  assert.equal(quiet.notBefore(a2), 42_000);
  // the agent moved on to another file: two parts, neither ever superseded
  const parts = [part("part:a2", "a.ts"), part("part:b1", "b.ts")];
  quiet.planned(parts, 20_000);
  assert.deepEqual(parts.map((p) => quiet.notBefore(p)), [0, 0]);
  quiet.urgent = true; // the Stop asks: a one-part change waits no more either
  assert.equal(quiet.notBefore(part("whole:a3", "a.ts")), 0);
});
