import assert from "node:assert/strict";
import { readJsonLines, textAnswer, withStderr } from "./jsonl_answer.ts";

Deno.test("readJsonLines(): objects only, one a line; prose, broken JSON and arrays skipped", () => {
  const stdout = 'note\n{"type":"a"}\n{"type":\n[1]\n{"type":"b","n":2}\n';
  assert.deepEqual(readJsonLines(stdout), [{ type: "a" }, { type: "b", n: 2 }]);
});

Deno.test("withStderr(): names stderr only when it has text", () => {
  assert.equal(withStderr("X failed", ""), "X failed");
  assert.match(withStderr("X failed", "boom\n"), /^X failed; stderr: .*boom/);
});

Deno.test("textAnswer(): an empty or blank text is refused with the problem, else an answer", () => {
  const meta = { sessionId: "s" };
  assert.deepEqual(textAnswer(meta, " \n", "no text"), {
    sessionId: "s",
    outcome: "refused",
    text: "",
    problem: "no text",
  });
  assert.deepEqual(textAnswer(meta, "{}", "no text"), {
    sessionId: "s",
    outcome: "answer",
    text: "{}",
  });
});
