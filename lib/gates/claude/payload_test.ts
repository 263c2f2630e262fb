import assert from "node:assert/strict";
import { isMainAgentStop, isPromptSubmit, parseHookPayload } from "./payload.ts";

const stop = {
  session_id: "s-1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/repo",
  prompt_id: "p-1",
  permission_mode: "default",
  effort: { level: "high" },
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: "Done.",
  background_tasks: [],
  session_crons: [],
};

Deno.test("parseHookPayload() reads a Stop payload as Claude Code sends it", () => {
  const result = parseHookPayload(JSON.stringify(stop));
  assert.ok(result.ok);
  assert.equal(result.payload.session_id, "s-1");
  assert.equal(result.payload.stop_hook_active, false);
  assert.equal(result.payload.last_assistant_message, "Done.");
  assert.deepEqual(result.payload.raw.effort, { level: "high" });
  assert.equal(isMainAgentStop(result.payload), true);
});

Deno.test("parseHookPayload() handles a Stop without last_assistant_message and with stop_hook_active", () => {
  const { last_assistant_message: _, ...rest } = stop;
  const result = parseHookPayload(JSON.stringify({ ...rest, stop_hook_active: true }));
  assert.ok(result.ok);
  assert.equal(result.payload.last_assistant_message, undefined);
  assert.equal(result.payload.stop_hook_active, true);
});

Deno.test("parseHookPayload() reads UserPromptSubmit; SubagentStop is not a main-agent stop", () => {
  const prompt = parseHookPayload(
    JSON.stringify({
      session_id: "s",
      cwd: "/r",
      hook_event_name: "UserPromptSubmit",
      prompt: "fix it",
    }),
  );
  assert.ok(prompt.ok);
  assert.equal(prompt.payload.prompt, "fix it");
  assert.equal(isPromptSubmit(prompt.payload), true);
  assert.equal(isMainAgentStop(prompt.payload), false);
  const sub = parseHookPayload(JSON.stringify({ ...stop, hook_event_name: "SubagentStop" }));
  assert.ok(sub.ok);
  assert.equal(isMainAgentStop(sub.payload), false);
});

Deno.test("parseHookPayload() refuses malformed input without throwing", async (t) => {
  const table: [string, string, RegExp][] = [
    ["empty", "", /empty stdin/],
    ["blank", " \n", /empty stdin/],
    ["not JSON", "{", /not JSON/],
    ["truncated", JSON.stringify(stop).slice(0, 40), /not JSON/],
    ["array", "[]", /not a JSON object/],
    ["null", "null", /not a JSON object/],
    ["string", '"Stop"', /not a JSON object/],
    ["no session", JSON.stringify({ ...stop, session_id: undefined }), /"session_id"/],
    ["numeric cwd", JSON.stringify({ ...stop, cwd: 3 }), /"cwd"/],
    ["empty event", JSON.stringify({ ...stop, hook_event_name: "" }), /"hook_event_name"/],
  ];
  for (const [name, input, reason] of table) {
    await t.step(name, () => {
      const result = parseHookPayload(input);
      assert.equal(result.ok, false);
      assert.match((result as { reason: string }).reason, reason);
    });
  }
});

Deno.test("parseHookPayload() treats a non-boolean stop_hook_active as false", () => {
  const result = parseHookPayload(JSON.stringify({ ...stop, stop_hook_active: "true" }));
  assert.ok(result.ok);
  assert.equal(result.payload.stop_hook_active, false);
});

Deno.test("README names every field the hooks read from Claude Code's payload", async () => {
  const readme = await Deno.readTextFile(new URL("../../../README.md", import.meta.url));
  const said = readme.slice(readme.indexOf("The hooks read Claude Code's"));
  const full = {
    hook_event_name: "Stop",
    session_id: "s",
    cwd: "/r",
    transcript_path: "/t",
    prompt_id: "p",
    permission_mode: "default",
    stop_hook_active: false,
    last_assistant_message: "m",
    prompt: "q",
  };
  const result = parseHookPayload(JSON.stringify(full));
  assert.ok(result.ok);
  const fields = Object.keys(result.payload).filter((k) => k !== "raw");
  assert.ok(fields.includes("prompt"));
  for (const field of fields) {
    assert.match(said.slice(0, 600), new RegExp(`\`${field}\``), `README leaves out ${field}`);
  }
});

Deno.test("README's Try it section needs only Node.js/npm: the npm package, or Deno through npx", async () => {
  const readme = await Deno.readTextFile(new URL("../../../README.md", import.meta.url));
  const start = readme.indexOf("## Try it (");
  const tryIt = readme.slice(start, readme.indexOf("\n## ", start + 1));
  assert.match(tryIt, /Node\.js\/npm and git are all you need/);
  const commands = [...tryIt.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n"));
  const bare = commands.filter((line) => /(^|'|\s)deno\s/.test(line));
  assert.deepEqual(bare, [], "every deno in Try it runs through npx -y deno@…");
  // the demo through the command the npm package installs (it brings its own Deno)
  assert.ok(commands.some((line) => /^npm i(nstall)? -g \S+\.tgz/.test(line)), "npm install");
  assert.ok(commands.some((line) => /^review-gate demo\b/.test(line)), "review-gate demo");
  assert.ok(commands.some((line) => /^npx -y deno@[\d.]+ task test\b/.test(line)), "the tests");
});
