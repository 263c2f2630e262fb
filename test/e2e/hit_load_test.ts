/**
 * A cache hit loads only what it uses (docs/design.md "Performance notes": code loads where it is
 * used): the CLI runs `review` as a user does, twice on one change — a fresh review with the fake
 * Claude, then the cache hit — under Deno's `--log-level=debug`, whose file fetcher names every
 * module the process loads, static or dynamic. lib/cli/review_load_test.ts holds these modules out
 * of the static graph; this test sees what a run actually loads, dynamic imports included.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN, makeSandbox, type Sandbox } from "./_cli.ts";

const PROJECT = new URL("../../", import.meta.url).href;

/** What only a review that asks a model (or a compliance run) uses: a hit loads none of it. */
const ASKING_ONLY = [
  // the provider adapters (each folder's meta.ts names its provider for the verdict's key; a hit
  // still reads the user's carried Claude settings through claude/child.ts: they are part of the
  // key, lib/providers/reviewer_env.ts `answerEnvKey`)
  /^lib\/providers\/[a-z]+\/adapter\.ts$/,
  // the prompt builders (lib/kinds/definition.ts `prompts`)
  /^lib\/kinds\/review\/(prompt|rules_text)\.ts$/,
  /^prompts\/corrective\.txt$/,
  // the ask stages, the call, its workspace and read-only proof, the decoder
  /^lib\/review\/(ask|ask_parts|parts|call_setting)\.ts$/,
  /^lib\/session\//,
  /^lib\/git\/tree_copy\.ts$/,
  /^lib\/answer\/decoder\.ts$/,
  // the compliance kind, but for its command-line flags (the parser needs them)
  /^lib\/kinds\/compliance\/(?!cli\.ts$)/,
  /^(prompts|schemas)\/compliance\./,
];

/** The project's modules (relative paths) one `review` loaded. */
async function modulesOfReview(sandbox: Sandbox): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--log-level=debug",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      MAIN,
      "review",
    ],
    cwd: sandbox.repo.root,
    env: { ...sandbox.env, REVIEW_GATE_FAKE_SCENARIO: "valid" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr.slice(-4000));
  const loaded = new Set<string>();
  for (const [, specifier] of stderr.matchAll(/FileFetcher::fetch\S* - specifier: (\S+)/g)) {
    if (specifier.startsWith(PROJECT)) loaded.add(specifier.slice(PROJECT.length));
  }
  assert.ok(loaded.has("main.ts"), "the log names the CLI's own modules");
  return loaded;
}

const asking = (modules: Set<string>) =>
  [...modules].filter((m) => ASKING_ONLY.some((pattern) => pattern.test(m))).sort();

Deno.test("a cache hit loads no adapter, prompt builder, ask stage, call setting or compliance code", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await Deno.writeTextFile(join(sandbox.repo.root, "src/app.ts"), "export const a = 2;\n");
    const fresh = await modulesOfReview(sandbox);
    const hit = await modulesOfReview(sandbox);
    const records = (await Deno.readTextFile(
      join(sandbox.repo.root, ".git", "review-gate", "records.jsonl"),
    )).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(records.map((r) => r.cached), [false, true], "a fresh review, then a hit");
    assert.deepEqual(records.map((r) => r.status), ["approved", "approved"]);
    // the log sees dynamic imports: the fresh review loaded what it asked with
    for (
      const m of [
        "lib/providers/claude/adapter.ts",
        "lib/kinds/review/prompt.ts",
        "lib/review/ask.ts",
      ]
    ) {
      assert.ok(fresh.has(m), `the fresh review loaded ${m}`);
    }
    assert.deepEqual(asking(hit), [], "a cache hit loaded what only asking uses");
  } finally {
    await sandbox.cleanup();
  }
});
