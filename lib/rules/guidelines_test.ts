import assert from "node:assert/strict";
import { chooseGuidelines, compilePathInstructions, guidelineCandidates } from "./guidelines.ts";
import type { RuleFileText } from "./source.ts";

const file = (text: string): RuleFileText => ({ text, bytes: text.length, truncated: false });

Deno.test("guidelineCandidates() lists REVIEW.md in every directory above a changed path", () => {
  assert.deepEqual(guidelineCandidates(["src/db/q.ts", "src/app.ts", "README.md"]), [
    "REVIEW.md",
    "src/REVIEW.md",
    "src/db/REVIEW.md",
  ]);
});

Deno.test("chooseGuidelines() picks what applies to the paths, in order", async () => {
  const files = new Map([
    ["REVIEW.md", file("root rule\n")],
    ["src/db/REVIEW.md", file("db rule\n")],
    ["docs/REVIEW.md", file("docs rule\n")],
    ["src/REVIEW.md", file("   \n")],
  ]);
  const chosen = chooseGuidelines({
    paths: ["src/db/q.ts"],
    files,
    instructions: "be kind",
    pathInstructions: await compilePathInstructions([
      { paths: ["*.sql"], instructions: "sql rule" },
      { paths: ["src/db/**"], instructions: "db path rule" },
    ]),
    budgetBytes: 16384,
  });
  assert.deepEqual(chosen.applied.map((g) => [g.source, g.appliesTo, g.text]), [
    ["config instructions", "the whole repository", "be kind"],
    ["REVIEW.md", "the whole repository", "root rule"],
    ["src/db/REVIEW.md", "src/db/", "db rule"],
    ["config path_instructions[1]", 'paths matching "src/db/**"', "db path rule"],
  ]);
  assert.deepEqual(chosen.leftOut, []);
});

Deno.test("chooseGuidelines() cuts at a line to fit the budget and names what is left out", () => {
  const long = Array.from({ length: 100 }, (_, i) => `rule line ${i}`).join("\n");
  const chosen = chooseGuidelines({
    paths: ["a/b.ts"],
    files: new Map([["REVIEW.md", file(long)], ["a/REVIEW.md", file("nested")]]),
    pathInstructions: [],
    budgetBytes: 600,
  });
  const [root] = chosen.applied;
  assert.equal(chosen.applied.length, 1);
  assert.ok(new TextEncoder().encode(root.text).length <= 600);
  assert.ok(root.text.endsWith(`rule line ${root.text.split("\n").length - 1}`), "whole lines");
  assert.match(root.cut!, /^first \d+ of 1289 bytes$/);
  assert.deepEqual(chosen.leftOut, [
    { source: "a/REVIEW.md", reason: "guidelines budget of 600 bytes used up" },
  ]);
});
