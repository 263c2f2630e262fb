import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../exec/exec.ts";
import { UsageError } from "../base/errors.ts";
import { loadSuite, SHIPPED_SUITE } from "./suite.ts";
import { buildCaseRepo } from "./case_repo.ts";

/** The kinds issue 23 asks the shipped suite for. */
const DEFECT_KINDS = [
  "off-by-one",
  "inverted-condition",
  "missing-await",
  "resource-leak",
  "injection",
  "race",
  "error-handling",
  "broken-contract",
  "removed-check",
  "cross-file-context",
];
const CLEAN_KINDS = ["refactor", "rename", "formatting", "dependency-bump", "risky-correct"];

/** Write a case folder from repo-relative paths → content. */
async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

const CASE = (oracle: unknown) =>
  JSON.stringify({ title: "t", language: "typescript", kind: "off-by-one", oracle });
const DEFECT = (extra: Record<string, unknown> = {}) =>
  CASE({
    defects: [{ file: "a.ts", line_start: 2, line_end: 2, min_severity: "medium", ...extra }],
  });

async function withSuite(
  files: Record<string, string>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "eval-suite-test-" });
  try {
    await writeFiles(dir, files);
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the shipped suite: 40+ small cases, 5+ languages, every kind of the issue, a third clean", async () => {
  const suite = await loadSuite(SHIPPED_SUITE);
  assert.ok(suite.cases.length >= 40, `${suite.cases.length} cases`);
  assert.ok(new Set(suite.cases.map((c) => c.language)).size >= 5);
  const clean = suite.cases.filter((c) => c.clean);
  assert.ok(clean.length * 3 >= suite.cases.length, `${clean.length} clean cases`);
  const kinds = new Set(suite.cases.map((c) => c.kind));
  for (const kind of [...DEFECT_KINDS, ...CLEAN_KINDS]) assert.ok(kinds.has(kind), kind);
  for (const c of suite.cases) {
    assert.equal(c.clean, CLEAN_KINDS.includes(c.kind), `${c.id}: clean kinds are clean`);
    for (const tree of [c.base, ...(c.change.form === "after" ? [c.change.dir] : [])]) {
      for await (const file of walk(tree)) {
        const lines = (await Deno.readTextFile(file)).split("\n").length;
        assert.ok(lines <= 60, `${file}: ${lines} lines (keep cases small)`);
      }
    }
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else yield path;
  }
}

Deno.test("every shipped case builds, and its oracle points at lines its change touched", async () => {
  const suite = await loadSuite(SHIPPED_SUITE);
  for (const c of suite.cases) {
    const root = await Deno.makeTempDir({ prefix: "eval-case-test-" });
    try {
      const repo = await buildCaseRepo(runProcess, c, root);
      assert.deepEqual(repo.notes, [], c.id);
      assert.ok(repo.changed.size > 0, `${c.id}: the change touches files`);
      assert.notEqual(repo.base, repo.head);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("a case's commits are the same on every build (fixed identity and dates)", async () => {
  const suite = await loadSuite(SHIPPED_SUITE, ["ts/off-by-one"]);
  const heads: string[] = [];
  for (let i = 0; i < 2; i++) {
    const root = await Deno.makeTempDir({ prefix: "eval-case-test-" });
    try {
      heads.push((await buildCaseRepo(runProcess, suite.cases[0], root)).head);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
  assert.equal(heads[0], heads[1]);
});

Deno.test("loadSuite() chooses cases by --cases globs, by folder or by name", async () => {
  const byFolder = await loadSuite(SHIPPED_SUITE, ["go/*"]);
  assert.ok(byFolder.cases.length > 0);
  assert.ok(byFolder.cases.every((c) => c.id.startsWith("go/")));
  const byName = await loadSuite(SHIPPED_SUITE, ["off-by-one", "ts/rename"]);
  assert.deepEqual(
    byName.cases.map((c) => c.id),
    [...byName.cases.map((c) => c.id)].sort(),
    "in id order",
  );
  assert.ok(byName.cases.some((c) => c.id === "ts/rename"));
  assert.ok(byName.cases.filter((c) => c.kind === "off-by-one").length >= 2);
  assert.equal(byName.total, (await loadSuite(SHIPPED_SUITE)).cases.length);
  await assert.rejects(loadSuite(SHIPPED_SUITE, ["nothing-*"]), /No case .* matches --cases/);
});

Deno.test("loadSuite() names what is wrong with a case, before anything runs", async (t) => {
  const bad: [string, Record<string, string>, RegExp][] = [
    ["no case at all", { "README.md": "x" }, /Not an eval suite: no cases found/],
    ["not JSON", { "c/case.json": "{", "c/base/a.ts": "" }, /Invalid c\/case\.json: not JSON/],
    [
      "a severity the schema does not know",
      { "c/case.json": DEFECT({ min_severity: "huge" }), "c/base/a.ts": "", "c/change.patch": "" },
      /Invalid c\/case\.json: "oracle\.defects\.0\.min_severity" must be one of/,
    ],
    [
      "clean and defects at once",
      { "c/case.json": CASE({ clean: true, defects: [] }), "c/base/a.ts": "" },
      /Invalid c\/case\.json: .*oracle.* must NOT have more than 1 properties/,
    ],
    [
      "a range that ends before it starts",
      { "c/case.json": DEFECT({ line_end: 1 }), "c/base/a.ts": "", "c/change.patch": "" },
      /ends at line 1, before its line_start 2/,
    ],
    ["no base", { "c/case.json": DEFECT(), "c/change.patch": "" }, /has no base\/ folder/],
    ["no change", { "c/case.json": DEFECT(), "c/base/a.ts": "" }, /has no change/],
    [
      "two changes",
      { "c/case.json": DEFECT(), "c/base/a.ts": "", "c/after/a.ts": "", "c/change.patch": "" },
      /has both after\/ and change\.patch/,
    ],
  ];
  for (const [name, files, message] of bad) {
    await t.step(name, () =>
      withSuite(files, async (dir) => {
        const error = await loadSuite(dir).then(() => null, (e) => e);
        assert.ok(error instanceof UsageError, `${name}: ${error}`);
        assert.match(error.message, message);
      }));
  }
});

Deno.test("buildCaseRepo() refuses a patch that does not apply, an empty change and oracles off the tree", async (t) => {
  const base = { "c/base/a.ts": "one\ntwo\nthree\n" };
  const bad: [string, Record<string, string>, RegExp][] = [
    [
      "a patch for another file",
      { ...base, "c/case.json": DEFECT(), "c/change.patch": PATCH.replaceAll("a.ts", "b.ts") },
      /change\.patch does not apply to base\//,
    ],
    [
      "an after/ tree equal to base/",
      { ...base, "c/case.json": DEFECT(), "c/after/a.ts": "one\ntwo\nthree\n" },
      /its change changes nothing/,
    ],
    [
      "a defect in a file the change deleted",
      { ...base, "c/case.json": DEFECT(), "c/after/b.ts": "new\n" },
      /its defect's file "a\.ts" is not in the tree after the change/,
    ],
    [
      "a defect past the end of its file",
      { ...base, "c/case.json": DEFECT({ line_end: 9 }), "c/change.patch": PATCH },
      /ends at line 9, past the end of "a\.ts" \(3 lines\)/,
    ],
  ];
  for (const [name, files, message] of bad) {
    await t.step(name, () =>
      withSuite(files, async (dir) => {
        const [evalCase] = (await loadSuite(dir)).cases;
        const root = await Deno.makeTempDir({ dir });
        const error = await buildCaseRepo(runProcess, evalCase, root).then(() => null, (e) => e);
        assert.ok(error instanceof UsageError, `${name}: ${error}`);
        assert.match(error.message, message);
      }));
  }
});

const PATCH = `diff --git a/a.ts b/a.ts
--- a/a.ts
+++ b/a.ts
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
`;

Deno.test("buildCaseRepo() applies change.patch and notes a defect on lines the change kept", async () => {
  const files = {
    "c/base/a.ts": "one\ntwo\nthree\n",
    "c/case.json": DEFECT({ line_start: 3, line_end: 3 }),
    "c/change.patch": PATCH,
  };
  await withSuite(files, async (dir) => {
    const [evalCase] = (await loadSuite(dir)).cases;
    const root = await Deno.makeTempDir({ dir });
    const repo = await buildCaseRepo(runProcess, evalCase, root);
    assert.equal(await Deno.readTextFile(join(root, "a.ts")), "one\nTWO\nthree\n");
    assert.deepEqual([...repo.changed], [["a.ts", [{ start: 2, end: 2 }]]]);
    assert.match(repo.notes.join("\n"), /a\.ts:3-3 is on no line the change added or edited/);
  });
});

Deno.test("buildCaseRepo() sees a change of the same size whose file keeps the base's mtime", async () => {
  const files = {
    "c/base/a.ts": "one\ntwo\nthree\n",
    "c/after/a.ts": "one\nTWO\nthree\n",
    "c/case.json": DEFECT(),
  };
  await withSuite(files, async (dir) => {
    // as a copy that keeps timestamps (a clone on APFS) would leave them: equal size and mtime
    const old = new Date("2020-01-01T00:00:00Z");
    for (const side of ["base", "after"]) Deno.utimeSync(join(dir, "c", side, "a.ts"), old, old);
    const [evalCase] = (await loadSuite(dir)).cases;
    const root = await Deno.makeTempDir({ dir });
    const repo = await buildCaseRepo(runProcess, evalCase, root);
    assert.deepEqual([...repo.changed], [["a.ts", [{ start: 2, end: 2 }]]]);
  });
});

Deno.test("loadSuite() refuses a defect's file outside the case's tree, without reading anything", async (t) => {
  for (
    const file of [
      "../../etc/passwd",
      "/etc/passwd",
      "src/../../x.ts",
      "./a.ts",
      "a//b.ts",
      ".git/config",
      "a\\b.ts",
    ]
  ) {
    await t.step(file, () =>
      withSuite(
        { "c/case.json": DEFECT({ file }), "c/base/a.ts": "", "c/change.patch": "" },
        async (dir) => {
          const error = await loadSuite(dir).then(() => null, (e) => e);
          assert.ok(error instanceof UsageError, `${file}: ${error}`);
          assert.match(
            error.message,
            /Invalid c\/case\.json: "oracle\.defects\.0\.file" .* a path inside the case's tree/,
          );
        },
      ));
  }
});

Deno.test("loadSuite() refuses a case.json that is a symlink (it could lead out of the case)", async () => {
  await withSuite(
    { "c/base/a.ts": "", "c/change.patch": "", "secret.json": DEFECT() },
    async (dir) => {
      await Deno.symlink(join(dir, "secret.json"), join(dir, "c", "case.json"));
      const error = await loadSuite(dir).then(() => null, (e) => e);
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, /c\/case\.json is not a regular file/);
    },
  );
});

Deno.test("buildCaseRepo() refuses a defect's file the patch made a symlink or FIFO, reading nothing through it", async (t) => {
  const outside = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(outside, "secret"), "1\n2\n3\n4\n5\n6\n7\n");
    const fifo = join(outside, "fifo");
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    for (
      const [name, target, file] of [
        ["a symlink to a file outside", join(outside, "secret"), "link.ts"],
        ["a symlink to a FIFO", fifo, "link.ts"],
        ["a file under a symlinked folder", outside, "link.ts/secret"],
      ]
    ) {
      await t.step(name, () =>
        withSuite({
          "c/base/a.ts": "one\n",
          "c/case.json": DEFECT({ file, line_start: 1, line_end: 1 }),
          "c/change.patch":
            `diff --git a/link.ts b/link.ts\nnew file mode 120000\n--- /dev/null\n+++ b/link.ts\n@@ -0,0 +1 @@\n+${target}\n\\ No newline at end of file\n`,
        }, async (dir) => {
          const [evalCase] = (await loadSuite(dir)).cases;
          const root = await Deno.makeTempDir({ dir });
          const error = await buildCaseRepo(runProcess, evalCase, root).then(() => null, (e) => e);
          assert.ok(error instanceof UsageError, `${name}: ${error}`);
          assert.match(error.message, /is not a regular file in the tree after the change/);
          assert.doesNotMatch(
            error.message,
            /7 lines|lines\)/,
            "the outside file's size is not told",
          );
        }));
    }
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("loadSuite() of a folder that is no suite (even /) is a usage error: not an eval suite", async () => {
  for (const dir of ["/"]) {
    const error = await loadSuite(dir).then(() => null, (e) => e);
    assert.ok(error instanceof UsageError, String(error));
    // no case within reach, or too many folders to be one: either way not a suite, exit 2
    assert.match(
      error.message,
      /^Not an eval suite: (no cases found in "\/"|"\/" holds more than)/,
    );
  }
  await withSuite({ "README.md": "x", "a/b/c/d/e/case.json": DEFECT() }, async (dir) => {
    const error = await loadSuite(dir).then(() => null, (e) => e);
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, /Not an eval suite: no cases found .* within 4 folders/);
  });
});
