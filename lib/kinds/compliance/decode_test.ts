import assert from "node:assert/strict";
import { decode } from "../../answer/decoder.ts";
import { memoryTree } from "../../answer/memory_tree.ts";
import { complianceDecoder } from "./kind.ts";
import type { ComplianceAnswer, PlanItem } from "./types.ts";

const tree = memoryTree("/repo", { "src/plan.ts": 10, "src/cli.ts": 30, "README.md": 4 }, [
  "src/old.ts",
]);
const change = {
  files: [
    { path: "src/plan.ts", status: "modified", binary: false, additions: 3, deletions: 0 },
    { path: "src/cli.ts", status: "added", binary: false, additions: 30, deletions: 0 },
    {
      path: "src/new_name.ts",
      oldPath: "src/old.ts",
      status: "renamed",
      binary: false,
      additions: 0,
      deletions: 0,
    },
  ],
} as const;
const items: PlanItem[] = [{ id: "1", text: "Add the parser" }, { id: "2", text: "Add the flag" }];
const kind = complianceDecoder(items, {
  files: change.files.map((f) => ({ ...f })),
});
const good: ComplianceAnswer = JSON.parse(
  await Deno.readTextFile(
    new URL("../../../fixtures/answers/compliance.good.json", import.meta.url),
  ),
);

function judge(answer: unknown) {
  return decode(kind, { value: answer }, tree);
}

function problems(decision: Awaited<ReturnType<typeof judge>>): string[] {
  assert.equal(decision.ok, false, JSON.stringify(decision));
  return decision.ok ? [] : decision.refusal.map((r) => `${r.path}: ${r.problem}`);
}

Deno.test("compliance decode accepts the good fixture and puts items in plan order", async () => {
  const decision = await judge(good);
  assert.ok(decision.ok, JSON.stringify(decision));
  const reversed = { ...structuredClone(good), items: [...good.items].reverse() };
  const sorted = await judge(reversed);
  assert.ok(sorted.ok);
  assert.deepEqual((sorted.answer as ComplianceAnswer).items.map((i) => i.id), ["1", "2"]);
  assert.deepEqual(sorted.notes, ["/items: put in plan order"]);
});

Deno.test("compliance decode refuses the bad fixture at the schema step", async () => {
  const bad = await Deno.readTextFile(
    new URL("../../../fixtures/answers/compliance.bad.json", import.meta.url),
  );
  const decision = await decode(kind, { text: bad }, tree);
  const paths = problems(decision).map((p) => p.split(":")[0]);
  for (const path of ["/verdict", "/summary", "", "/items/0/id", "/items/0/status"]) {
    assert.ok(paths.includes(path), `${path} in ${paths.join(", ")}`);
  }
});

Deno.test("compliance decode refuses unknown, duplicate and missing plan item ids", async () => {
  const answer = structuredClone(good);
  answer.items = [
    { ...good.items[0] },
    { ...good.items[0], note: "again" },
    { id: "9", status: "missing", evidence: [], note: "?" },
  ];
  assert.deepEqual(problems(await judge(answer)), [
    `/items/1/id: plan item "1" is answered twice (also /items/0): answer it once`,
    `/items/2/id: "9" is not a plan item id: use the ids listed with the plan`,
    `/items: plan item "2" ("Add the flag") has no entry: answer every item`,
  ]);
});

Deno.test("compliance decode refuses places outside the change, past the file end, or reversed", async () => {
  const answer = structuredClone(good);
  answer.items[0].evidence = [
    { file: "README.md", line_start: 1, line_end: 1 }, // in the tree, not in the change
    { file: "./src/plan.ts", line_start: 3, line_end: 11 }, // past the end (10 lines)
    { file: "src/cli.ts", line_start: 5, line_end: 2 },
    { file: "src/old.ts", line_start: 500, line_end: 900 }, // deleted by the change: no line check
  ];
  answer.unplanned_changes[0].file = "/elsewhere/x.ts";
  assert.deepEqual(problems(await judge(answer)), [
    `/items/0/evidence/0/file: "README.md" is not a file this change touches: point at a changed file`,
    `/items/0/evidence/1/line_end: line_end 11 is past the end of "src/plan.ts" (10 lines)`,
    "/items/0/evidence/2/line_end: line_end 2 is before line_start 5",
    `/unplanned_changes/0/file: "/elsewhere/x.ts" is an absolute path outside the repository: use a path relative to the repository root`,
  ]);
});

Deno.test("compliance decode needs evidence for every item that is not missing", async () => {
  const answer = structuredClone(good);
  answer.items[0].evidence = [];
  answer.items[1].status = "partial";
  assert.deepEqual(problems(await judge(answer)), [
    `/items/0/evidence: a "done" item needs at least one place in the change`,
    `/items/1/evidence: a "partial" item needs at least one place in the change`,
  ]);
});

Deno.test("compliance decode refuses a verdict the statuses do not give", async (t) => {
  const cases: [ComplianceAnswer["verdict"], [string, string], string][] = [
    [
      "compliant",
      ["done", "missing"],
      `"compliant" does not match the items: some items are not done and none is contradicted, so answer "incomplete"`,
    ],
    [
      "incomplete",
      ["done", "done"],
      `"incomplete" does not match the items: every item is done, so answer "compliant"`,
    ],
    [
      "incomplete",
      ["contradicted", "done"],
      `"incomplete" does not match the items: an item is contradicted, so answer "deviates"`,
    ],
  ];
  for (const [verdict, statuses, problem] of cases) {
    await t.step(`${verdict} with ${statuses.join("+")}`, async () => {
      const answer = structuredClone(good);
      answer.verdict = verdict;
      answer.items.forEach((item, i) => {
        item.status = statuses[i] as ComplianceAnswer["items"][number]["status"];
        item.evidence = [{ file: "src/cli.ts", line_start: 1, line_end: 2 }];
      });
      assert.deepEqual(problems(await judge(answer)), [`/verdict: ${problem}`]);
    });
  }
});

Deno.test("compliance decode without a change (decode command) only needs places in the tree", async () => {
  const loose = complianceDecoder(items);
  const answer = structuredClone(good);
  answer.items[0].evidence = [{ file: "README.md", line_start: 1, line_end: 4 }];
  const decision = await decode(loose, { value: answer }, tree);
  assert.ok(decision.ok, JSON.stringify(decision));
});
