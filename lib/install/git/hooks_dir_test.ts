import assert from "node:assert/strict";
import { huskyDirOf } from "./hooks_dir.ts";

Deno.test("huskyDirOf() recognises husky 9 and husky 5-8 layouts only", () => {
  assert.equal(huskyDirOf("/r/.husky/_"), "/r/.husky");
  assert.equal(huskyDirOf("/r/.husky"), "/r/.husky");
  assert.equal(huskyDirOf("/r/.git/hooks"), null);
  assert.equal(huskyDirOf("/r/x/_"), null);
});
