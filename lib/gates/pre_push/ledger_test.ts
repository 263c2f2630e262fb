import assert from "node:assert/strict";
import { join } from "node:path";
import { recordMemoAnswer } from "./ledger.ts";
import { readRecords } from "../../store/records.ts";

Deno.test("recordMemoAnswer(): the records line of a memo answer names the run that gave the verdict", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rg-memo-ledger-" });
  const before = Deno.env.get("XDG_STATE_HOME");
  Deno.env.set("XDG_STATE_HOME", join(dir, "user-state")); // the test's own key, never the user's
  try {
    const state = join(dir, "review-gate");
    await Deno.mkdir(state, { recursive: true });
    const runDir = join(state, "runs", "20261203T075243Z-7bfa93");
    const warning = await recordMemoAnswer(state, {
      label: "refs/heads/main (1 commit)",
      hit: {
        answer: { verdict: "needs-attention", summary: "x", findings: [], next_steps: [] },
        runDir,
        status: "needs-attention",
        provider: "claude",
      },
      blocking: true,
      started: new Date("2026-12-03T08:00:00Z"),
      finished: new Date("2026-12-03T08:00:01Z"),
    });
    assert.equal(warning, undefined);
    const lines = await readRecords(state);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].id, "20261203T075243Z-7bfa93", "the id leads to the cached run's folder");
    assert.equal(lines[0].cached, true);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_STATE_HOME");
    else Deno.env.set("XDG_STATE_HOME", before);
    await Deno.remove(dir, { recursive: true });
  }
});
