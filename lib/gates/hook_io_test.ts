import { equal } from "node:assert/strict";
import { hooksSwitchedOff, reviewGateSkips } from "./hook_io.ts";

Deno.test("hooksSwitchedOff() skips on every spelling of REVIEW_GATE off and on REVIEW_GATE_CHILD=1", () => {
  const cases: [Record<string, string | undefined>, boolean][] = [
    [{}, false],
    [{ REVIEW_GATE: "0" }, true],
    [{ REVIEW_GATE: "false" }, true],
    [{ REVIEW_GATE: "FALSE" }, true],
    [{ REVIEW_GATE: " Off " }, true],
    [{ REVIEW_GATE: "no" }, true],
    [{ REVIEW_GATE: "NO\n" }, true],
    [{ REVIEW_GATE: "1" }, false],
    [{ REVIEW_GATE: "" }, false],
    [{ REVIEW_GATE: "nope" }, false],
    [{ REVIEW_GATE: "true" }, false],
    [{ REVIEW_GATE_CHILD: "1" }, true],
    [{ REVIEW_GATE_CHILD: "0" }, false],
  ];
  for (const [env, expected] of cases) {
    equal(hooksSwitchedOff(env), expected, JSON.stringify(env));
  }
  equal(
    reviewGateSkips({ REVIEW_GATE_CHILD: "1" }),
    false,
    "the child guard is not the user switch",
  );
});
