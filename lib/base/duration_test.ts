import assert from "node:assert/strict";
import { parseAge } from "./duration.ts";

Deno.test("parseAge() reads a whole number and a unit, and nothing else", () => {
  assert.equal(parseAge("0s"), 0);
  assert.equal(parseAge("90m"), 90 * 60_000);
  assert.equal(parseAge("12h"), 12 * 3_600_000);
  assert.equal(parseAge(" 30d "), 30 * 86_400_000);
  assert.equal(parseAge("2w"), 14 * 86_400_000);
  for (const bad of ["", "30", "d", "1.5d", "-1d", "1y", "7 d", "1dd"]) {
    assert.equal(parseAge(bad), null, bad);
  }
});
