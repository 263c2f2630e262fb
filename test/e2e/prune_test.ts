/**
 * End to end: `review-gate prune` in throwaway state folders (the repository's and the sandbox
 * user's), every kind of state made old with `Deno.utime`: what nobody wrote for longer than the age
 * goes, counted per kind; what is in use stays and is named — a run whose review is running, a turn
 * record whose lock a Stop holds, what a turn may still need, the newest run, the runs kept ledger
 * lines name, today's ledger lines, a job not ended; the key is never touched; a dry run changes
 * nothing; a bad age is a usage error.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listRunDirs, readFakeLog, runCli, type Sandbox, spawnCli } from "./_cli.ts";
import { waitFor, withChangedSandbox } from "./_sandbox_scope.ts";

const DAY = 86_400_000;

/** Set a path's access and modification times `ms` in the past. */
async function age(path: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  await Deno.utime(path, when, when);
}

/** Every file and folder under `dir` with its size, mode, modification time and bytes' digest. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    const info = await Deno.lstat(path);
    let digest = "";
    if (info.isFile) {
      const bytes = await Deno.readFile(path);
      digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
    }
    out.push(`${path} ${info.size} ${info.mode} ${info.mtime?.getTime()} ${digest}`);
    if (info.isDirectory) {
      for await (const e of Deno.readDir(path)) {
        await walk(join(path, e.name));
      }
    }
  };
  await walk(dir);
  return out.sort();
}

/** A process holding an exclusive lock on `path` (as a Stop or a worker does) until `release`. */
async function holdLock(path: string): Promise<{ release: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const f = await Deno.open(${JSON.stringify(path)}, {create: true, append: true});
       await f.lock(true); console.log("locked");
       for await (const _ of Deno.stdin.readable) { /* hold until stdin closes */ }`,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the lock holder ended before it locked");
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    release: async () => {
      await child.stdin.close();
      await child.stdout.cancel();
      await child.status;
    },
  };
}

/** Write a file (its folder made first) and make it `ms` old. */
async function oldFile(path: string, text: string, ms: number): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
  await age(path, ms);
}

/** A job record as lib/store/jobs.ts writes it. */
function job(id: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    version: 1,
    id,
    args: ["review"],
    cwd: "/",
    target: "working tree",
    provider: "claude",
    answerKind: "review",
    ceilingSeconds: 600,
    log: "",
    ...fields,
  });
}

/** The sandbox's state folders. */
function dirs(sb: Sandbox): { state: string; user: string } {
  return {
    state: join(sb.repo.root, ".git", "review-gate"),
    user: join(sb.dir, "home", ".local", "state", "review-gate"),
  };
}

/** Three reviewed runs (oldest first), each made 40 days old, and the ledger's first line too. */
async function oldRuns(sb: Sandbox): Promise<string[]> {
  for (const value of ["2", "3", "4"]) {
    await sb.repo.write("src/app.ts", `export const a = ${value};\n`);
    assert.equal((await runCli(sb, ["review"], { scenario: "valid" })).code, 0);
  }
  // in the order they finished: ids only sort by the second a run started, and these three may
  // share one second (then their random tails decide the id order)
  const finished = await Promise.all(
    (await listRunDirs(sb)).map(async (run) => ({
      run,
      at: JSON.parse(await Deno.readTextFile(join(run, "run.json"))).finishedAt as string,
    })),
  );
  const runs = finished.sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0).map((r) => r.run);
  assert.equal(runs.length, 3);
  for (const run of runs) {
    await age(join(run, "run.json"), 40 * DAY);
    await age(run, 40 * DAY);
  }
  const { state } = dirs(sb);
  for await (const e of Deno.readDir(join(state, "cache"))) {
    if (e.isFile) await age(join(state, "cache", e.name), 40 * DAY);
  }
  // the first run's ledger line finished 40 days ago; the second's today (it stays, and so does its
  // run); the third run is the newest (show's default)
  const path = join(state, "records.jsonl");
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  lines[0].finishedAt = new Date(Date.now() - 40 * DAY).toISOString();
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return runs;
}

Deno.test("prune removes every kind of old state, keeps what is in use, and a dry run changes nothing", async () => {
  await withChangedSandbox(async (sb) => {
    const { state, user } = dirs(sb);
    const runs = await oldRuns(sb);
    const old = 40 * DAY;
    await oldFile(join(state, "cache", "memo", `${"a".repeat(64)}.json`), "{}", old);
    await oldFile(join(state, "cache", "push", "b".repeat(40)), "stamp", old);
    await oldFile(join(state, "cache", "push", `${"c".repeat(40)}.pending.42`), "pending", old);
    const ended = "job-20261001T000000Z-aaaaaa";
    await oldFile(
      join(state, "jobs", `${ended}.json`),
      job(ended, {
        state: "finished",
        createdAt: new Date(Date.now() - old).toISOString(),
        updatedAt: new Date(Date.now() - old).toISOString(),
        finishedAt: new Date(Date.now() - old).toISOString(),
      }),
      old,
    );
    await oldFile(join(state, "jobs", `${ended}.log`), "done\n", old);
    const queued = "job-20261001T000000Z-bbbbbb";
    await oldFile(
      join(state, "jobs", `${queued}.json`),
      job(queued, {
        state: "queued",
        createdAt: new Date().toISOString(), // just queued: no process yet, and that is fine
        updatedAt: new Date(Date.now() - old).toISOString(),
      }),
      old,
    );
    await oldFile(join(state, "sessions", "gone.json"), "{}", old);
    await oldFile(join(state, "sessions", "gone.lock"), "", old);
    await oldFile(join(state, "sessions", "gone.claims", "x.json"), "{}", old);
    await age(join(state, "sessions", "gone.claims"), old);
    await oldFile(join(state, "sessions", "held.json"), "{}", old);
    await oldFile(join(state, "work", "gone.poke.json"), "{}", old);
    await oldFile(join(state, "work", "gone.status.json"), "{}", old);
    const tallies = [
      { at: new Date(Date.now() - old).toISOString(), backgroundCalls: 1 },
      { at: new Date().toISOString(), backgroundCalls: 2 },
    ];
    await oldFile(
      join(state, "work", "turns.jsonl"),
      tallies.map((t) => JSON.stringify(t) + "\n").join(""),
      0,
    );
    await oldFile(join(user, "anchors", "gone.json"), "{}", old);
    await oldFile(join(user, "anchors", "gone.stop"), "stamp", old);
    await oldFile(join(user, "anchors", "gone.stopped"), "stamp", old);
    const key = await Deno.readTextFile(join(user, "key"));
    await oldFile(join(state, "unknown-file.txt"), "not ours to judge", old);

    const holder = await holdLock(join(state, "sessions", "held.lock"));
    await age(join(state, "sessions", "held.lock"), old); // a Stop that has held it a long time
    try {
      // a dry run lists, and changes nothing: not a byte, not a time, no lock file made
      const before = [...await snapshot(state), ...await snapshot(user)];
      const dry = await runCli(sb, ["prune", "--dry-run"]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /dry run: nothing is removed/);
      assert.match(dry.stdout, /^would remove 1 run \(/m);
      assert.ok(dry.stdout.includes(`  runs: ${runs[0]}\n`), dry.stdout);
      assert.deepEqual([...await snapshot(state), ...await snapshot(user)], before);

      const r = await runCli(sb, ["prune", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.olderThan, "30d");
      assert.equal(out.dryRun, false);
      const removed = Object.fromEntries(
        out.removed.map((k: { kind: string; count: number }) => [k.kind, k.count]),
      );
      assert.deepEqual(removed, {
        runs: 1,
        "cache entries": 6, // each run's verdict, under its whole-change key and its part's
        "verdict memos": 1,
        "push stamps": 2,
        jobs: 1,
        "turn records": 1,
        "background-work files": 1,
        "ledger lines": 1,
        "turn tallies": 1,
        anchors: 1,
        "stop stamps": 2,
      });
      for (const k of out.removed) assert.ok(k.bytes > 0, `${k.kind} counts its bytes`);
      const reasons = out.kept.map((k: { kind: string; reason: string }) =>
        `${k.kind}: ${k.reason}`
      );
      assert.deepEqual(reasons.sort(), [
        "jobs: the job is queued",
        "runs: a kept ledger line names it",
        "runs: the newest run (show and ack read it by default)",
        "turn records: a Stop of its session holds its lock",
      ]);

      // gone: the oldest run and its ledger line; kept: the run today's line names, the newest
      assert.equal(await exists(runs[0]), false);
      assert.equal(await exists(runs[1]), true);
      assert.equal(await exists(runs[2]), true);
      const ledger = (await Deno.readTextFile(join(state, "records.jsonl"))).trim().split("\n");
      assert.equal(ledger.length, 2);
      for (const line of ledger) {
        assert.ok(
          await exists(join(state, "runs", JSON.parse(line).id)),
          "a kept line leads to its run",
        );
      }
      assert.equal(await exists(join(state, "sessions", "gone.claims")), false);
      assert.equal(await exists(join(state, "sessions", "gone.lock")), false);
      assert.equal(await exists(join(state, "sessions", "held.json")), true);
      assert.equal(await exists(join(state, "jobs", `${ended}.log`)), false);
      assert.equal(await exists(join(state, "jobs", `${queued}.json`)), true);
      assert.equal(
        (await Deno.readTextFile(join(state, "work", "turns.jsonl"))).trim().split("\n").length,
        1,
      );
      assert.equal(await Deno.readTextFile(join(user, "key")), key, "the key is never touched");
      assert.equal(await exists(join(state, "unknown-file.txt")), true, "a file it does not know");

      const text = await runCli(sb, ["prune"]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^removed nothing$/m);
      assert.match(text.stdout, /^kept \d+ in use:$/m);
      assert.match(text.stdout, /^ {2}1 turn record: a Stop of its session holds its lock$/m);
    } finally {
      await holder.release();
    }
  });
});

Deno.test("prune --older-than 0s keeps a run its review is writing, a turn that may be open and today's ledger", async () => {
  await withChangedSandbox(async (sb) => {
    const { state, user } = dirs(sb);
    assert.equal((await runCli(sb, ["review"], { scenario: "valid" })).code, 0);
    await oldFile(join(user, "anchors", "recent.json"), "{}", 2 * 3_600_000);
    await oldFile(join(state, "sessions", "recent.json"), "{}", 2 * 3_600_000);
    await oldFile(join(state, "sessions", "stale.json"), "{}", 2 * DAY);

    await sb.repo.write("src/app.ts", "export const a = 5;\n");
    const review = spawnCli(sb, ["review", "--no-cache"], {
      scenario: "hang",
      env: { REVIEW_GATE_TIMEOUT_SECONDS: "120" },
    });
    let call: { pid: number } | undefined;
    try {
      // the first call was the first review's; the second is this one's, hanging
      await waitFor(async () => (await readFakeLog(sb)).length > 1, 15_000);
      call = (await readFakeLog(sb))[1];
      const status = async (dir: string) =>
        JSON.parse(await Deno.readTextFile(join(dir, "run.json"))).status;
      const all = await listRunDirs(sb);
      const statuses = await Promise.all(all.map(status));
      const running = all[statuses.indexOf("running")];
      const finished = all[statuses.indexOf("approved")];
      assert.ok(running && finished, statuses.join(", "));
      await age(join(running, "run.json"), 40 * DAY); // however old it looks, its review holds it

      const r = await runCli(sb, ["prune", "--older-than", "0s", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      const kept = out.kept.map((
        k: { kind: string; path: string; reason: string; count: number },
      ) => `${k.kind} ${k.path.replace(sb.dir, "")}: ${k.reason} (${k.count})`);
      const short = (path: string) => path.replace(sb.dir, "");
      assert.deepEqual(
        kept.sort(),
        [
          `anchors /home/.local/state/review-gate/anchors/recent.json: a turn may be open (written within 24 h) (1)`,
          `ledger lines ${
            short(join(state, "records.jsonl"))
          }: today's (UTC) lines: the daily budget adds them up (1)`,
          `runs ${short(running)}: its review is writing it (holds its lock) (1)`,
          `runs ${short(finished)}: the newest run (show and ack read it by default) (1)`,
          `turn records ${
            short(join(state, "sessions", "recent.*"))
          }: a turn may be open (written within 24 h) (1)`,
        ].sort(),
      );
      assert.equal(await exists(join(state, "sessions", "stale.json")), false);
      assert.equal(await exists(join(user, "key")), true);

      // the review goes on and finishes its run in the folder prune left it
      review.kill("SIGTERM");
      const end = await review.output();
      assert.equal(end.code, 130, new TextDecoder().decode(end.stderr));
      assert.equal(await status(running), "interrupted");
    } finally {
      try {
        review.kill("SIGTERM");
      } catch {
        // it has ended
      }
      await review.status;
      try {
        if (call) Deno.kill(call.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  });
});

Deno.test("prune never follows a state folder replaced by a symlink out of the state dir", async () => {
  await withChangedSandbox(async (sb) => {
    const { state } = dirs(sb);
    const victim = join(sb.dir, "victim");
    // files named as push stamps and a run folder would be, all 40 days old, outside the state dir
    await oldFile(join(victim, "b".repeat(40)), "notes", 40 * DAY);
    await Deno.mkdir(join(victim, "runs", "20261001T000000Z-aaaaaa"), { recursive: true });
    await oldFile(join(victim, "runs", "20261001T000000Z-aaaaaa", "run.json"), "{}", 40 * DAY);
    await Deno.mkdir(join(state, "cache"), { recursive: true });
    await Deno.remove(join(state, "cache", "push"), { recursive: true }).catch(() => {});
    await Deno.symlink(victim, join(state, "cache", "push"));
    await Deno.remove(join(state, "runs"), { recursive: true }).catch(() => {});
    await Deno.symlink(join(victim, "runs"), join(state, "runs"));
    const before = await snapshot(victim);
    const r = await runCli(sb, ["prune"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await snapshot(victim), before, "nothing outside the state dir was removed");
  });
});

Deno.test("prune refuses an age it cannot read with exit 2, naming the forms it takes", async () => {
  await withChangedSandbox(async (sb) => {
    for (const bad of ["30", "1y", "-1d", "soon"]) {
      const r = await runCli(sb, ["prune", `--older-than=${bad}`]);
      assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
      assert.match(
        r.stderr,
        /Invalid --older-than .*: give a whole number and a unit, s, m, h, d or w \(0s, 90m, 12h, 7d, 2w\)/,
      );
    }
  });
});

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
