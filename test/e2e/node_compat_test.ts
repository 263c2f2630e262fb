/**
 * A review never starts Deno's Node compatibility layer: neither a fresh one (`--no-cache`, the
 * fake provider asked) nor a cache hit. Starting it costs ~10–20 ms of every run (docs/design.md
 * "Performance notes"), and more than one way leads there: a `node:` import anywhere in the
 * review's modules (`node:path`, `node:buffer`, `node:util`) and, at run time, Deno's global
 * `setTimeout` (node:timers). So the test runs the CLI as a user does, under `--cpu-prof`, and
 * reads which scripts ran: none may be one of Deno's `deno_node` extension. Nor does planning a
 * change whose plan names many omitted hunks (an identity hashed in pieces: lib/git/collect.ts
 * `planIdOf`), which a large change's `review --plan-only` does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN, makeSandbox, type Sandbox } from "./_cli.ts";

/** The script URLs that ran in one `review` under `--cpu-prof` (which must exit 0). */
async function scriptsOfReview(sandbox: Sandbox, args: string[]): Promise<Set<string>> {
  const profiles = await Deno.makeTempDir({ dir: sandbox.dir, prefix: "prof-" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--cpu-prof-dir=${profiles}`,
      "--cpu-prof",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      MAIN,
      "review",
      ...args,
    ],
    cwd: sandbox.repo.root,
    env: { ...sandbox.env, REVIEW_GATE_FAKE_SCENARIO: "valid" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const urls = new Set<string>();
  for await (const entry of Deno.readDir(profiles)) {
    const profile = JSON.parse(await Deno.readTextFile(join(profiles, entry.name)));
    for (const node of profile.nodes) urls.add(node.callFrame.url);
  }
  assert.ok([...urls].some((u) => u.endsWith("/main.ts")), "the profile holds the CLI's own code");
  return urls;
}

Deno.test("a review, fresh or from the cache, never starts Node compatibility", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await Deno.writeTextFile(
      join(sandbox.repo.root, "src/app.ts"),
      "export const a = 2;\n",
    );
    for (const args of [["--no-cache"], []]) {
      const node = [...await scriptsOfReview(sandbox, args)].filter((u) => u.includes("deno_node"));
      assert.deepEqual(node, [], `review ${args.join(" ")} ran Node compatibility's scripts`);
    }
    const records = (await Deno.readTextFile(
      join(sandbox.repo.root, ".git", "review-gate", "records.jsonl"),
    )).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(records.map((r) => r.cached), [false, true], "a fresh review, then a hit");
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("planning a change whose plan omits thousands of hunks never starts Node compatibility", async () => {
  // one hunk in every 10 lines of a 40,000-line file, most of them over a 4 KiB budget: the plan's
  // omitted list is far more than one piece of JSON (lib/base/json_pieces.ts PIECE_CHARS)
  const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`);
  const sandbox = await makeSandbox({
    "src/big.txt": lines.join("\n") + "\n",
    ".review-gate.json": JSON.stringify({ budgets: { total_bytes: 4096, file_bytes: 4096 } }),
  });
  try {
    await Deno.writeTextFile(
      join(sandbox.repo.root, "src/big.txt"),
      lines.map((line, i) => i % 10 === 5 ? `${line} changed` : line).join("\n") + "\n",
    );
    const urls = await scriptsOfReview(sandbox, ["--plan-only", "--json"]);
    const node = [...urls].filter((u) => u.includes("deno_node"));
    assert.deepEqual(node, [], "review --plan-only ran Node compatibility's scripts");
  } finally {
    await sandbox.cleanup();
  }
});
