import assert from "node:assert/strict";
import { normaliseRepoPath, stripDiffPrefix } from "./repo_path.ts";

const accepted: [string, string][] = [
  ["src/a.ts", "src/a.ts"],
  ["./src/a.ts", "src/a.ts"],
  ["/repo/src/a.ts", "src/a.ts"],
  ["src//x/../a.ts", "src/a.ts"],
  [" src/a.ts ", "src/a.ts"],
];
for (const [input, expected] of accepted) {
  Deno.test(`normaliseRepoPath() turns "${input}" into "${expected}"`, () => {
    const result = normaliseRepoPath(input, "/repo");
    assert.ok(result.ok);
    assert.equal(result.path, expected);
    assert.equal(result.changes.length > 0, input !== expected);
  });
}

for (
  const input of [
    "../x.ts",
    "src/../../x.ts",
    "/etc/passwd",
    "/repository/a.ts",
    "C:\\repo\\a.ts",
    "./",
    "/repo/",
  ]
) {
  Deno.test(`normaliseRepoPath() refuses "${input}"`, () => {
    assert.equal(normaliseRepoPath(input, "/repo").ok, false);
  });
}

Deno.test("stripDiffPrefix() strips a/ and b/ only", () => {
  assert.equal(stripDiffPrefix("a/src/x.ts"), "src/x.ts");
  assert.equal(stripDiffPrefix("b/x.ts"), "x.ts");
  assert.equal(stripDiffPrefix("ab/x.ts"), null);
  assert.equal(stripDiffPrefix("c/x.ts"), null);
});
