import assert from "node:assert/strict";
import { renderLineDiff } from "./line_diff.ts";

Deno.test("renderLineDiff() marks removed and added lines and collapses long unchanged runs", () => {
  assert.equal(renderLineDiff("a\n", "a\n"), "");
  assert.equal(renderLineDiff("", "x\n"), "+ x\n");
  assert.equal(renderLineDiff("a\nb\nc\n", "a\nB\nc\n"), "  a\n- b\n+ B\n  c\n");
  const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n") + "\n";
  const after = before.replace("l10\n", "L10\n");
  const diff = renderLineDiff(before, after);
  assert.match(diff, /… 7 unchanged lines/);
  assert.match(diff, /- l10\n\+ L10/);
  assert.match(renderLineDiff("a", "a\n"), /no newline at end of file/);
});
