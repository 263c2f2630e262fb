import assert from "node:assert/strict";
import { StoreError } from "../base/errors.ts";
import type { RunningRecord, RunRecord } from "./run_record.ts";
import {
  createRunDir,
  newRunId,
  type TranscriptAttempt,
  writeRunRecord,
  writeSuccess,
  writeTranscript,
} from "./run_dir.ts";

async function withState(fn: (state: string) => Promise<void>): Promise<void> {
  const state = await Deno.makeTempDir();
  try {
    await fn(state);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

const enc = new TextEncoder();

Deno.test("newRunId() is a sortable UTC stamp with a random hex suffix", () => {
  const now = new Date("2024-01-02T03:04:05.678Z");
  const a = newRunId(now);
  assert.match(a, /^20240102T030405Z-[0-9a-f]{6}$/);
  assert.notEqual(newRunId(now), a); // 1 in 16M flake chance
  assert.ok(newRunId(new Date("2024-01-02T03:04:06Z")) > a);
});

Deno.test("createRunDir() refuses a bad id and an existing run", async () => {
  await withState(async (state) => {
    await assert.rejects(createRunDir(state, "../x"), TypeError);
    const id = newRunId(new Date());
    const dir = await createRunDir(state, id);
    assert.equal(dir, `${state}/runs/${id}`);
    assert.deepEqual(names(dir), ["transcript"]);
    const error = await createRunDir(state, id).catch((e) => e);
    assert.ok(error instanceof StoreError);
    assert.ok(error.cause instanceof Deno.errors.AlreadyExists);
  });
});

Deno.test("run folder writes throw StoreError naming the path and what to do", async (t) => {
  const hint = /; check permissions and free space$/;
  await t.step("createRunDir() when runs/ is a file", async () => {
    await withState(async (state) => {
      await Deno.writeTextFile(`${state}/runs`, "");
      const id = newRunId(new Date());
      const error = await createRunDir(state, id).catch((e) => e);
      assert.ok(error instanceof StoreError, String(error));
      assert.equal(error.exitCode, 3);
      assert.ok(error.message.startsWith(`Cannot write the run folder "${state}/runs/${id}": `));
      assert.match(error.message, hint);
    });
  });
  await t.step("writeRunRecord() and writeSuccess() into a missing folder", async () => {
    await withState(async (state) => {
      const gone = `${state}/gone`;
      const record = await writeRunRecord(gone, {} as never).catch((e) => e);
      assert.ok(record instanceof StoreError && record.path === `${gone}/run.json`);
      assert.match(record.message, hint);
      const success = await writeSuccess(gone, { answer: {}, markdown: "" }).catch((e) => e);
      assert.ok(success instanceof StoreError && success.path === gone, String(success));
    });
  });
  await t.step("writeTranscript() when transcript/ is a file", async () => {
    await withState(async (state) => {
      await Deno.writeTextFile(`${state}/transcript`, "");
      const error = await writeTranscript(state, []).catch((e) => e);
      assert.ok(error instanceof StoreError && /the transcript/.test(error.message));
    });
  });
});

Deno.test("writeTranscript() writes raw bytes and a record per attempt of a failed run", async () => {
  await withState(async (state) => {
    const dir = await createRunDir(state, newRunId(new Date()));
    const attempts: TranscriptAttempt[] = [1, 2].map((n) => ({
      n,
      argv: ["claude", "-p"],
      stdinBytes: 12,
      exitCode: n === 1 ? 0 : 1,
      durationMs: 30,
      outcome: n === 1 ? "refused" : "error",
      message: n === 2 ? "API Error" : undefined,
      stdoutFile: `transcript/attempt-${n}.stdout`,
      stderrFile: `transcript/attempt-${n}.stderr`,
      stdout: new Uint8Array([0xff, 0xfe, n]), // not UTF-8: kept byte for byte
      stderr: enc.encode(`err ${n}`),
    }));
    await writeTranscript(dir, attempts);
    assert.deepEqual(names(`${dir}/transcript`), [
      "attempt-1.json",
      "attempt-1.stderr",
      "attempt-1.stdout",
      "attempt-2.json",
      "attempt-2.stderr",
      "attempt-2.stdout",
    ]);
    assert.deepEqual(
      await Deno.readFile(`${dir}/transcript/attempt-2.stdout`),
      new Uint8Array([0xff, 0xfe, 2]),
    );
    assert.equal(await Deno.readTextFile(`${dir}/transcript/attempt-2.stderr`), "err 2");
    const json = JSON.parse(await Deno.readTextFile(`${dir}/transcript/attempt-2.json`));
    assert.equal(json.exitCode, 1);
    assert.equal(json.outcome, "error");
    assert.equal(json.message, "API Error");
    assert.deepEqual(json.argv, ["claude", "-p"]);
    assert.equal(json.stdout, undefined);
  });
});

Deno.test("writeRunRecord() and writeSuccess() leave no temp files behind", async () => {
  await withState(async (state) => {
    const id = newRunId(new Date());
    const dir = await createRunDir(state, id);
    assert.equal(await readSuccessFiles(dir), null);
    const record = { id, status: "approved", attempts: [] } as unknown as RunRecord;
    await writeRunRecord(dir, record);
    await writeRunRecord(dir, { ...record, status: "needs-attention" });
    await writeSuccess(dir, { answer: { verdict: "approve" }, markdown: "# Review\n" });
    assert.deepEqual(names(dir), ["answer.json", "review.md", "run.json", "transcript"]);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/run.json`)).status, "needs-attention");
    assert.deepEqual(await readSuccessFiles(dir), {
      answer: { verdict: "approve" },
      markdown: "# Review\n",
    });
  });
});

Deno.test("writeSuccess() removes its temp files when a rename fails", async () => {
  await withState(async (state) => {
    const dir = await createRunDir(state, newRunId(new Date()));
    await Deno.mkdir(`${dir}/answer.json/x`, { recursive: true }); // rename over a non-empty dir fails
    await assert.rejects(writeSuccess(dir, { answer: {}, markdown: "m" }));
    assert.deepEqual(names(dir).filter((n) => n.endsWith(".tmp")), []);
    assert.equal(await readSuccessFiles(dir), null); // no answer.json commit marker
  });
});

Deno.test("writeRunRecord() stores a running placeholder that the final record replaces", async () => {
  await withState(async (state) => {
    const id = newRunId(new Date());
    const dir = await createRunDir(state, id);
    const running = { id, status: "running", attempts: [] } as unknown as RunningRecord;
    await writeRunRecord(dir, running);
    assert.deepEqual(names(dir), ["run.json", "transcript"]);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/run.json`)).status, "running");
    await writeRunRecord(dir, { ...running, status: "timeout" } as unknown as RunRecord);
    assert.deepEqual(names(dir), ["run.json", "transcript"]);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/run.json`)).status, "timeout");
  });
});

/** A run's `answer.json` (parsed) and `review.md`, or null when `answer.json` is missing. */
async function readSuccessFiles(
  dir: string,
): Promise<{ answer: unknown; markdown: string } | null> {
  const answer = await Deno.readTextFile(`${dir}/answer.json`).catch(() => null);
  if (answer === null) return null;
  return { answer: JSON.parse(answer), markdown: await Deno.readTextFile(`${dir}/review.md`) };
}
