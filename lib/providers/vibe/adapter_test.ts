import assert from "node:assert/strict";
import { join } from "node:path";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { output, REQUEST as BASE_REQUEST } from "../_test_support.ts";
import type { ProviderRequest } from "../provider.ts";
import { buildVibeInvocation, locateVibeSession, parseVibeEnvelope } from "./adapter.ts";

const REQUEST: ProviderRequest = { ...BASE_REQUEST, prompt: "Review this change.\n" };

const TAIL = [
  "--output",
  "streaming",
  "--workdir",
  "/repo",
  "--max-turns",
  "8",
  "--enabled-tools",
  "read",
  "--enabled-tools",
  "grep",
];

Deno.test("buildVibeInvocation() puts the prompt and the whole schema in -p, with stdin null", () => {
  const inv = buildVibeInvocation(REQUEST);
  assert.equal(inv.args[0], "-p");
  assert.deepEqual(inv.args.slice(2), TAIL);
  assert.equal(inv.stdin, null);
  assert.deepEqual(inv.env, {});
  const prompt = inv.args[1];
  assert.ok(prompt.startsWith("Review this change.\n\n"));
  assert.ok(prompt.includes(JSON.stringify(reviewSchema, null, 2)));
  assert.ok(prompt.endsWith("Reply with the JSON object only."));
  assert.ok(!inv.args.some((a) => ["--trust", "--yolo", "--auto-approve", "bash"].includes(a)));
});

Deno.test("buildVibeInvocation() adds --resume and the model through VIBE_ACTIVE_MODEL", () => {
  const inv = buildVibeInvocation({
    ...REQUEST,
    model: "devstral",
    resumeSessionId: "s-1",
    attempt: 2,
  });
  assert.deepEqual(inv.args.slice(2), [...TAIL, "--resume", "s-1"]);
  assert.deepEqual(inv.env, { VIBE_ACTIVE_MODEL: "devstral" });
});

Deno.test("parseVibeEnvelope() takes the last assistant message with content", () => {
  const lines = [
    { role: "user", content: "old" },
    { role: "assistant", content: "old answer" },
    { role: "assistant", content: "", tool_calls: [{ id: "1" }] },
    { role: "tool", content: "file" },
    { role: "assistant", content: '{"verdict":"approve"}', tool_calls: null },
    { role: "assistant", content: "  " },
  ].map((m) => JSON.stringify(m)).join("\n");
  const env = parseVibeEnvelope(output("noise\n" + lines));
  assert.equal(env.outcome, "answer");
  assert.equal(env.text, '{"verdict":"approve"}');
});

Deno.test("parseVibeEnvelope() turns a non-zero exit into an error with the stderr tail", () => {
  const env = parseVibeEnvelope(
    output('{"role":"assistant","content":"{}"}', 1, "Maximum number of turns (8) reached\n"),
  );
  assert.equal(env.outcome, "error");
  if (env.outcome === "error") {
    assert.equal(env.message, "Vibe exited with code 1: Maximum number of turns (8) reached");
  }
});

Deno.test("parseVibeEnvelope() refuses garbage without crashing", () => {
  assert.equal(parseVibeEnvelope(output("garbage {\n[1]\nnull")).outcome, "refused");
});

Deno.test("locateVibeSession() picks the newest meta.json for this repo after the spawn", async () => {
  const home = await Deno.makeTempDir();
  const repo = await Deno.makeTempDir();
  try {
    const write = async (dir: string, wd: string, id?: string) => {
      await Deno.mkdir(join(home, "logs", "session", dir), { recursive: true });
      const meta = { ...(id ? { session_id: id } : {}), environment: { working_directory: wd } };
      await Deno.writeTextFile(
        join(home, "logs", "session", dir, "meta.json"),
        JSON.stringify(meta),
      );
    };
    const spawnedAtMs = Date.now();
    await write("other", "/elsewhere", "wrong-repo");
    await write("session_a", repo, "sid-a");
    await new Promise((r) => setTimeout(r, 20));
    await write("session_b", repo);
    const env = { VIBE_HOME: home };
    assert.equal(await locateVibeSession({ root: repo, spawnedAtMs, env }), "session_b");
    assert.equal(
      await locateVibeSession({ root: repo, spawnedAtMs: spawnedAtMs + 60_000, env }),
      undefined,
    );
    assert.equal(
      await locateVibeSession({ root: repo, spawnedAtMs, env: { VIBE_HOME: join(home, "none") } }),
      undefined,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("parseVibeEnvelope() has no answer when the stream ended mid-turn, however approving the message", async (t) => {
  const approve = { role: "assistant", content: '{"verdict":"approve"}', tool_calls: null };
  const call = { role: "assistant", content: "", tool_calls: [{ id: "2" }] };
  const cases: Record<string, [unknown[], RegExp]> = {
    "a tool call after the answer": [[approve, call], /a tool call/],
    "a tool result after the answer": [
      [approve, call, { role: "tool", content: "x" }],
      /tool result/,
    ],
    "the answer asks for a tool itself": [[{ ...approve, tool_calls: [{ id: "3" }] }], /tool call/],
    "a resume that re-emitted the old answer, then stopped": [
      [{ role: "user", content: "old" }, approve, { role: "user", content: "new prompt" }],
      /a new user message/,
    ],
  };
  for (const [name, [messages, what]] of Object.entries(cases)) {
    await t.step(name, () => {
      const stdout = messages.map((m) => JSON.stringify(m)).join("\n");
      const env = parseVibeEnvelope(output(stdout));
      assert.equal(env.outcome, "error");
      if (env.outcome === "error") {
        assert.match(env.message, /^Vibe ended without finishing its turn \(exit code 0; /);
        assert.match(env.message, what);
      }
    });
  }
});
