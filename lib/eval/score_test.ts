import assert from "node:assert/strict";
import type { Finding } from "../kinds/review/types.ts";
import { hitOf, isHallucinated, scoreFindings } from "./score.ts";
import type { Defect } from "./types.ts";

const defect: Defect = { file: "src/a.ts", line_start: 10, line_end: 12, min_severity: "medium" };

function finding(over: Partial<Finding>): Finding {
  return {
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "t",
    body: "b",
    file: "src/a.ts",
    line_start: 10,
    line_end: 10,
    confidence: 0.9,
    recommendation: "r",
    ...over,
  };
}

Deno.test("hitOf() is a line hit on overlap, a file hit elsewhere in the file, none below min_severity", async (t) => {
  const cases: [string, Partial<Finding>, string][] = [
    ["inside", { line_start: 11, line_end: 11 }, "line"],
    ["touching the first line", { line_start: 5, line_end: 10 }, "line"],
    ["touching the last line", { line_start: 12, line_end: 20 }, "line"],
    ["around it", { line_start: 1, line_end: 30 }, "line"],
    ["just before", { line_start: 5, line_end: 9 }, "file"],
    ["just after", { line_start: 13, line_end: 13 }, "file"],
    ["as severe as min_severity", { severity: "medium" }, "line"],
    ["more severe", { severity: "critical" }, "line"],
    ["less severe, on the lines", { severity: "low" }, "none"],
    ["less severe, elsewhere in the file", { severity: "low", line_start: 1, line_end: 1 }, "none"],
    ["another file, same lines", { file: "src/b.ts" }, "none"],
    ["a file differing only in case", { file: "src/A.ts" }, "none"],
  ];
  for (const [name, over, want] of cases) {
    await t.step(name, () => assert.equal(hitOf(finding(over), defect), want));
  }
});

Deno.test("isHallucinated() is true only for findings on no line the change touched", () => {
  const changed = new Map([["src/a.ts", [{ start: 3, end: 4 }, { start: 10, end: 10 }]]]);
  assert.equal(isHallucinated(finding({ line_start: 4, line_end: 4 }), changed), false);
  assert.equal(isHallucinated(finding({ line_start: 5, line_end: 10 }), changed), false);
  assert.equal(isHallucinated(finding({ line_start: 5, line_end: 9 }), changed), true);
  assert.equal(isHallucinated(finding({ file: "src/other.ts" }), changed), true);
  // a file the change kept whole (a pure rename) has no changed line
  assert.equal(isHallucinated(finding({}), new Map([["src/a.ts", []]])), true);
});

Deno.test("scoreFindings() scores each finding and gives each defect its best hit", () => {
  const onLines = finding({ line_start: 12, line_end: 12 });
  const inFile = finding({ line_start: 1, line_end: 1, severity: "critical" });
  const tooMild = finding({ line_start: 10, line_end: 10, severity: "low" });
  const second: Defect = { file: "src/b.ts", line_start: 1, line_end: 2, min_severity: "high" };
  const changed = new Map([["src/a.ts", [{ start: 10, end: 12 }]], ["src/b.ts", [{
    start: 1,
    end: 2,
  }]]]);
  const scored = scoreFindings([onLines, inFile, tooMild], {
    defects: [defect, second],
    changed,
    blocking: new Set([inFile]),
  });
  assert.deepEqual(
    scored.findings.map((f) => [f.hit, f.hallucinated, f.blocking]),
    [["line", false, false], ["file", true, true], ["none", false, false]],
  );
  assert.deepEqual(scored.defects.map((d) => d.found), ["line", "none"]);
  assert.deepEqual(scored.defects[0], { ...defect, found: "line" }, "the defect kept whole");
  assert.equal(scored.findings[0].title, "t");
});

Deno.test("scoreFindings() of no answer catches nothing", () => {
  const scored = scoreFindings([], { defects: [defect], changed: new Map(), blocking: new Set() });
  assert.deepEqual(scored, { findings: [], defects: [{ ...defect, found: "none" }] });
});
