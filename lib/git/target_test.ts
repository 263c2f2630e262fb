import assert from "node:assert/strict";
import { UsageError } from "../base/errors.ts";
import { runProcess } from "../exec/exec.ts";
import { EMPTY_TREE, resolveRepo } from "./repo.ts";
import { parseRangeSpec, resolveTarget } from "./target.ts";
import { makeTestRepo } from "./test_repo.ts";

Deno.test("parseRangeSpec() reads A..B and A...B, a side left out being HEAD as in git", () => {
  const table: [string, unknown][] = [
    ["main..HEAD", { kind: "range", from: "main", to: "HEAD", mergeBase: false }],
    ["main...feature", { kind: "range", from: "main", to: "feature", mergeBase: true }],
    ["v1.0..v1.1", { kind: "range", from: "v1.0", to: "v1.1", mergeBase: false }],
    ["main..", { kind: "range", from: "main", to: "HEAD", mergeBase: false }],
    ["..main", { kind: "range", from: "HEAD", to: "main", mergeBase: false }],
    ["main...", { kind: "range", from: "main", to: "HEAD", mergeBase: true }],
    ["...main", { kind: "range", from: "HEAD", to: "main", mergeBase: true }],
  ];
  for (const [spec, expected] of table) assert.deepEqual(parseRangeSpec(spec), expected, spec);
  for (const bad of ["main", "..", "...", "a....b", "a.....b"]) {
    assert.throws(
      () => parseRangeSpec(bad),
      (e: Error) => e instanceof UsageError && e.message.includes('write it as "A..B" or "A...B"'),
      bad,
    );
  }
});

Deno.test("resolveTarget() resolves every target kind", async () => {
  const repo = await makeTestRepo({ "a.txt": "1\n" });
  try {
    const c1 = (await repo.git("rev-parse", "HEAD")).trim();
    await repo.git("checkout", "-q", "-b", "feature");
    await repo.write("a.txt", "2\n");
    await repo.git("commit", "-qam", "two");
    const c2 = (await repo.git("rev-parse", "HEAD")).trim();
    await repo.git("checkout", "-q", "main");
    await repo.write("b.txt", "b\n");
    await repo.git("add", "b.txt");
    await repo.git("commit", "-qm", "three");
    const c3 = (await repo.git("rev-parse", "HEAD")).trim();
    await repo.git("checkout", "-q", "feature");
    const r = await resolveRepo(runProcess, repo.root);
    const table: [Parameters<typeof resolveTarget>[2], unknown][] = [
      [{ kind: "worktree" }, { from: c2, to: "worktree", label: "working tree" }],
      [{ kind: "staged" }, { from: c2, to: "index", label: "staged changes" }],
      [{ kind: "base", ref: "main" }, { from: c1, to: c2, label: "main...HEAD" }],
      [{ kind: "range", from: "main", to: "feature" }, {
        from: c3,
        to: c2,
        label: "main..feature",
      }],
      [
        { kind: "range", from: "main", to: "feature", mergeBase: true },
        { from: c1, to: c2, label: "main...feature" },
      ],
      [{ kind: "commit", sha: c2 }, { from: c1, to: c2, label: `commit ${c2.slice(0, 7)}` }],
      [{ kind: "commit", sha: c1 }, {
        from: EMPTY_TREE.sha1,
        to: c1,
        label: `commit ${c1.slice(0, 7)}`,
      }],
    ];
    for (const [target, expected] of table) {
      assert.deepEqual(
        await resolveTarget(runProcess, r, target),
        expected,
        JSON.stringify(target),
      );
    }
    const tree = await resolveTarget(runProcess, r, { kind: "tree", from: c1, to: c2, label: "x" });
    assert.equal(tree.from, (await repo.git("rev-parse", `${c1}^{tree}`)).trim());
    assert.equal(tree.label, "x");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveTarget() refuses unknown refs with a UsageError naming them", async () => {
  const repo = await makeTestRepo({ "a.txt": "1\n" });
  try {
    const r = await resolveRepo(runProcess, repo.root);
    const cases: Parameters<typeof resolveTarget>[2][] = [
      { kind: "base", ref: "nope" },
      { kind: "range", from: "main", to: "nope" },
      { kind: "commit", sha: "nope" },
      { kind: "tree", from: "nope", to: "main", label: "x" },
    ];
    for (const target of cases) {
      await assert.rejects(resolveTarget(runProcess, r, target), (e: unknown) => {
        assert.ok(e instanceof UsageError, JSON.stringify(target));
        assert.match(e.message, /Unknown revision "nope"/);
        return true;
      });
    }
    await assert.rejects(
      resolveTarget(runProcess, r, { kind: "base", ref: "--all" }),
      /Invalid revision "--all"/,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveTarget() uses the empty tree on an unborn branch and refuses --base", async () => {
  const repo = await makeTestRepo();
  try {
    const r = await resolveRepo(runProcess, repo.root);
    assert.deepEqual(await resolveTarget(runProcess, r, { kind: "staged" }), {
      from: EMPTY_TREE.sha1,
      to: "index",
      label: "staged changes",
    });
    await assert.rejects(resolveTarget(runProcess, r, { kind: "base", ref: "main" }), UsageError);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveTarget() on an unborn branch says there is no commit yet, not 'unknown revision'", async () => {
  const repo = await makeTestRepo();
  try {
    const empty = await resolveRepo(runProcess, repo.root);
    const none =
      /: this repository has no commits yet; review the working tree \(the default\) or --staged instead$/;
    for (
      const [target, flag] of [
        [{ kind: "commit", sha: "HEAD" }, "--commit HEAD"],
        [{ kind: "range", from: "main", to: "HEAD" }, "--range main..HEAD"],
        [{ kind: "range", from: "HEAD~1", to: "HEAD", mergeBase: true }, "--range HEAD~1...HEAD"],
      ] as const
    ) {
      await assert.rejects(
        resolveTarget(runProcess, empty, target),
        (e: Error) =>
          e instanceof UsageError && e.message.startsWith(`Cannot review ${flag}`) &&
          none.test(e.message),
        flag,
      );
    }
    // another branch has commits: HEAD has none yet; other names resolve or are unknown as usual
    await repo.write("a.txt", "1\n");
    await repo.git("add", "a.txt");
    await repo.git("commit", "-qm", "one");
    await repo.git("checkout", "-q", "--orphan", "fresh");
    const orphan = await resolveRepo(runProcess, repo.root);
    await assert.rejects(
      resolveTarget(runProcess, orphan, { kind: "commit", sha: "HEAD" }),
      /^UsageError: Cannot review --commit HEAD: the branch has no commit yet;/,
    );
    await assert.rejects(
      resolveTarget(runProcess, orphan, { kind: "commit", sha: "nope" }),
      /Unknown revision "nope"/,
    );
    const main = await resolveTarget(runProcess, orphan, { kind: "commit", sha: "main" });
    assert.equal(main.from, EMPTY_TREE.sha1);
  } finally {
    await repo.cleanup();
  }
});
