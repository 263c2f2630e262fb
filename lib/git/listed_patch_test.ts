import assert from "node:assert/strict";
import type { ExecRequest, ExecResult } from "../exec/exec.ts";
import { runProcess } from "../exec/exec.ts";
import { ListingScanner, streamListedPatch } from "./listed_patch.ts";
import { makeTestRepo } from "./test_repo.ts";

const PATCH = ["-p", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/"];

/** A change with every listing shape: renames, binary files, paths with tabs, newlines, colons. */
async function oddChange() {
  const repo = await makeTestRepo({
    "plain.txt": "a\n",
    "tab\tname": "x\n",
    ":colon": "c\n",
    "new\nline": "n\n",
    "old name": "r\nr\nr\nr\nr\n",
    "bin.dat": new Uint8Array([0, 1, 2]),
    "gone": "g\n",
  });
  await repo.write("plain.txt", "a\nb\n");
  await repo.write("tab\tname", "x\ny\n");
  await repo.write(":colon", "c\nd\n");
  await repo.write("new\nline", "n\nm\n");
  await repo.write("bin.dat", new Uint8Array([0, 1, 3]));
  await repo.git("mv", "old name", "new\tname ü");
  await Deno.remove(`${repo.root}/gone`);
  await repo.write("added", "z\n");
  await repo.git("add", "-A");
  const tree = (await repo.git("write-tree")).trim();
  const head = (await repo.git("rev-parse", "HEAD")).trim();
  const ids = [head, tree];
  const bytes = async (...args: string[]) => {
    // as lib/git/git.ts runs git: paths unquoted
    const out = await new Deno.Command("git", {
      args: ["-c", "core.quotepath=off", ...args],
      cwd: repo.root,
    }).output();
    return out.stdout;
  };
  return {
    repo,
    ids,
    combined: await bytes("diff-tree", "-r", "-z", "-M", "--raw", "--numstat", ...PATCH, ...ids),
    listing: await bytes("diff-tree", "-r", "-z", "-M", "--raw", "--numstat", ...ids),
    // the listing collection asks for: the raw entries alone, no numstat
    rawCombined: await bytes("diff-tree", "-r", "-z", "-M", "--raw", ...PATCH, ...ids),
    rawListing: await bytes("diff-tree", "-r", "-z", "-M", "--raw", ...ids),
    patch: await bytes("diff-tree", "-r", "-M", ...PATCH, ...ids),
  };
}

Deno.test("ListingScanner finds the end of the listing however the output is cut", async () => {
  const change = await oddChange();
  try {
    const { patch } = change;
    const forms = [
      ["with numstat", change.combined, change.listing],
      ["raw only", change.rawCombined, change.rawListing],
    ] as const;
    for (const [form, combined, listing] of forms) {
      assert.deepEqual(combined.subarray(listing.length + 1), patch, `${form}: as two calls`);
      for (const step of [1, 7, 64, 1 << 20]) {
        const scanner = new ListingScanner();
        let found: number | null = null;
        for (let end = step; found === null && end < combined.length + step; end += step) {
          found = scanner.scan(combined.subarray(0, Math.min(end, combined.length)));
        }
        assert.equal(found, listing.length, `${form}: chunks of ${step} bytes`);
      }
    }
    assert.throws(() => new ListingScanner().scan(new TextEncoder().encode("diff --git")));
  } finally {
    await change.repo.cleanup();
  }
});

/** A runner that hands the given output over in chunks of `step` bytes, then exits 0. */
function chunked(output: Uint8Array, step: number) {
  return (request: ExecRequest): Promise<ExecResult> => {
    for (let at = 0; at < output.length; at += step) {
      request.onStdout?.(output.slice(at, at + step));
    }
    return Promise.resolve({
      code: 0,
      stdout: new Uint8Array(),
      stderr: new Uint8Array(),
      durationMs: 0,
      timedOut: false,
      aborted: false,
      truncated: false,
    });
  };
}

Deno.test("streamListedPatch() gives the listing first, then the whole patch, from one git call", async () => {
  const change = await oddChange();
  try {
    const calls: string[][] = [];
    const runner = (request: ExecRequest) => {
      calls.push([...request.args]);
      return runProcess(request);
    };
    const args = ["diff-tree", "-r", "-z", "-M", "--raw", "--numstat", ...PATCH, ...change.ids];
    const got: number[] = [];
    let seen: Uint8Array | undefined;
    const result = await streamListedPatch(runner, change.repo.root, args, async (listing) => {
      seen = listing;
      await new Promise((resolve) => setTimeout(resolve, 20)); // a path filter at work
      return (chunk) => got.push(...chunk);
    });
    assert.equal(calls.length, 1);
    assert.deepEqual(seen, change.listing);
    assert.deepEqual(result, { listing: change.listing, complete: true });
    assert.deepEqual(new Uint8Array(got), change.patch);
  } finally {
    await change.repo.cleanup();
  }
});

Deno.test("streamListedPatch() drops a patch larger than it may hold while the caller prepares", async () => {
  const change = await oddChange();
  try {
    for (const [hold, complete] of [[change.patch.length, true], [10, false]] as const) {
      const got: number[] = [];
      const result = await streamListedPatch(chunked(change.combined, 5), "/", [], (listing) => {
        assert.deepEqual(listing, change.listing);
        return Promise.resolve((chunk: Uint8Array) => got.push(...chunk));
      }, hold);
      assert.equal(result.complete, complete, `hold ${hold}`);
      assert.deepEqual(new Uint8Array(got), complete ? change.patch : new Uint8Array());
    }
  } finally {
    await change.repo.cleanup();
  }
});

Deno.test("streamListedPatch() hands an empty change an empty listing", async () => {
  const listings: Uint8Array[] = [];
  const result = await streamListedPatch(chunked(new Uint8Array(), 1), "/", [], (listing) => {
    listings.push(listing);
    return Promise.resolve(() => assert.fail("no patch"));
  });
  assert.deepEqual(result, { listing: new Uint8Array(), complete: true });
  assert.deepEqual(listings, [new Uint8Array()]);
});
