/**
 * End to end: a sparse checkout (`git sparse-checkout set d1`). A file the agent writes outside the
 * cone — a new file, or an edit that brings back a path the checkout left out — must reach the
 * review: `review` of the working tree shows both to the model, and the Stop gate asks the model
 * about them, instead of allowing silently.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  gitOk,
  makeGateSandbox,
  promptPayload,
  readFakeLog,
  runCli,
  runHook,
  stopPayload,
} from "./_gates.ts";

async function sparseSandbox() {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  await Deno.mkdir(join(root, "d1"));
  await Deno.mkdir(join(root, "d2"));
  await Deno.writeTextFile(join(root, "d1/p.ts"), "export const p = 1;\n");
  await Deno.writeTextFile(join(root, "d2/q.ts"), "export const q = 1;\n");
  await gitOk(sb, ["add", "-A"]);
  await gitOk(sb, ["commit", "-qm", "dirs"]);
  await gitOk(sb, ["sparse-checkout", "set", "d1"]);
  return sb;
}

async function writeOutsideCone(root: string): Promise<void> {
  await Deno.mkdir(join(root, "d2"), { recursive: true });
  await Deno.writeTextFile(join(root, "d2/q.ts"), "export const q = eval;\n");
  await Deno.writeTextFile(join(root, "d2/new.ts"), "export const backdoorNew = eval;\n");
}

Deno.test("review in a sparse checkout shows files written outside the cone", async () => {
  const sb = await sparseSandbox();
  try {
    await writeOutsideCone(sb.repo.root);
    const r = await runCli(sb, ["review", "--json"], {
      env: { REVIEW_GATE_FAKE_SCENARIO: "valid" },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const prompts = (await readFakeLog(sb)).map((c) => c.stdin ?? c.argv.join(" ")).join("\n");
    assert.match(prompts, /d2\/new\.ts/);
    assert.match(prompts, /backdoorNew/);
    assert.match(prompts, /d2\/q\.ts/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate in a sparse checkout shows the model a file written outside the cone", async () => {
  const sb = await sparseSandbox();
  try {
    const session = { sessionId: "sparse-stop", cwd: sb.repo.root };
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
    await writeOutsideCone(sb.repo.root);
    const s = await runHook(sb, "claude-stop", stopPayload(session), {
      env: { REVIEW_GATE_FAKE_SCENARIO: "valid" },
    });
    assert.equal(s.code, 0, s.stdout + s.stderr);
    const prompts = (await readFakeLog(sb)).map((c) => c.stdin ?? c.argv.join(" ")).join("\n");
    assert.match(prompts, /backdoorNew/, "the new file outside the cone reached the model");
    assert.match(prompts, /d2\/q\.ts/);
  } finally {
    await sb.cleanup();
  }
});
