/**
 * End to end: the job of an agent turn's background worker (README.md "Review while working") as
 * `jobs`, `status` and `result` show it, after a real turn (the tool hook starts the worker, the
 * Stop ends it). The worker gives no verdict of its own — the turn's Stop does — so it is shown as
 * what it is (its session, its calls and the parts answered, why it ended), never as "undefined";
 * `result` of it says there is no verdict and exits 3, never the 0 of a pass; `status` and
 * `result` without an id take the newest review job, not the worker.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JobRecord } from "../../lib/store/jobs.ts";
import {
  type GateSandbox,
  makeGateSandbox,
  promptPayload,
  runCli,
  runHook,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";
import { editPart, waitForWork, workConfig } from "./_work.ts";

async function jobs(sb: GateSandbox): Promise<JobRecord[]> {
  const out = await runCli(sb, ["jobs", "--json"]);
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
}

/** One agent turn that edits one part and stops; returns the worker's job once it ended. */
async function turn(sb: GateSandbox, sessionId: string, part: number): Promise<JobRecord> {
  const session = { sessionId, cwd: sb.repo.root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session));
  assert.equal(p.code, 0, p.stderr);
  await editPart(sb, session, part);
  const settled = await waitForWork(sb, sessionId, (s) => s.settled !== undefined);
  assert.equal(settled?.answered.length, 1, JSON.stringify(settled));
  const s = await runHook(sb, "claude-stop", stopPayload(session));
  assert.equal(s.code, 0, s.stderr);
  const ended = await waitForWork(sb, sessionId, (w) => w.ended !== undefined, 10_000);
  const until = Date.now() + 10_000;
  let job: JobRecord | undefined;
  while (Date.now() < until) {
    job = (await jobs(sb)).find((j) => j.id === ended?.jobId);
    if (job?.state === "finished") return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the worker's job did not finish: ${JSON.stringify(job)}`);
}

Deno.test("a background worker's job is shown as what it is; result of it has no verdict (exit 3); status and result default to the newest review job", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 0 })); // one part, at once
    const worker = await turn(sb, "session-one", 1);
    assert.deepEqual(worker.work, { sessionId: "session-one", calls: 1, answered: 1 });

    const table = await runCli(sb, ["jobs"]);
    assert.doesNotMatch(table.stdout, /undefined/);
    assert.match(
      table.stdout,
      new RegExp(
        `^${worker.id}\\s+finished\\s+no verdict \\(background: 1 call, 1 part answered\\)`,
        "m",
      ),
    );

    const status = await runCli(sb, ["status", worker.id.slice(-6)]);
    assert.equal(status.code, 0, status.stderr);
    assert.doesNotMatch(status.stdout, /undefined/);
    assert.match(
      status.stdout,
      /: finished after [\d.]+ s — background review of session session-one's turn: 1 call, 1 part answered$/m,
    );
    assert.match(status.stdout, /^ {2}ended: the Stop answered$/m);
    assert.doesNotMatch(status.stdout, /see the review: review-gate result/);

    const result = await runCli(sb, ["result", worker.id.slice(-6)]);
    assert.equal(result.code, 3, "no verdict is never the 0 of a pass");
    assert.doesNotMatch(result.stdout, /undefined/);
    assert.match(result.stdout, /background review of session session-one's turn .*no verdict/);
    const json = JSON.parse((await runCli(sb, ["result", worker.id, "--json"])).stdout);
    assert.deepEqual(
      [json.status, json.exitCode, json.calls, json.answered],
      ["no-verdict", 3, 1, 1],
    );

    // without an id and only a worker's job: no review job to show (exit 2), never the worker's
    for (const command of ["status", "result"]) {
      const none = await runCli(sb, [command]);
      assert.equal(none.code, 2, `${command}: ${none.stdout}`);
      assert.match(none.stderr, /No background review jobs/);
    }

    // a review job, then a newer turn: without an id, the review job
    const bg = await runCli(sb, ["review", "--background"]);
    assert.equal(bg.code, 0, bg.stderr);
    const reviewId = bg.stdout.split("\n")[0];
    const waited = await runCli(sb, ["status", reviewId, "--wait", "--timeout", "120"]);
    assert.equal(waited.code, 0, waited.stderr);
    const second = await turn(sb, "session-two", 2);
    assert.ok(second.createdAt >= worker.createdAt);
    const newest = await runCli(sb, ["status", "--json"]);
    assert.equal(JSON.parse(newest.stdout).id, reviewId);
    const byId = await runCli(sb, ["result", reviewId]);
    const byDefault = await runCli(sb, ["result"]);
    assert.deepEqual([byDefault.code, byDefault.stdout], [byId.code, byId.stdout]);
  } finally {
    await sb.cleanup();
  }
});
