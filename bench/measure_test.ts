import assert from "node:assert/strict";
import { measure, measureInterleaved, median, parseTimeOutput } from "./measure.ts";

Deno.test("parseTimeOutput() reads seconds and KiB from the last line", () => {
  assert.deepEqual(parseTimeOutput("0.02 4812\n"), { seconds: 0.02, maxRssKb: 4812 });
  assert.deepEqual(parseTimeOutput("Command exited with non-zero status 1\n1.50 70000\n"), {
    seconds: 1.5,
    maxRssKb: 70000,
  });
});

Deno.test("parseTimeOutput() refuses text without the two numbers", () => {
  assert.throws(
    () => parseTimeOutput("Command terminated by signal 9\n"),
    /Unexpected GNU time output/,
  );
  assert.throws(() => parseTimeOutput(""), /Unexpected GNU time output/);
});

Deno.test("median() takes the middle value, or the mean of the two middle values", () => {
  for (const [values, want] of [[[3], 3], [[5, 1, 3], 3], [[4, 1, 3, 2], 2.5]] as const) {
    assert.equal(median(values), want);
  }
  assert.throws(() => median([]), /no values/);
});

Deno.test("measure() runs warm-up plus runs, reports RSS and fails on an unexpected exit code", async () => {
  const dir = await Deno.makeTempDir({ prefix: "review-gate-bench-test-" });
  try {
    const timeFile = `${dir}/time.txt`;
    const counter = `${dir}/count`;
    const m = await measure({
      cmd: ["sh", "-c", `echo x >> "${counter}"; echo out`],
      cwd: dir,
      runs: 3,
      warmup: 2,
      timeFile,
    });
    assert.equal((await Deno.readTextFile(counter)).split("\n").filter(Boolean).length, 5);
    assert.equal(m.samplesMs.length, 3);
    assert.deepEqual(m.outputs, ["out\n", "out\n", "out\n"]);
    assert.ok(m.maxRssMb > 0 && m.maxRssMb < 100, `max RSS ${m.maxRssMb} MB`);
    const piped = await measure({
      cmd: ["cat"],
      cwd: dir,
      stdin: "payload",
      runs: 1,
      warmup: 0,
      timeFile,
    });
    assert.deepEqual(piped.outputs, ["payload"]);
    await assert.rejects(
      measure({ cmd: ["sh", "-c", "echo oops >&2; exit 3"], cwd: dir, runs: 1, timeFile }),
      /exited 3[^]*oops/,
    );
    const ok3 = await measure({
      cmd: ["sh", "-c", "exit 3"],
      cwd: dir,
      runs: 1,
      okCodes: [3],
      timeFile,
    });
    assert.equal(ok3.samplesMs.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measureInterleaved() runs every warm-up first, then one run of each per round", async () => {
  const dir = await Deno.makeTempDir({ prefix: "review-gate-bench-test-" });
  try {
    const log = `${dir}/log`;
    const step = (name: string) => [
      "sh",
      "-c",
      `echo ${name} >> "${log}"; echo ${name}; echo ${name}-said >&2`,
    ];
    const [a, b] = await measureInterleaved([
      { cmd: step("a"), cwd: dir, runs: 3, warmup: 1, timeFile: `${dir}/t` },
      { cmd: step("b"), cwd: dir, runs: 2, warmup: 1, timeFile: `${dir}/t` },
    ]);
    const order = (await Deno.readTextFile(log)).trim().split("\n").join("");
    assert.equal(order, "ab" + "ab" + "ab" + "a"); // warm-ups, then rounds
    assert.deepEqual([a.samplesMs.length, b.samplesMs.length], [3, 2]);
    assert.deepEqual(b.outputs, ["b\n", "b\n"]);
    // what each measured run said on stderr is kept: a row can require its runs to be quiet
    assert.deepEqual(b.errors, ["b-said\n", "b-said\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
