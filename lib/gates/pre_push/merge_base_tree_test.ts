import assert from "node:assert/strict";
import { type ExecRequest, type ExecResult, runProcess } from "../../exec/exec.ts";
import { MAX_MERGED_PARENTS, mergeBaseTree, pushedMergeParents } from "./merge_base_tree.ts";
import { commitFile, git, makeRepo } from "../../git/_testing.ts";

Deno.test("pushedMergeParents() lists merged parents outside the rows, oldest merge first", () => {
  const table: { rows: string[][]; want: string[] }[] = [
    { rows: [], want: [] },
    { rows: [["c", "b"], ["b", "a"]], want: [] },
    { rows: [["m", "b", "x"], ["b", "a"]], want: ["x"] },
    { rows: [["m", "b", "t"], ["t", "a"], ["b", "a"]], want: [] },
    { rows: [["m2", "m1", "y"], ["m1", "b", "x"], ["b", "a"]], want: ["x", "y"] },
    { rows: [["m2", "m1", "x"], ["m1", "b", "x", "z"], ["b", "a"]], want: ["x", "z"] },
  ];
  for (const { rows, want } of table) {
    assert.deepEqual(pushedMergeParents(rows), want, JSON.stringify(rows));
  }
});

Deno.test("mergeBaseTree() merges the base with each parent in turn, or gives null on a conflict", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const base = await git(repo, ["rev-parse", "HEAD"]);
    const branch = async (name: string, file: string, text: string) => {
      await git(repo, ["switch", "-q", "-c", name, base]);
      return await commitFile(repo, file, text, name);
    };
    const one = await branch("one", "one.txt", "1\n");
    const two = await branch("two", "two.txt", "2\n");
    const clash = await branch("clash", "one.txt", "not 1\n");
    const tree = await mergeBaseTree(runProcess, repo, { base, parents: [one, two] });
    assert.ok(tree);
    assert.deepEqual(
      (await git(repo, ["ls-tree", "--name-only", tree])).split("\n"),
      ["README.md", "one.txt", "two.txt"],
    );
    assert.equal(await mergeBaseTree(runProcess, repo, { base, parents: [one, clash] }), null);
    assert.equal(await mergeBaseTree(runProcess, repo, { base: one, parents: [clash] }), null);
    assert.equal(
      await git(repo, ["for-each-ref", "--format=%(refname)"]),
      "refs/heads/clash\nrefs/heads/main\nrefs/heads/one\nrefs/heads/two",
      "no ref is created",
    );
  } finally {
    await cleanup();
  }
});

Deno.test("mergeBaseTree() gives null for an old git, a failure, no parent or too many", async () => {
  const calls: string[][] = [];
  const fail = (code: number) => (request: ExecRequest): Promise<ExecResult> => {
    calls.push([...request.args ?? []]);
    return Promise.resolve({
      code,
      stdout: new Uint8Array(),
      stderr: new TextEncoder().encode("error: unknown option `write-tree'"),
      durationMs: 1,
      timedOut: false,
      aborted: false,
      truncated: false,
    });
  };
  const c = "c".repeat(40);
  assert.equal(await mergeBaseTree(fail(129), "/nowhere", { base: c, parents: [c] }), null);
  assert.equal(await mergeBaseTree(fail(0), "/nowhere", { base: c, parents: [c] }), null);
  assert.equal(calls.length, 2);
  assert.ok(calls[0].includes("--write-tree"));
  const many = Array.from({ length: MAX_MERGED_PARENTS + 1 }, () => c);
  assert.equal(await mergeBaseTree(fail(0), "/nowhere", { base: c, parents: many }), null);
  assert.equal(await mergeBaseTree(fail(0), "/nowhere", { base: c, parents: [] }), null);
  assert.equal(calls.length, 2, "no git call without work to do");
});
