import assert from "node:assert/strict";
import { ToolBound } from "./tool_bound.ts";

const bound = { what: "tool calls", starts: (line: string) => line.startsWith("T") };
const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("ToolBound counts whole lines across chunks and aborts on the call past the limit", () => {
  const b = new ToolBound(bound, 2);
  b.onStdout(bytes("T1\nx\nT"));
  b.onStdout(bytes("2\n"));
  assert.equal(b.tripped, false, "two calls are within a limit of two");
  assert.equal(b.signal.aborted, false);
  b.onStdout(bytes("T3"));
  assert.equal(b.tripped, false, "a line counts once it is complete");
  b.onStdout(bytes("\n"));
  assert.equal(b.tripped, true);
  assert.equal(b.signal.aborted, true);
  assert.equal(new TextDecoder().decode(b.stdout()), "T1\nx\nT2\nT3\n", "stdout is kept whole");
  assert.match(b.message("codex"), /codex started more than 2 tool calls.*max_turns 2/);
});

Deno.test("ToolBound passes the parent's abort on without tripping", () => {
  const parent = new AbortController();
  const b = new ToolBound(bound, 5, parent.signal);
  parent.abort();
  assert.equal(b.signal.aborted, true);
  assert.equal(b.tripped, false);
});
