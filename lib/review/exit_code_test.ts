import { equal } from "node:assert/strict";
import { exitCodeFor } from "./exit_code.ts";

Deno.test("exitCodeFor() maps every status to the contract exit code", () => {
  equal(exitCodeFor("approved", false), 0);
  equal(exitCodeFor("nothing-to-review", false), 0);
  equal(exitCodeFor("needs-attention", false), 0);
  equal(exitCodeFor("needs-attention", true), 1);
  equal(exitCodeFor("invalid-answer", false), 3);
  equal(exitCodeFor("provider-error", false), 3);
  equal(exitCodeFor("timeout", false), 3);
  equal(exitCodeFor("interrupted", false), 130);
});
