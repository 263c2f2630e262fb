import assert from "node:assert/strict";
import { decode } from "./decoder.ts";
import { depthRefusal, MAX_ANSWER_DEPTH, textDepth, valueDepth } from "./depth.ts";
import { memoryTree } from "./memory_tree.ts";
import type { DecoderKind, JsonSchema } from "./types.ts";
import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };

const tree = memoryTree("/repo", { "a.ts": 10 });

/** The review schema with no coherence step: these tests stop before it. */
const kind: DecoderKind<unknown> = {
  name: "review",
  schema: reviewSchema as JsonSchema,
  check: (value) => Promise.resolve({ answer: value, notes: [], refusal: [] }),
};

/** `[[[…]]]` nested `n` levels deep, as text and as a value. */
function nested(n: number): { text: string; value: unknown } {
  const value: unknown[] = [];
  let cur = value;
  for (let i = 1; i < n; i++) {
    const next: unknown[] = [];
    cur.push(next);
    cur = next;
  }
  return { text: "[".repeat(n) + "]".repeat(n), value };
}

Deno.test("textDepth() counts brackets outside strings only", async (t) => {
  const cases: [string, number][] = [
    ["1", 0],
    ["{}", 1],
    ['{"a":[1,{"b":2}]}', 3],
    ['{"a":"[[[{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    ["]]][", 1],
    ["```json\n[[]]\n```", 2],
  ];
  for (const [text, depth] of cases) {
    await t.step(text, () => assert.equal(textDepth(text), depth));
  }
});

Deno.test("valueDepth() measures 10,000 levels without overflowing the stack", () => {
  assert.equal(valueDepth("x"), 0);
  assert.equal(valueDepth({ a: [1, { b: [] }] }), 4);
  assert.equal(valueDepth(nested(10_000).value), 10_000);
});

Deno.test("depthRefusal() refuses only past the limit", () => {
  assert.deepEqual(depthRefusal(MAX_ANSWER_DEPTH), []);
  const [refusal] = depthRefusal(MAX_ANSWER_DEPTH + 1);
  assert.equal(refusal.path, "");
  assert.match(refusal.problem, /^the answer is nested 65 levels deep \(at most 64\)/);
});

Deno.test("decode() refuses an answer nested 10,000 levels deep instead of crashing", async (t) => {
  const deep = nested(10_000);
  await t.step("text (20 KB)", async () => {
    const decision = await decode(kind, { text: deep.text }, tree);
    assert.equal(decision.ok, false);
    if (decision.ok) return;
    assert.equal(decision.refusal.length, 1);
    assert.match(decision.refusal[0].problem, /nested 10000 levels deep \(at most 64\)/);
  });
  await t.step("text inside a valid-looking object", async () => {
    const text = `{"verdict":"approve","summary":"s","findings":[],"next_steps":${deep.text}}`;
    const decision = await decode(kind, { text }, tree);
    assert.ok(!decision.ok && /nested 10001 levels/.test(decision.refusal[0].problem));
  });
  await t.step("structured_output value", async () => {
    const decision = await decode(kind, { value: deep.value }, tree);
    assert.ok(!decision.ok && /nested 10000 levels/.test(decision.refusal[0].problem));
  });
  await t.step("64 levels still reach the schema", async () => {
    const decision = await decode(kind, { text: nested(64).text }, tree);
    assert.ok(!decision.ok && !/nested/.test(decision.refusal[0].problem));
  });
});
