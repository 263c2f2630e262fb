import assert from "node:assert/strict";
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { compileEach, compileGlobs, firstMatch, isPlainGlob, normaliseGlob } from "./globs.ts";
import { DEFAULT_EXCLUDES } from "./filters.ts";

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
    await t.step(`${glob} ${expected ? "matches" : "does not match"} ${path}`, async () => {
      assert.equal((await compileGlobs([glob]))(path), expected);
    });
  }
  await t.step("no glob matches nothing", async () => {
    assert.equal((await compileGlobs([]))("a"), false);
  });
});

Deno.test("normaliseGlob() and firstMatch() name the glob that matched", async () => {
  assert.deepEqual(normaliseGlob("dist/"), { pattern: "**/dist/**", basename: false });
  assert.deepEqual(normaliseGlob("/a.txt"), { pattern: "a.txt", basename: false });
  const list = await compileEach(["*.md", "docs/"]);
  assert.equal(firstMatch(list, "docs/a.txt"), "docs/");
  assert.equal(firstMatch(list, "src/a.ts"), null);
});

/** Paths that probe the simple shapes' edges: exact names, suffixes alone, dot names, depths. */
const PROBES = [
  "dist",
  "dist/a",
  "dist/a/b.js",
  "a/dist",
  "a/dist/b",
  "distx/a",
  "xdist/a",
  ".dist/a",
  "build",
  "build/x",
  "a/build/x",
  "src/gen",
  "src/gen/a.ts",
  "src/generated/a.ts",
  "lib/src/gen/a.ts",
  "__snapshots__",
  "__snapshots__/x",
  "a/__snapshots__",
  "a/__snapshots__/b/c.snap",
  "x__snapshots__/y",
  "a/__snapshots__x/y",
  ".min.js",
  "a.min.js",
  "a/b.min.js",
  "a/b.min.js.map",
  "min.js",
  "a/min.js",
  ".snap",
  "a/.snap",
  "x.snap",
  "x.snapshot",
  "package-lock.json",
  "a/package-lock.json",
  "package-lock.jsonx",
  "xpackage-lock.json",
  "Package-lock.json",
  "a/b/c/yarn.lock",
  "README.md",
  ".github/workflows/ci.yml",
  "._",
  "._guide.md",
  "docs/._guide.md",
  "docs/a._b",
  "x._",
  ".DS_Store",
  "src/deep/.DS_Store",
];

Deno.test("compileGlobs() gives picomatch's answer for every glob it matches without picomatch", () => {
  const globs = [
    ...DEFAULT_EXCLUDES.flatMap((d) => d.globs),
    "src/gen/",
    "/src/gen/",
    "dist/",
    "*.ts",
    "*.md",
    "README.md",
    "/README.md",
    ".github/",
  ];
  return Promise.all(globs.map(async (glob) => {
    const ours = await compileGlobs([glob]);
    const { pattern, basename } = normaliseGlob(glob);
    const theirs = picomatch(pattern, { dot: true, basename });
    for (const path of PROBES) {
      assert.equal(ours(path), theirs(path), `${glob} on ${path}`);
    }
  })).then(() => undefined);
});

Deno.test("every default exclude is matched without picomatch (no Node compatibility on a review)", () => {
  const loaded = DEFAULT_EXCLUDES.flatMap((d) => d.globs).filter((glob) => !isPlainGlob(glob));
  assert.deepEqual(loaded, []);
});
