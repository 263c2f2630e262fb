/**
 * No code span of the README or docs/ is broken across lines (test/docs/code_spans.ts): each
 * command or name a reader copies is on one line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { brokenSpans } from "./code_spans.ts";
import { ROOT } from "./repo_files.ts";

Deno.test("brokenSpans() finds a span over a line break, and only that", () => {
  const text = "a `one` b `two\n  lines` c\n\n```sh\n`not a span\n```\nd ``x ` y`` e \\`f\n";
  assert.deepEqual(brokenSpans(text).map((s) => [s.line, s.text]), [[1, "`two\n  lines`"]]);
  assert.deepEqual(brokenSpans("`open\n\nnever closed`"), [], "a blank line ends the paragraph");
});

Deno.test("README.md and docs/*.md keep every code span on one line", () => {
  const files = [
    "README.md",
    ...[...Deno.readDirSync(join(ROOT, "docs"))]
      .filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => `docs/${e.name}`),
  ];
  const broken = files.flatMap((file) =>
    brokenSpans(Deno.readTextFileSync(join(ROOT, file))).map((s) =>
      `${file}:${s.line}: ${JSON.stringify(s.text)}`
    )
  );
  assert.deepEqual(broken, []);
});
