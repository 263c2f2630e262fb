/**
 * A review never starts Deno's Node compatibility layer: neither a fresh one (`--no-cache`, the
 * fake provider asked) nor a cache hit. Starting it costs ~10–20 ms of every run (docs/design.md
 * "Performance notes"), and more than one way leads there: a `node:` import anywhere in the
 * review's modules (`node:path`, `node:buffer`, `node:util`) and, at run time, Deno's global
 * `setTimeout` (node:timers). So the test runs the CLI as a user does, under `--cpu-prof`, and
 * reads which scripts ran: none may be one of Deno's `deno_node` extension.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN, makeSandbox, type Sandbox } from "./_cli.ts";

/** The script URLs that ran in one `review` under `--cpu-prof`, and its exit code. */
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
