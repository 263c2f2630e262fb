/**
 * End to end: a pull request reviewed across a CI matrix — `review-gate ci --shard i/n
 * --shard-output FILE` run as n separate processes side by side in GitHub Actions' environment
 * (the fake provider), then `review-gate merge` of their files — gives the same verdict, findings,
 * fingerprints and coverage as one unsharded `ci` of the same request, with no model call of its
 * own. Then one merge per failure: a missing, duplicated, foreign, tampered (digest, decoder) and
 * failed shard each leave their parts NOT reviewed, naming the shard and its parts, never
 * "approved"; and `--plan-only --shard` prints each shard's parts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFakeLog, runCli } from "../e2e/_cli.ts";
import { assertValid, rdjsonValidators, sarifValidator } from "../schemas/validators.ts";
import {
  copyDir,
  editJson,
  FIRST_LINE,
  jsonOf,
  merge,
  redigest,
  shards,
  withShards,
} from "./_shard.ts";

Deno.test("ci --shard i/3 side by side, then merge: the same review as one unsharded ci", async () => {
  await withShards(async (sb, env) => {
    const whole = await runCli(sb, ["ci", "--format", "json", "--output", "one.json"], {
      cwd: sb.workspace,
      scenario: FIRST_LINE,
      env,
    });
    assert.equal(whole.code, 1, whole.stderr);
    const one = await jsonOf(sb, "one.json");
    const planned = one.coverage.chunks!.planned;
    assert.ok(planned >= 4, `the request is planned in ${planned} parts`);
    const calls = (await readFakeLog(sb)).length;
    assert.equal(calls, planned);

    const dir = join(sb.dir, "shards");
    const ran = await shards(sb, env, dir, 3);
    for (const r of ran) {
      assert.match(r.stderr, /A shard does not gate/);
      assert.equal(r.stdout, "", "a shard prints no review");
    }
    const log = await readFakeLog(sb);
    assert.equal(log.length - calls, planned, "every part asked once across the shards");
    const assigned = await Promise.all(
      [1, 2, 3].map(async (i) =>
        JSON.parse(await Deno.readTextFile(join(dir, `shard-${i}.json`))).plan.assigned as number[]
      ),
    );
    assert.deepEqual(
      assigned.flat().sort((a, b) => a - b),
      [...Array(planned)].map((_, i) => i + 1),
    );

    const merged = await merge(sb, env, [
      dir,
      "--format",
      "json",
      "--output",
      "all.json",
      "--format",
      "sarif",
      "--output",
      "r.sarif",
      "--format",
      "github",
      "--output",
      "annotations.txt",
      "--format",
      "rdjson",
      "--output",
      "r.rdjson",
      "--format",
      "markdown",
      "--output",
      "review.md",
    ]);
    assert.equal(merged.code, 1, merged.stderr);
    assert.equal((await readFakeLog(sb)).length, log.length, "merge asks no model");
    const all = await jsonOf(sb, "all.json");
    assert.equal(all.status, one.status);
    assert.deepEqual(all.answer, one.answer);
    assert.deepEqual(all.findingNotes, one.findingNotes);
    assert.deepEqual(all.coverage, one.coverage);
    assert.match(
      merged.stderr,
      /review-gate merge: shard 2 of 3 \(.*shard-2\.json\): parts? [\d, and]+ of \d+/,
    );
    const sarif = JSON.parse(await Deno.readTextFile(join(sb.workspace, "r.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
    assert.equal(sarif.runs[0].results.length, one.answer!.findings.length);
    const rdjson = JSON.parse(await Deno.readTextFile(join(sb.workspace, "r.rdjson")));
    assertValid(rdjsonValidators().result, rdjson, "rdjson");
    assert.equal(rdjson.diagnostics.length, one.answer!.findings.length);
    assert.match(
      await Deno.readTextFile(join(sb.workspace, "review.md")),
      /^# Review: needs-attention/,
    );
    const annotations = await Deno.readTextFile(join(sb.workspace, "annotations.txt"));
    assert.match(annotations, /^::error file=d0\/f00\.ts,line=1/m);
    assert.match(await Deno.readTextFile(env.GITHUB_STEP_SUMMARY), /blocking/);
    const records = (await Deno.readTextFile(join(sb.workspace, ".git/review-gate/records.jsonl")))
      .trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(records.at(-1).gate, "ci-merge");
    assert.equal(records.at(-1).attempts, 0);

    // the per-part verdict cache works across shards where it is shared (here: the same runner)
    const before = (await readFakeLog(sb)).length;
    await shards(sb, env, join(sb.dir, "again"), 3, { only: [2] });
    assert.equal((await readFakeLog(sb)).length, before, "shard 2's parts came from the cache");
    const again = JSON.parse(await Deno.readTextFile(join(sb.dir, "again", "shard-2.json")));
    assert.ok(again.results.every((r: { cached: boolean }) => r.cached), "cached parts");

    // review --shard: the same for any target, here the request's range with the base's rules
    const byHand = await runCli(sb, [
      "review",
      "--range",
      `${sb.baseTip}..${sb.merge}`,
      "--rules-from",
      sb.baseTip,
      "--shard",
      "1/3",
      "--shard-output",
      join(sb.dir, "by-hand.json"),
    ], { cwd: sb.repo.root, scenario: FIRST_LINE, env: { GITHUB_ACTIONS: undefined } });
    assert.equal(byHand.code, 0, byHand.stderr);
    const hand = JSON.parse(await Deno.readTextFile(join(sb.dir, "by-hand.json")));
    assert.deepEqual(hand.plan.assigned, assigned[0]);
    assert.deepEqual(
      hand.results.map((r: { answer: unknown }) => r.answer),
      JSON.parse(await Deno.readTextFile(join(dir, "shard-1.json"))).results.map((
        r: { answer: unknown },
      ) => r.answer),
      "the same parts, the same answers",
    );

    // --plan-only --shard: what each shard will do, the same deal
    const plan = await runCli(sb, [
      "review",
      "--range",
      `${sb.baseTip}..${sb.merge}`,
      "--rules-from",
      sb.baseTip,
      "--plan-only",
      "--json",
      "--shard",
      "2/3",
    ], { cwd: sb.repo.root, env: { GITHUB_ACTIONS: undefined } });
    assert.equal(plan.code, 0, plan.stderr);
    const shown = JSON.parse(plan.stdout);
    assert.equal(shown.reviewed, false);
    assert.deepEqual(shown.shard, { index: 2, count: 3 });
    assert.deepEqual(shown.shards.map((s: { parts: number[] }) => s.parts), assigned);
  });
});

Deno.test("merge: a missing, duplicated, foreign, tampered or failed shard leaves its parts NOT reviewed", async () => {
  await withShards(async (sb, env) => {
    const good = join(sb.dir, "good");
    await shards(sb, env, good, 3);
    const ok = await merge(sb, env, [good]);
    assert.equal(ok.code, 1, ok.stderr);
    const parts = (n: number) =>
      JSON.parse(Deno.readTextFileSync(join(good, `shard-${n}.json`))).plan.assigned as number[];
    const second = parts(2).join("(?:, | and )");
    /** Merge a folder; it must not pass, must say NOT reviewed and name shard 2 and its parts. */
    const notReviewed = async (dir: string, why: RegExp, only?: RegExp) => {
      const r = await merge(sb, env, [dir, "--format", "json", "--output", "m.json"]);
      const json = await jsonOf(sb, "m.json");
      assert.notEqual(json.status, "approved");
      assert.equal(r.code, 3, `${why}: ${r.stderr}`);
      const named = only ?? new RegExp(`shard 2 of 3 \\(parts? ${second} of \\d+\\)`);
      assert.match(json.message ?? "", named);
      assert.match(json.message ?? "", why);
      return { r, json };
    };

    // missing: shard 2's job uploaded nothing
    const missing = join(sb.dir, "missing");
    await copyDir(good, missing, ["shard-2.json"]);
    await notReviewed(missing, /no result found \(missing\)/);
    // --on-partial block: the other shards' findings stand, shard 2's parts named, blocking
    const partial = await merge(sb, env, [
      missing,
      "--format",
      "json",
      "--output",
      "p.json",
      "--on-partial",
      "block",
    ]);
    assert.equal(partial.code, 1, partial.stderr);
    const shown = await jsonOf(sb, "p.json");
    assert.equal(shown.coverage.status, "partial");
    const second2 = shown.coverage.omitted.filter((o) => o.reason === "unmerged");
    assert.ok(
      second2.length > 0 && second2.every((o) => o.shard === "shard 2 of 3"),
      partial.stdout,
    );
    assert.match(shown.message ?? "", /shard 2 of 3 \(parts? [\d, and]+ of \d+\): no result found/);

    // duplicated: a second, different result for shard 2 (a re-run that approved)
    const duplicated = join(sb.dir, "duplicated");
    await copyDir(good, duplicated);
    const rerun = { only: [2], scenario: "valid", args: ["--no-cache"] };
    await shards(sb, env, join(sb.dir, "rerun"), 3, rerun);
    await Deno.copyFile(join(sb.dir, "rerun", "shard-2.json"), join(duplicated, "again.json"));
    await notReviewed(duplicated, /duplicated — 2 different results/);
    // the same bytes twice are one result
    const twice = join(sb.dir, "twice");
    await copyDir(good, twice);
    await Deno.copyFile(join(good, "shard-2.json"), join(twice, "copy.json"));
    assert.equal((await merge(sb, env, [twice])).code, 1);

    // foreign: shard 2 planned another plan (more parts) — its file is not this review's
    const foreign = join(sb.dir, "foreign");
    await copyDir(good, foreign, ["shard-2.json"]);
    await shards(sb, env, join(sb.dir, "other"), 3, { only: [2], args: ["--max-calls", "2"] });
    await Deno.copyFile(join(sb.dir, "other", "shard-2.json"), join(foreign, "shard-2.json"));
    const f = await notReviewed(
      foreign,
      /shard-2\.json was not used: foreign — this change planned otherwise/,
    );
    assert.match(
      f.r.stderr,
      /shard-2\.json \(shard 2 of 3\): foreign — this change planned otherwise/,
    );

    // foreign: a result of another change (its change digest), valid as a file
    const otherChange = join(sb.dir, "other-change");
    await copyDir(good, otherChange);
    await editJson(join(otherChange, "shard-2.json"), (v) => {
      (v.change as { digest: string; label: string }).digest = "0".repeat(64);
      (v.change as { digest: string; label: string }).label = "pull request #2";
    });
    await redigest(join(otherChange, "shard-2.json"));
    await notReviewed(
      otherChange,
      /shard-2\.json was not used: foreign — a review of another change: pull request #2, [0-9a-f]{12}\.\.[0-9a-f]{12}, digest 000000000000, where this merge reviews pull request #1/,
    );

    // tampered: an edited answer (digest mismatch), and a forged one with its digest recomputed
    const tampered = join(sb.dir, "tampered");
    await copyDir(good, tampered);
    await editJson(join(tampered, "shard-2.json"), (v) => {
      const results = v.results as { answer: { findings: unknown[]; verdict: string } }[];
      results[0].answer.findings = [];
      results[0].answer.verdict = "approve";
    });
    const t = await notReviewed(
      tampered,
      /shard-2\.json was not used: tampered: it does not match its digest/,
    );
    assert.match(t.r.stderr, /shard-2\.json: tampered: it does not match its digest/);
    const forged = join(sb.dir, "forged");
    await copyDir(good, forged);
    await editJson(join(forged, "shard-2.json"), (v) => {
      const results = v.results as { answer: { findings: { line_end: number }[] } }[];
      results[0].answer.findings[0].line_end = 99999;
    });
    await redigest(join(forged, "shard-2.json"));
    await notReviewed(
      forged,
      /tampered — the decoder refuses its answer for part \d+: `\/findings\/0\/line_end`/,
      new RegExp(`shard 2 of 3 \\(part ${parts(2)[0]} of \\d+\\)`),
    );
    const schema = join(sb.dir, "schema");
    await copyDir(good, schema);
    await editJson(join(schema, "shard-2.json"), (v) => (v.shard = { index: 2 }));
    const s = await notReviewed(
      schema,
      /no result found \(missing\); set aside, and may have been its file: \S*shard-2\.json \(not a shard result\)/,
    );
    assert.match(s.r.stderr, /shard-2\.json: not a shard result \(/);

    // failed: shard 2's provider failed — its status and message, the others' verdict aside
    const failed = join(sb.dir, "failed");
    await copyDir(good, failed, ["shard-2.json"]);
    await shards(sb, env, failed, 3, { only: [2], scenario: "error", args: ["--no-cache"] });
    const x = await merge(sb, env, [failed, "--format", "json", "--output", "x.json"]);
    assert.equal(x.code, 3, x.stderr);
    const xs = await jsonOf(sb, "x.json");
    assert.equal(xs.status, "provider-error");
    assert.match(
      xs.message ?? "",
      new RegExp(`shard 2 of 3 \\(parts? ${second} of \\d+\\): part \\d+:`),
    );
    const allowed = await merge(sb, env, [failed, "--on-error", "allow"]);
    assert.equal(allowed.code, 0);
    assert.match(allowed.stdout, /NOT reviewed/);

    // nothing at all (every shard failed before uploading): NOT reviewed, exit 3
    const none = await merge(sb, env, [
      join(sb.dir, "no-such-folder"),
      "--format",
      "json",
      "--output",
      "n.json",
    ]);
    assert.equal(none.code, 3, none.stderr);
    assert.match((await jsonOf(sb, "n.json")).message ?? "", /no shard result belongs/);
    assert.match(none.stderr, /no-such-folder: no such file or folder/);
  });
});

Deno.test("ci --shard: usage errors exit 2", async () => {
  await withShards(async (sb, env) => {
    const bad = [
      [["--shard", "3/2", "--shard-output", "x.json"], /Invalid --shard "3\/2"/],
      [["--shard", "1/2"], /give --shard-output FILE/],
      [["--shard-output", "x.json"], /give --shard i\/n too/],
      [["--shard", "1/2", "--shard-output", "x.json", "--format", "sarif"], /not a review/],
    ] as const;
    for (const [args, message] of bad) {
      const r = await runCli(sb, ["ci", ...args], { cwd: sb.workspace, env });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  });
});
