/**
 * One measured run of the review workspace's cost (bench group "(d)"): write the private read-only
 * copy of the repository's HEAD tree (lib/git/tree_copy.ts, what every model call now pays once
 * per review) and take the copy's stat-level fingerprint (lib/session/fingerprint.ts, taken twice
 * per call by the read-only proof). Prints one JSON line: files, bytes, copyMs, fingerprintMs.
 *
 * Usage: deno run --allow-read --allow-write --allow-env --allow-run bench/tree_copy.ts <repo>
 *
 * @module
 */
import { join } from "node:path";
import { runProcess } from "../lib/exec/exec.ts";
import { withPrivateTempDir } from "../lib/exec/tmpdir.ts";
import { gitText } from "../lib/git/git.ts";
import { copyTree } from "../lib/git/tree_copy.ts";
import { fingerprintDir } from "../lib/session/fingerprint.ts";

const [root] = Deno.args;
const tree = await gitText(runProcess, root, ["rev-parse", "HEAD^{tree}"]);
await withPrivateTempDir(async (dir) => {
  const dest = join(dir, "tree");
  await Deno.mkdir(dest);
  const t0 = performance.now();
  const copy = await copyTree(runProcess, root, tree, dest);
  const t1 = performance.now();
  const signed = Object.keys(await fingerprintDir(dest, "copy")).length;
  const t2 = performance.now();
  const line = JSON.stringify({
    files: copy.files,
    bytes: copy.bytes,
    signed,
    copyMs: Math.round(t1 - t0),
    fingerprintMs: Math.round(t2 - t1),
  });
  await Deno.stdout.write(new TextEncoder().encode(line + "\n"));
});
