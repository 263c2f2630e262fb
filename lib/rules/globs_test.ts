import assert from "node:assert/strict";
import { compileEach, compileGlobs, firstMatch, normaliseGlob } from "./globs.ts";

Deno.test("compileGlobs() matches gitignore-like: names anywhere, slashes from the root, dirs", async (t) => {
  const cases: [string, string, boolean][] = [
    ["*.min.js", "web/app.min.js", true],
    ["*.min.js", "app.min.js", true],
    ["package-lock.json", "sub/pkg/package-lock.json", true],
    ["src/db/**", "src/db/a/b.ts", true],
    ["src/db/**", "lib/src/db/a.ts", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["dist/", "dist/a.js", true],
    ["dist/", "pkg/dist/a/b.js", true],
    ["dist/", "distance.ts", false],
    ["src/gen/", "src/gen/a.ts", true],
    ["src/gen/", "lib/src/gen/a.ts", false],
    ["/build/", "build/x", true],
    ["/build/", "a/build/x", false],
    [".github/**", ".github/workflows/ci.yml", true],
    ["*.ts", ".hidden.ts", true],
    ["{a,b}.txt", "dir/b.txt", true],
  ];
  for (const [glob, path, expected] of cases) {
    await t.step(`${glob} ${expected ? "matches" : "does not match"} ${path}`, () => {
      assert.equal(compileGlobs([glob])(path), expected);
    });
  }
  await t.step("no glob matches nothing", () => assert.equal(compileGlobs([])("a"), false));
});

Deno.test("normaliseGlob() and firstMatch() name the glob that matched", () => {
  assert.deepEqual(normaliseGlob("dist/"), { pattern: "**/dist/**", basename: false });
  assert.deepEqual(normaliseGlob("/a.txt"), { pattern: "a.txt", basename: false });
  const list = compileEach(["*.md", "docs/"]);
  assert.equal(firstMatch(list, "docs/a.txt"), "docs/");
  assert.equal(firstMatch(list, "src/a.ts"), null);
});
