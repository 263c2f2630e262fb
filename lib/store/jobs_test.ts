import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createJob,
  jobLogPath,
  type JobRecord,
  jobsDir,
  listJobs,
  newJobId,
  readJob,
  removeJob,
  updateJob,
} from "./jobs.ts";
import { withState } from "./_test_state.ts";

function job(state: string, id: string, createdAt: string): JobRecord {
  return {
    version: 1,
    id,
    state: "queued",
    createdAt,
    updatedAt: createdAt,
    args: [],
    cwd: "/repo",
    target: "working tree",
    provider: "claude",
    answerKind: "review",
    ceilingSeconds: 60,
    log: jobLogPath(state, id),
  };
}

Deno.test("newJobId() is sortable and distinct", () => {
  const a = newJobId(new Date("2026-01-02T03:04:05Z"));
  assert.match(a, /^job-20260102T030405Z-[0-9a-f]{6}$/);
  assert.notEqual(a, newJobId(new Date("2026-01-02T03:04:05Z")));
});

Deno.test("createJob() / readJob() / listJobs() keep jobs in creation order; removeJob() drops record and log", async () => {
  await withState(async (state) => {
    assert.deepEqual(await listJobs(state), []);
    const late = job(state, "job-20260102T030405Z-aaaaaa", "2026-01-02T03:04:05.900Z");
    const early = job(state, "job-20260102T030405Z-ffffff", "2026-01-02T03:04:05.100Z");
    await createJob(state, late);
    await createJob(state, early);
    await assert.rejects(() => createJob(state, early), /a job with this id exists/);
    assert.deepEqual((await listJobs(state)).map((j) => j.id), [early.id, late.id]);
    assert.deepEqual(await readJob(state, late.id), late);
    await Deno.writeTextFile(late.log, "log\n");
    await Deno.writeTextFile(join(jobsDir(state), "job-20260102T030405Z-bbbbbb.json"), "{half");
    assert.equal((await listJobs(state)).length, 2, "an unreadable record is skipped");
    await removeJob(state, late.id);
    assert.equal(await readJob(state, late.id), null);
    assert.equal(await Deno.lstat(late.log).catch(() => null), null);
    assert.throws(() => jobLogPath(state, "../x"), TypeError);
  });
});

Deno.test("updateJob() serialises concurrent read-modify-writes and readers never see half a record", async () => {
  await withState(async (state) => {
    const record = job(state, newJobId(new Date()), new Date().toISOString());
    await createJob(state, { ...record, args: [] });
    let reading = true;
    const seen: number[] = [];
    const reader = (async () => {
      while (reading) {
        const current = await readJob(state, record.id);
        assert.ok(current, "a reader always finds a whole record");
        seen.push(current.args.length);
      }
    })();
    // 40 writers each append one word: a lost update would leave fewer than 40
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        updateJob(state, record.id, (current) => ({
          ...current,
          args: [...current.args, String(i)],
        }))),
    );
    reading = false;
    await reader;
    assert.equal((await readJob(state, record.id))!.args.length, 40);
    assert.ok(seen.length > 0);
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b), "never goes back");
    assert.equal(await updateJob(state, "job-20260102T030405Z-cccccc", (c) => c), null);
  });
});
