import assert from "node:assert/strict";
import { runProcess } from "../exec/exec.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { readBlobsForChecks } from "./blob_read.ts";

Deno.test("readBlobsForChecks() reads blobs by id in two git calls; a tree or a missing id is not read", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n", "b.bin": new Uint8Array([0, 1, 10, 2]) });
  try {
    const r = await resolveRepo(runProcess, repo.root);
    const id = async (spec: string) => (await repo.git("rev-parse", spec)).trim();
    const [a, b, tree] = [await id("HEAD:a.txt"), await id("HEAD:b.bin"), await id("HEAD^{tree}")];
    const missing = "0123456789012345678901234567890123456789";
    let calls = 0;
    const counting = (req: Parameters<typeof runProcess>[0]) => (calls++, runProcess(req));
    const read = await readBlobsForChecks(counting, r, [a, b, a, tree, missing]);
    assert.equal(calls, 2, "--batch-check, then --batch");
    assert.equal(new TextDecoder().decode(read.get(a) as Uint8Array), "one\n");
    assert.deepEqual(
      [...(read.get(b) as Uint8Array)],
      [0, 1, 10, 2],
      "bytes as they are, LF included",
    );
    assert.equal(read.has(tree), false);
    assert.equal(read.has(missing), false);
    assert.equal((await readBlobsForChecks(counting, r, [])).size, 0);
    assert.equal(calls, 2, "nothing to read: no git call");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("readBlobsForChecks() does not read a blob past its bounds, and says why", async () => {
  const repo = await makeTestRepo({ "big.txt": "x".repeat(3000), "a.txt": "a\n", "b.txt": "b\n" });
  try {
    const r = await resolveRepo(runProcess, repo.root);
    const id = async (spec: string) => (await repo.git("rev-parse", spec)).trim();
    const [big, a, b] = [await id("HEAD:big.txt"), await id("HEAD:a.txt"), await id("HEAD:b.txt")];
    const read = await readBlobsForChecks(runProcess, r, [big, a, b], { file: 1024, total: 2 });
    assert.match(
      String(read.get(big)),
      /^it is too large to check its content \(3000 B; at most 1024 B are read\)$/,
    );
    assert.ok(read.get(a) instanceof Uint8Array, "the first small blob fits the change's bound");
    assert.match(String(read.get(b)), /^the content checks of this change already read/);
  } finally {
    await repo.cleanup();
  }
});
