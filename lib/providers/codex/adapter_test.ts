import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { dialectText } from "../../answer/dialect.ts";
import {
  buildCodexInvocation,
  CODEX_CONFINEMENT,
  codexToolCallStarts,
  parseCodexEnvelope,
} from "./adapter.ts";
import { REQUEST, sample } from "../_test_support.ts";
import type { ProcessOutput } from "../provider.ts";

function output(
  stdout: string,
  code = 0,
  lastMessage: string | null = null,
  stderr = "",
): ProcessOutput {
  return { code, stdout, stderr, files: { "/tmp/rg-x/last-message-1.txt": lastMessage } };
}

const CHILD = {
  env: { PATH: "/bin", HOME: "/tmp/rg-x/home", CODEX_HOME: "/tmp/rg-x/codex-home" },
  args: ["-c", 'permissions.review.filesystem={":root"="read","/home/u"="none"}'],
};
const OPTIONS = [
  "exec",
  "-C",
  "/tmp/copy",
  "--skip-git-repo-check",
  ...CODEX_CONFINEMENT,
  ...CHILD.args,
  "-m",
  "gpt-5",
];

Deno.test("buildCodexInvocation() builds the first call confined, with the schema file and prompt on stdin", () => {
  const inv = buildCodexInvocation({
    ...REQUEST,
    model: "gpt-5",
    workdir: "/tmp/copy",
    child: CHILD,
  });
  assert.deepEqual(inv.args, [
    ...OPTIONS,
    "--json",
    "--output-schema",
    "/tmp/rg-x/answer-1.schema.json",
    "-o",
    "/tmp/rg-x/last-message-1.txt",
    "-",
  ]);
  for (const flag of ["--ignore-rules", "hooks", 'default_permissions="review"', "notify=[]"]) {
    assert.ok(inv.args.includes(flag), flag);
  }
  for (const never of ["--trust", "--dangerously-bypass-hook-trust", "--sandbox"]) {
    assert.ok(!inv.args.includes(never), never);
  }
  assert.equal(inv.stdin, "Review this change.");
  assert.deepEqual(inv.env, CHILD.env);
  assert.equal(inv.clearEnv, true);
  assert.equal(inv.cwd, "/tmp/copy");
  assert.deepEqual(inv.files, {
    "/tmp/rg-x/answer-1.schema.json": dialectText(reviewSchema, "openai-strict"),
  });
  assert.deepEqual(inv.readBack, ["/tmp/rg-x/last-message-1.txt"]);
});

Deno.test("buildCodexInvocation() puts every exec option before resume, so the resume is confined too", () => {
  const inv = buildCodexInvocation({
    ...REQUEST,
    attempt: 2,
    resumeSessionId: "thread-1",
    model: "gpt-5",
    workdir: "/tmp/copy",
    child: CHILD,
  });
  assert.deepEqual(inv.args, [
    ...OPTIONS,
    "resume",
    "--json",
    "--output-schema",
    "/tmp/rg-x/answer-2.schema.json",
    "-o",
    "/tmp/rg-x/last-message-2.txt",
    "thread-1",
    "-",
  ]);
  assert.deepEqual(Object.keys(inv.files), ["/tmp/rg-x/answer-2.schema.json"]);
});

Deno.test("buildCodexInvocation() without a child setup falls back to --sandbox read-only", () => {
  const inv = buildCodexInvocation(REQUEST);
  assert.deepEqual(inv.args.slice(0, 8), [
    "exec",
    "-C",
    "/repo",
    "--skip-git-repo-check",
    "--sandbox",
    "read-only",
    "-c",
    'approval_policy="never"',
  ]);
  assert.equal(inv.clearEnv, undefined);
});

Deno.test("parseCodexEnvelope() classifies every real sample", async (t) => {
  const cases: Array<[string, number, string]> = [
    ["codex-exec.jsonl", 0, "answer"],
    ["codex-exec-tools.jsonl", 0, "answer"],
    ["codex-resume.jsonl", 0, "answer"],
    ["codex-exec-400.jsonl", 1, "error"],
  ];
  for (const [file, code, outcome] of cases) {
    await t.step(file, () => {
      const env = parseCodexEnvelope(output(sample(file), code));
      assert.equal(env.outcome, outcome);
      assert.match(env.sessionId ?? "", /^[0-9a-f-]{36}$/);
    });
  }
});

Deno.test("parseCodexEnvelope() takes the text of the last agent_message and the turn usage", () => {
  const env = parseCodexEnvelope(output(sample("codex-exec.jsonl")));
  assert.equal(env.outcome, "answer");
  assert.equal(env.text, '{"verdict":"approve","summary":"Looks fine."}');
  assert.equal(env.sessionId, "01a22a6a-8a17-7370-85d8-967ba346d6e2");
  assert.deepEqual(env.usage, {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
});

Deno.test("parseCodexEnvelope() names the schema problem of a failed turn", () => {
  const env = parseCodexEnvelope(output(sample("codex-exec-400.jsonl"), 1));
  assert.equal(env.outcome, "error");
  if (env.outcome === "error") {
    assert.match(
      env.message,
      /^Codex turn failed \(exit code 1\): Invalid schema for response_format 'codex_output_schema': .*'minLength' is not permitted\.$/,
    );
  }
});

Deno.test("parseCodexEnvelope() lets turn.failed override an earlier valid-looking answer", () => {
  const stdout = sample("codex-exec.jsonl").replace(
    /\{"type":"turn.completed".*\n?$/,
    '{"type":"turn.failed","error":{"message":"stream disconnected"}}\n',
  );
  for (const code of [0, 1]) {
    const env = parseCodexEnvelope(output(stdout, code, '{"verdict":"approve"}'));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /stream disconnected/);
  }
});

Deno.test("parseCodexEnvelope() lets a non-zero exit override a complete answer", () => {
  const env = parseCodexEnvelope(output(sample("codex-exec.jsonl"), 101, null, "broken pipe"));
  assert.equal(env.outcome, "error");
  if (env.outcome === "error") {
    assert.equal(env.message, "Codex exited with code 101; stderr: broken pipe");
  }
});

Deno.test("parseCodexEnvelope() falls back to the -o file when no agent_message was printed", () => {
  const stdout = sample("codex-exec.jsonl").split("\n").filter((l) => !l.includes("agent_message"))
    .join("\n");
  assert.deepEqual(parseCodexEnvelope(output(stdout, 0, '{"a":1}')).outcome, "answer");
  assert.equal(
    (parseCodexEnvelope(output(stdout, 0, '{"a":1}')) as { text: string }).text,
    '{"a":1}',
  );
  assert.equal(parseCodexEnvelope(output(stdout, 0, "")).outcome, "refused");
});

Deno.test("parseCodexEnvelope() ignores non-JSON lines and errors on garbage", () => {
  const noisy = "Reading additional input from stdin...\n\uFFFD\n" + sample("codex-exec.jsonl") +
    "\nnot json";
  assert.equal(parseCodexEnvelope(output(noisy)).outcome, "answer");
  const env = parseCodexEnvelope(output("garbage {", 0));
  assert.equal(env.outcome, "error");
  if (env.outcome === "error") {
    assert.match(
      env.message,
      /^Codex ended without completing its turn \(exit code 0; no JSON event\)/,
    );
  }
});

/** The events the real codex 0.171.0 printed when the mock dropped one stream (stream_max_retries 1). */
const RECONNECTED = [
  '{"type":"thread.started","thread_id":"01a22dbe-fd92-7461-a0a6-077aa35ebb49"}',
  '{"type":"turn.started"}',
  '{"type":"error","message":"Reconnecting... 1/1 (stream disconnected before completion: stream closed before response.completed)"}',
  '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"{\\"verdict\\":\\"approve\\"}"}}',
  '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}',
];

Deno.test("parseCodexEnvelope() takes a reconnect error followed by turn.completed as progress", () => {
  const env = parseCodexEnvelope(output(RECONNECTED.join("\n") + "\n"));
  assert.equal(env.outcome, "answer");
  assert.equal((env as { text: string }).text, '{"verdict":"approve"}');
  assert.deepEqual(env.notices, [
    "Reconnecting... 1/1 (stream disconnected before completion: stream closed before response.completed)",
  ]);
});

Deno.test("parseCodexEnvelope() keeps an error without a later completed turn fatal", async (t) => {
  const cases: Record<string, string[]> = {
    "no turn.completed": RECONNECTED.slice(0, 4),
    "error after turn.completed": [...RECONNECTED, RECONNECTED[2]],
    "turn.failed after the error": [
      ...RECONNECTED.slice(0, 4),
      '{"type":"turn.failed","error":{"message":"stream disconnected"}}',
      RECONNECTED[4],
    ],
  };
  for (const [name, lines] of Object.entries(cases)) {
    await t.step(name, () => {
      const env = parseCodexEnvelope(output(lines.join("\n") + "\n", 0, '{"verdict":"approve"}'));
      assert.equal(env.outcome, "error");
      if (env.outcome === "error") assert.match(env.message, /Reconnecting\.\.\. 1\/1/);
    });
  }
});

Deno.test("parseCodexEnvelope() has no answer without a completed turn, however approving the message", async (t) => {
  const lines = sample("codex-exec.jsonl").trim().split("\n");
  const completed = lines.findIndex((l) => l.includes('"turn.completed"'));
  assert.ok(completed > 0, "the sample ends in turn.completed");
  const before = lines.slice(0, completed);
  const cases: Record<string, { stdout: string[]; what: RegExp }> = {
    "an agent_message, then exit 0": {
      stdout: before,
      what: /an agent_message but no turn\.completed after it/,
    },
    "a message after turn.completed": {
      stdout: [...lines, lines.find((l) => l.includes("agent_message"))!],
      what: /an agent_message but no turn\.completed after it/,
    },
    "a new turn.started after turn.completed": {
      stdout: [...lines, '{"type":"turn.started"}'],
      what: /; no turn\.completed\)/,
    },
    "only thread.started and turn.started": {
      stdout: lines.filter((l) => /thread\.started|turn\.started/.test(l)),
      what: /; no turn\.completed\)/,
    },
  };
  for (const [name, { stdout, what }] of Object.entries(cases)) {
    await t.step(name, () => {
      // the -o file holds an approval too: it must not stand in for the missing turn
      const env = parseCodexEnvelope(output(stdout.join("\n") + "\n", 0, '{"verdict":"approve"}'));
      assert.equal(env.outcome, "error");
      if (env.outcome === "error") {
        assert.match(env.message, /^Codex ended without completing its turn \(exit code 0; /);
        assert.match(env.message, what);
      }
      assert.equal(env.sessionId, "01a22a6a-8a17-7370-85d8-967ba346d6e2", "the thread id is kept");
    });
  }
});

Deno.test("parseCodexEnvelope() takes the message of the completed turn, not an earlier turn's", () => {
  const stdout = [
    '{"type":"thread.started","thread_id":"01a22a6a-8a17-7370-85d8-967ba346d6e2"}',
    '{"type":"turn.started"}',
    '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"{\\"verdict\\":\\"approve\\"}"}}',
    '{"type":"turn.started"}',
    '{"type":"item.completed","item":{"id":"item_1","type":"reasoning","text":"…"}}',
    '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}',
  ].join("\n");
  const env = parseCodexEnvelope(output(stdout, 0, ""));
  assert.equal(env.outcome, "refused", "the completed turn has no message of its own");
});

Deno.test("codexToolCallStarts() counts the start of a tool item, nothing else", () => {
  const started = (type: string) =>
    JSON.stringify({ type: "item.started", item: { id: "i", type, command: "ls" } });
  assert.equal(codexToolCallStarts(started("command_execution")), true);
  assert.equal(codexToolCallStarts(started("mcp_tool_call")), true);
  assert.equal(codexToolCallStarts(started("agent_message")), false);
  assert.equal(
    codexToolCallStarts(started("command_execution").replace("item.started", "item.completed")),
    false,
  );
  assert.equal(codexToolCallStarts('{"type":"item.started", garbage'), false);
});
