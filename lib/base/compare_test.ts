import assert from "node:assert/strict";
import { compareCodeUnits } from "./compare.ts";

Deno.test("compareCodeUnits() orders as the default sort does, never by the machine's locale", () => {
  const words = ["é", "f", "B", "a", "ö", "z", "o", "", "a", "Z", "ä", "\u{1F600}", "\uFFFF"];
  assert.deepEqual([...words].sort(compareCodeUnits), [...words].sort());
  // the orders `localeCompare` gives in Swedish and in English differ; code units give one
  assert.notDeepEqual(
    ["ö", "z"].sort((a, b) => a.localeCompare(b, "sv")),
    ["ö", "z"].sort((a, b) => a.localeCompare(b, "en")),
  );
  assert.deepEqual(["ö", "z", "o"].sort(compareCodeUnits), ["o", "z", "ö"]);
  assert.equal(compareCodeUnits("a", "a"), 0);
  assert.ok(compareCodeUnits("B", "a") < 0 && compareCodeUnits("a", "B") > 0);
});
