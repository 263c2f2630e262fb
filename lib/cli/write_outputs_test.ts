import assert from "node:assert/strict";
import { inertMarkdown } from "../base/inert_markdown.ts";
import { assertInert } from "../../test/markdown/inert_check.ts";
import { STEP_SUMMARY_MAX_BYTES, stepSummaryText } from "./write_outputs.ts";

Deno.test("stepSummaryText() keeps a review that fits whole", () => {
  assert.equal(stepSummaryText("# Review: approved\n"), "# Review: approved\n\n");
});

Deno.test("stepSummaryText() cuts an oversized review at a line break, leaving no code span open", () => {
  // each line holds a model's URL in a code span: a cut inside one would leave it a bare link
  const lines = Array.from(
    { length: 30_000 },
    (_, i) => `- ${inertMarkdown(`see http://attacker.test/${"x".repeat(i % 7)}?d=${i}`, "line")}`,
  );
  const markdown = lines.join("\n") + "\n";
  assert.ok(new TextEncoder().encode(markdown).byteLength > STEP_SUMMARY_MAX_BYTES);
  const text = stepSummaryText(markdown);
  assert.ok(new TextEncoder().encode(text).byteLength <= STEP_SUMMARY_MAX_BYTES);
  const [kept, note] = text.split("\n\n…");
  assert.match(note, /^ \(cut: the job summary holds 1 MiB/);
  const keptLines = kept.split("\n").filter((l) => l !== "");
  assert.deepEqual(keptLines, lines.slice(0, keptLines.length), "whole lines only");
  assertInert(text.slice(-4000).replace(/^[^\n]*\n/, ""), { headings: [] });
});
