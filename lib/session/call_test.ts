import assert from "node:assert/strict";
import { CLAUDE_META } from "../providers/claude/meta.ts";
import type { Decision, Refusal } from "../answer/types.ts";
import { GitError, StoreError } from "../base/errors.ts";
import { type ExecRequest, type ExecResult, type Runner, runProcess } from "../exec/exec.ts";
import type {
  ChildContext,
  Envelope,
  ProviderAdapter,
  ProviderRequest,
} from "../providers/provider.ts";
import { type CallOptions, callStructured, toAttemptRecords } from "./call.ts";

type Answer = { verdict: string };

const ROOT = "/tmp"; // a real directory: some tests spawn with it as cwd

/** A fake adapter: records requests, writes one temp file, reads one back, plays envelopes. */
function fakeAdapter(
  envelopes: Envelope[],
  extra: Partial<ProviderAdapter> & { args?: string[] } = {},
) {
  const requests: ProviderRequest[] = [];
  const childContexts: ChildContext[] = [];
  const outputs: { stdout: string; files: Record<string, string | null> }[] = [];
  const adapter: ProviderAdapter = {
    ...CLAUDE_META,
    capabilities: { nativeSchema: true, resume: true },
    versionArgs: ["--version"],
    prepareChild: (context) => {
      childContexts.push(context);
      return Promise.resolve({ env: { CHILD_ENV: "y" }, args: [] });
    },
    describeAuth: () => Promise.resolve([]),
    buildInvocation(request) {
      requests.push(request);
      lastTmp = request.tmpDir;
      const schema = `${request.tmpDir}/schema-${request.attempt}.json`;
      return {
        args: extra.args ?? ["-p", String(request.attempt)],
        stdin: request.prompt,
        env: { PROVIDER_ENV: "x" },
        files: { [schema]: "{}" },
        readBack: [schema, `${request.tmpDir}/missing.txt`],
      };
    },
    parseEnvelope(output) {
      outputs.push({ stdout: output.stdout, files: output.files });
      return envelopes[outputs.length - 1];
    },
    ...extra,
  };
  return { adapter, requests, outputs, childContexts };
}

/** A fake runner returning scripted results and recording requests (and file modes at spawn). */
function fakeRunner(results: Partial<ExecResult>[] = []) {
  const calls: ExecRequest[] = [];
  const modes: number[] = [];
  const runner: Runner = async (request) => {
    calls.push(request);
    for (const entry of Deno.readDirSync(lastTmp)) {
      modes.push((await Deno.stat(`${lastTmp}/${entry.name}`)).mode! & 0o777);
    }
    const r = results[calls.length - 1] ?? {};
    return {
      code: 0,
      stdout: new TextEncoder().encode(`out-${calls.length}`),
      stderr: new TextEncoder().encode(`err-${calls.length}`),
      durationMs: 5,
      timedOut: false,
      aborted: false,
      truncated: false,
      ...r,
    };
  };
  return { runner, calls, modes };
}

/** The temp dir of the latest invocation (tests run one at a time). */
let lastTmp = "";

const ok = (sessionId = "s-1", extra: Partial<Envelope> = {}): Envelope =>
  ({ outcome: "answer", value: { verdict: "approve" }, sessionId, ...extra }) as Envelope;
const bad = (sessionId = "s-1", extra: Partial<Envelope> = {}): Envelope =>
  ({ outcome: "answer", text: "not json", sessionId, ...extra }) as Envelope;

async function fakeDecode(input: { text: string } | { value: unknown }): Promise<Decision<Answer>> {
  await Promise.resolve();
  if ("value" in input) return { ok: true, answer: input.value as Answer, notes: ["n"] };
  return { ok: false, refusal: [{ path: "", problem: `not JSON: "${input.text}"` }] };
}

function options(
  adapter: ProviderAdapter,
  runner: Runner,
  extra: Partial<CallOptions<Answer, string>> = {},
): CallOptions<Answer, string> {
  return {
    adapter,
    bin: "fake-bin",
    request: { prompt: "review this", schema: {}, root: ROOT, maxTurns: 3 },
    correctivePrompt: (refusal: Refusal[]) => `fix: ${refusal.map((r) => r.problem).join("; ")}`,
    decode: fakeDecode,
    runner,
    timeoutMs: 10_000,
    ...extra,
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("callStructured() returns ok on a valid first answer and removes the temp dir", async () => {
  const { adapter, requests, outputs } = fakeAdapter([ok("s-1", { usage: { inputTokens: 3 } })]);
  const { runner, calls, modes } = fakeRunner();
  const out = await callStructured(options(adapter, runner));
  assert.equal(out.status, "ok");
  assert.deepEqual(out.answer, { verdict: "approve" });
  assert.deepEqual(out.notes, ["n"]);
  assert.equal(out.sessionId, "s-1");
  assert.equal(out.attempts.length, 1);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].cmd, "fake-bin");
  assert.equal(calls[0].cwd, ROOT);
  assert.deepEqual(calls[0].env, { PROVIDER_ENV: "x" }); // runProcess adds REVIEW_GATE_CHILD
  assert.deepEqual(modes, [0o600]);
  assert.equal(requests[0].attempt, 1);
  assert.equal(requests[0].resumeSessionId, undefined);
  assert.deepEqual(outputs[0].files, {
    [`${requests[0].tmpDir}/schema-1.json`]: "{}",
    [`${requests[0].tmpDir}/missing.txt`]: null,
  });
  assert.equal(outputs[0].stdout, "out-1");
  const a = out.attempts[0];
  assert.deepEqual(a.argv, ["fake-bin", "-p", "1"]);
  assert.equal(a.stdinBytes, "review this".length);
  assert.equal(a.outcome, "answer");
  assert.equal(a.stdoutFile, "transcript/attempt-1.stdout");
  assert.equal(new TextDecoder().decode(a.stderr), "err-1");
  assert.equal(await exists(requests[0].tmpDir), false);
});

Deno.test("callStructured() resumes exactly once after a refusal and keeps the session's running totals", async () => {
  const { adapter, requests } = fakeAdapter([
    bad("s-1", { usage: { inputTokens: 10, outputTokens: 1 }, costUsd: 0.25, model: "m1" }),
    ok("s-1", { usage: { inputTokens: 15 }, costUsd: 0.75, model: "m2" }),
  ]);
  const { runner, calls } = fakeRunner();
  const out = await callStructured(options(adapter, runner));
  assert.equal(out.status, "ok");
  assert.equal(calls.length, 2);
  assert.equal(requests[1].attempt, 2);
  assert.equal(requests[1].resumeSessionId, "s-1");
  assert.equal(requests[1].prompt, 'fix: not JSON: "not json"');
  assert.deepEqual(out.usage, { inputTokens: 15, outputTokens: 1 });
  assert.equal(out.costUsd, 0.75);
  assert.equal(out.model, "m2");
  assert.deepEqual(out.attempts.map((a) => a.outcome), ["refused", "answer"]);
  assert.deepEqual(out.attempts[0].refusal, [{ path: "", problem: 'not JSON: "not json"' }]);
});

Deno.test("callStructured() returns invalid-answer with the refusal when refused twice", async () => {
  const { adapter } = fakeAdapter([bad(), bad(), ok()]);
  const { runner, calls } = fakeRunner();
  const out = await callStructured(options(adapter, runner));
  assert.equal(out.status, "invalid-answer");
  assert.equal(calls.length, 2);
  assert.deepEqual(out.refusal, [{ path: "", problem: 'not JSON: "not json"' }]);
  assert.equal(out.answer, undefined);
  assert.match(out.message ?? "", /after the corrective resume/);
});

Deno.test('callStructured() turns an adapter refused envelope into a refusal at path ""', async () => {
  const refused = {
    outcome: "refused",
    text: "prose",
    problem: "no structured_output",
    sessionId: "s-9",
  };
  const { adapter, requests } = fakeAdapter([refused as Envelope, ok("s-9")]);
  const seen: Refusal[][] = [];
  const out = await callStructured(options(adapter, fakeRunner().runner, {
    correctivePrompt: (r) => {
      seen.push(r);
      return "again";
    },
  }));
  assert.equal(out.status, "ok");
  assert.deepEqual(seen, [[{ path: "", problem: "no structured_output" }]]);
  assert.equal(requests[1].resumeSessionId, "s-9");
});

Deno.test("callStructured() never resumes without a session id or resume capability", async (t) => {
  const cases: { name: string; envelope: Envelope; resume: boolean }[] = [
    { name: "no session id", envelope: bad(""), resume: true },
    { name: "adapter cannot resume", envelope: bad("s-1"), resume: false },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const { adapter } = fakeAdapter([c.envelope, ok()], {
        capabilities: { nativeSchema: false, resume: c.resume },
      });
      const { runner, calls } = fakeRunner();
      const out = await callStructured(options(adapter, runner));
      assert.equal(out.status, "invalid-answer");
      assert.equal(calls.length, 1);
      assert.match(out.message ?? "", /could not be resumed/);
    });
  }
});

Deno.test("callStructured() never resumes an adapter error envelope", async () => {
  const { adapter } = fakeAdapter([
    { outcome: "error", message: "API Error: 401", sessionId: "s-1" },
    ok(),
  ]);
  const { runner, calls } = fakeRunner([{ code: 1 }]);
  const out = await callStructured(options(adapter, runner));
  assert.equal(out.status, "provider-error");
  assert.equal(out.message, "API Error: 401");
  assert.equal(calls.length, 1);
  assert.equal(out.attempts[0].exitCode, 1);
  assert.equal(out.attempts[0].outcome, "error");
});

Deno.test("callStructured() uses locateSession when the envelope has no session id", async () => {
  const seen: Record<string, string | undefined>[] = [];
  const { adapter, requests } = fakeAdapter([bad(""), ok("")], {
    locateSession: (context) => {
      seen.push(context.env);
      return Promise.resolve(`v-${seen.length}`);
    },
  });
  const out = await callStructured(options(adapter, fakeRunner().runner, { env: { HOME: "/h" } }));
  assert.equal(out.status, "ok");
  assert.equal(requests[1].resumeSessionId, "v-1");
  assert.equal(out.sessionId, "v-2");
  assert.deepEqual(seen[0], { HOME: "/h", PROVIDER_ENV: "x" });
});

Deno.test("callStructured() gives the resume only the time left of the shared deadline", async () => {
  const { adapter } = fakeAdapter([bad(), ok()]);
  const { runner: inner, calls } = fakeRunner();
  const runner: Runner = async (r) => {
    await new Promise((resolve) => setTimeout(resolve, 60));
    return await inner(r);
  };
  await callStructured(options(adapter, runner, { timeoutMs: 5_000 }));
  assert.ok(calls[0].timeoutMs! <= 5_000);
  assert.ok(calls[1].timeoutMs! <= 5_000 - 50, `got ${calls[1].timeoutMs}`);
});

Deno.test("callStructured() returns timeout, kills the child and removes the temp dir", async () => {
  const { adapter, requests } = fakeAdapter([bad(), ok()], { args: ["-c", "sleep 5"] });
  const started = performance.now();
  const out = await callStructured(
    options(adapter, runProcess, { bin: "sh", timeoutMs: 300 }),
  );
  assert.ok(performance.now() - started < 3_000);
  assert.equal(out.status, "timeout");
  assert.match(out.message ?? "", /within 0\.3 s/);
  assert.equal(out.attempts.length, 1);
  assert.equal(out.attempts[0].outcome, "timeout");
  assert.equal(await exists(requests[0].tmpDir), false);
});

Deno.test("callStructured() returns interrupted on abort and removes the temp dir", async () => {
  const { adapter, requests } = fakeAdapter([ok()], { args: ["-c", "sleep 5"] });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 150);
  const out = await callStructured(
    options(adapter, runProcess, { bin: "sh", signal: controller.signal }),
  );
  assert.equal(out.status, "interrupted");
  assert.equal(out.attempts[0].outcome, "interrupted");
  assert.equal(await exists(requests[0].tmpDir), false);
});

Deno.test("callStructured() reports a missing binary with the caller's message", async () => {
  const { adapter, requests } = fakeAdapter([ok()]);
  const out = await callStructured(options(adapter, runProcess, {
    bin: "/nonexistent/review-gate-fake",
    missingBinaryMessage: 'Cannot find "claude" on PATH: install it',
  }));
  assert.equal(out.status, "provider-error");
  assert.equal(out.message, 'Cannot find "claude" on PATH: install it');
  assert.equal(out.attempts.length, 1);
  assert.equal(out.attempts[0].exitCode, -1);
  assert.equal(await exists(requests[0].tmpDir), false);
});

Deno.test("callStructured() turns a decoder throw into a refusal, resumes once, then invalid-answer", async () => {
  const { adapter, requests } = fakeAdapter([ok(), ok()]);
  const { runner, calls } = fakeRunner();
  const out = await callStructured(options(adapter, runner, {
    decode: () => Promise.reject(new RangeError("Maximum call stack size exceeded")),
  }));
  const refusal = [{
    path: "",
    problem: "the answer could not be judged: Maximum call stack size exceeded",
  }];
  assert.equal(out.status, "invalid-answer");
  assert.equal(calls.length, 2);
  assert.equal(requests[1].prompt, `fix: ${refusal[0].problem}`);
  assert.deepEqual(out.attempts.map((a) => a.outcome), ["refused", "refused"]);
  assert.deepEqual(out.attempts[0].refusal, refusal);
  assert.deepEqual(out.refusal, refusal);
  assert.equal(await exists(requests[0].tmpDir), false);
});

Deno.test("callStructured() turns a repository change into provider-error even with a valid answer", async () => {
  const { adapter } = fakeAdapter([ok()]);
  let takes = 0;
  const out = await callStructured(options(adapter, fakeRunner().runner, {
    proof: {
      take: () => Promise.resolve(takes++ === 0 ? "before" : "after"),
      compare: (a, b) => (a === b ? [] : ["a.txt", "index"]),
    },
  }));
  assert.equal(takes, 2);
  assert.equal(out.status, "provider-error");
  assert.equal(
    out.message,
    "The provider wrote where a review may not (read-only violation): a.txt, index. " +
      "If you changed these yourself while the review ran, run it again.",
  );
  assert.equal(out.answer, undefined);
});

Deno.test("callStructured() turns a failing after-snapshot into provider-error and keeps the attempts", async () => {
  const { adapter } = fakeAdapter([ok()]);
  let takes = 0;
  const out = await callStructured(options(adapter, fakeRunner().runner, {
    proof: {
      take: () =>
        takes++ === 0
          ? Promise.resolve("before")
          : Promise.reject(new GitError("git write-tree failed: index.lock exists")),
      compare: () => [],
    },
  }));
  assert.equal(takes, 2);
  assert.equal(out.status, "provider-error");
  assert.equal(
    out.message,
    "Could not verify the repository was left unchanged: git write-tree failed: index.lock exists",
  );
  assert.equal(out.answer, undefined);
  assert.equal(out.attempts.length, 1);
  assert.equal(out.attempts[0].outcome, "answer");
});

Deno.test("callStructured() turns an after-snapshot that failed once interrupted into interrupted, not provider-error", async () => {
  const { adapter } = fakeAdapter([ok()]);
  const controller = new AbortController();
  let takes = 0;
  const out = await callStructured(options(adapter, fakeRunner().runner, {
    signal: controller.signal,
    proof: {
      take: () => {
        if (takes++ === 0) return Promise.resolve("before");
        controller.abort(); // Ctrl-C while the proof's git runs: the group signal stops git too
        return Promise.reject(new GitError("git status failed with exit code 130"));
      },
      compare: () => [],
    },
  }));
  assert.equal(out.status, "interrupted");
  assert.equal(
    out.message,
    "Interrupted; Could not verify the repository was left unchanged: git status failed with exit code 130",
  );
  assert.equal(out.answer, undefined);
});

Deno.test("callStructured() ends interrupted when an interrupt stopped the proof's snapshot, before or after the call", async () => {
  for (const failing of [0, 1]) {
    const { adapter } = fakeAdapter([ok()]);
    const interrupt = new AbortController();
    let takes = 0;
    const out = await callStructured(options(adapter, fakeRunner().runner, {
      signal: interrupt.signal,
      proof: {
        take: () => {
          if (takes++ !== failing) return Promise.resolve("same");
          interrupt.abort(); // the interrupt arrives while this snapshot's git runs, and kills it
          return Promise.reject(new GitError("git status failed with exit code 137"));
        },
        compare: () => [],
      },
    }));
    assert.equal(out.status, "interrupted", `snapshot ${failing}`);
    assert.equal(out.answer, undefined);
    assert.match(out.message ?? "", /^Interrupted/);
    assert.equal(
      out.attempts.length,
      failing,
      "the provider ran only when the first snapshot stood",
    );
  }
});

Deno.test("callStructured() keeps ok when the proof shows no change", async () => {
  const { adapter } = fakeAdapter([ok()]);
  const out = await callStructured(options(adapter, fakeRunner().runner, {
    proof: { take: () => Promise.resolve("same"), compare: (a, b) => (a === b ? [] : ["x"]) },
  }));
  assert.equal(out.status, "ok");
});

Deno.test("toAttemptRecords() drops the raw bytes", async () => {
  const { adapter } = fakeAdapter([ok()]);
  const out = await callStructured(options(adapter, fakeRunner().runner));
  const [record] = toAttemptRecords(out.attempts);
  assert.equal("stdout" in record, false);
  assert.equal("stderr" in record, false);
  assert.equal(record.stdoutFile, "transcript/attempt-1.stdout");
});

Deno.test("callStructured() records output cut after the provider exited and still decodes it", async () => {
  const { adapter } = fakeAdapter([ok()]);
  const { runner } = fakeRunner([{ outputCutAfterExit: true }, {}]);
  const out = await callStructured(options(adapter, runner));
  assert.equal(out.status, "ok");
  assert.equal(out.attempts[0].outputCutAfterExit, true);
  assert.equal(out.attempts[0].truncated, undefined);
  assert.equal(toAttemptRecords(out.attempts)[0].outputCutAfterExit, true);
});

Deno.test("callStructured() reports a temp dir it cannot create as StoreError", async () => {
  const { adapter } = fakeAdapter([ok()]);
  const { runner, calls } = fakeRunner();
  const saved = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", "/nonexistent/review-gate-tmp");
  try {
    const error = await callStructured(options(adapter, runner, {
      env: { TMPDIR: "/nonexistent/review-gate-tmp" },
    })).catch((e) => e);
    assert.ok(error instanceof StoreError, String(error));
    assert.match(
      error.message,
      /^Cannot write a temp directory in "\/nonexistent\/review-gate-tmp"/,
    );
    assert.equal(calls.length, 0);
  } finally {
    if (saved === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", saved);
  }
});
