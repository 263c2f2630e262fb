import assert from "node:assert/strict";
import { formatCount } from "./text.ts";

Deno.test("formatCount() writes what toLocaleString('en-US') writes", () => {
  const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 12345, 123456, 1234567, -1, -999, -1000];
  for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n *= 7) values.push(n, n + 1, -n);
  values.push(Number.MAX_SAFE_INTEGER, -0, 0.5, 1234.5678, Infinity, NaN);
  for (const n of values) assert.equal(formatCount(n), n.toLocaleString("en-US"), String(n));
});
