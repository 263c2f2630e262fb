/**
 * End to end: what a hostile tester of `ci --shard i/n` and `merge` found (issue 24), each as the
 * user meets it — a merge of the fake's shards marked as the fake's, junk files that must not
 * outvote a valid set, too many files, an edited status or shard number, a FIFO in the folder, and
 * every format saying "partially reviewed" or "NOT reviewed" when the merge is.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { providerMetas } from "../../lib/providers/registry.ts";
import { runCli } from "../e2e/_cli.ts";
import { type CiSandbox, githubEnv } from "./_ci.ts";
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

/** The aggregator job's environment: no provider program configured (merge asks none). */
function noProviders(env: Record<string, string>): Record<string, string | undefined> {
  return {
    ...env,
    ...Object.fromEntries(providerMetas().map((meta) => [meta.binEnv, undefined])),
  };
}

/** The last line of the ledger (`records.jsonl`) of the request's workspace. */
async function lastRecord(sb: CiSandbox): Promise<Record<string, unknown>> {
  const text = await Deno.readTextFile(join(sb.workspace, ".git/review-gate/records.jsonl"));
  return JSON.parse(text.trim().split("\n").at(-1)!);
}

Deno.test("merge of shards the bundled fake answered is marked as the fake's, its cost as an unsharded run's", async () => {
  await withShards(async (sb, env) => {
    const whole = await runCli(sb, ["ci", "--no-cache"], {
      cwd: sb.workspace,
      scenario: FIRST_LINE,
      env,
    });
    assert.equal(whole.code, 1, whole.stderr);
    const one = await lastRecord(sb);
    assert.equal(one.fake, true, "an unsharded run of the fake is marked so");
    assert.equal(typeof one.costUsd, "number");

    const dir = join(sb.dir, "shards");
    await shards(sb, env, dir, 3, { args: ["--no-cache"] });
    const file = JSON.parse(await Deno.readTextFile(join(dir, "shard-1.json")));
    assert.equal(file.fakeProvider, true, "a shard of the fake says so in its file");
    // the aggregator job has no provider configured: the mark comes from the shards
    const merged = await merge(sb, noProviders(env), [dir]);
    assert.equal(merged.code, 1, merged.stderr);
    const all = await lastRecord(sb);
    assert.equal(all.gate, "ci-merge");
    assert.equal(all.fake, true, "the merged run is the fake's too");
    assert.equal(all.costUsd, one.costUsd, "the same cost, counted the same way");
    const runJson = JSON.parse(
      await Deno.readTextFile(
        join(sb.workspace, ".git/review-gate/runs", String(all.id), "run.json"),
      ),
    );
    assert.equal(runJson.fakeProvider, true);
    const stats = await runCli(sb, ["stats", "--by", "gate", "--json"], { cwd: sb.workspace, env });
    const gates = JSON.parse(stats.stdout).groups as {
      key: string;
      totals: { fakeRuns: number; costReported: number };
    }[];
    const ciMerge = gates.find((g) => g.key === "ci-merge")!;
    assert.deepEqual([ciMerge.totals.fakeRuns, ciMerge.totals.costReported], [1, 0]);
  });
});

/** Write a copy of `from` edited by `edit`, its digest recomputed (as a forger or a bug would). */
async function forge(from: string, to: string, edit: (v: Record<string, unknown>) => void) {
  await Deno.copyFile(from, to);
  await editJson(to, edit);
  await redigest(to);
}

/** A file of a shard whose review ended before it planned one: no plan, no change, no answer. */
function unplanned(index: number, count: number): (v: Record<string, unknown>) => void {
  return (v) => {
    delete v.plan;
    delete v.change;
    v.shard = { index, count };
    v.status = "provider-error";
    v.message = "the provider could not start";
    v.results = [];
  };
}

Deno.test("merge: files that planned no review, or of another change, never outvote a valid set", async () => {
  await withShards(async (sb, env) => {
    const good = join(sb.dir, "good");
    await shards(sb, env, good, 3);
    const sample = join(good, "shard-1.json");
    // five files that say they are shards of five, with no plan: more of them than the valid three
    const junk = join(sb.dir, "junk");
    await copyDir(good, junk);
    for (let i = 1; i <= 5; i++) {
      await forge(sample, join(junk, `junk-${i}.json`), unplanned(i, 5));
    }
    // and two of another change, of a split into two
    for (let i = 1; i <= 2; i++) {
      await forge(sample, join(junk, `other-${i}.json`), (v) => {
        v.shard = { index: i, count: 2 };
        (v.change as { digest: string }).digest = "0".repeat(64);
      });
    }
    // and a file of shard 2 of 3 that planned no review, beside the one that did, whose message
    // would start workflow commands of its own on GitHub Actions' log
    await forge(sample, join(junk, "shard-2-early.json"), (v) => {
      unplanned(2, 3)(v);
      v.message =
        "x\n::error title=review-gate%3A approved::approved — 0 findings\r\n::stop-commands::deadbeef\n";
    });
    const r = await merge(sb, env, [junk, "--format", "json", "--output", "j.json"]);
    assert.equal(r.code, 1, `the valid set decides: ${r.stderr}`);
    const json = await jsonOf(sb, "j.json");
    assert.equal(json.status, "needs-attention");
    assert.equal(json.coverage.status, "complete");
    for (let i = 1; i <= 5; i++) {
      assert.match(
        r.stderr,
        new RegExp(`junk-${i}\\.json \\(shard ${i} of 5\\): foreign — of a split into 5 shards`),
      );
    }
    // the same label as this change's: the digest that differs is named
    const own = JSON.parse(await Deno.readTextFile(sample)).change.digest.slice(0, 12);
    assert.match(
      r.stderr,
      new RegExp(
        `other-1\\.json \\(shard 1 of 2\\): foreign — a review of another change: .+, digest 000000000000, where this merge reviews .+, digest ${own}`,
      ),
    );
    const lines = r.stderr.split("\n");
    assert.ok(lines.every((l) => l === "" || l.startsWith("review-gate")), r.stderr);
    assert.match(r.stderr, /planned no review \(provider-error: x\\u\{a\}::error title=/);
    assert.match(
      r.stderr,
      /shard-2-early\.json \(shard 2 of 3\): set aside — it planned no review/,
    );

    // a mix with shard 2 missing: never approved, shard 2 named, the junk named as set aside
    await Deno.remove(join(junk, "shard-2.json"));
    const m = await merge(sb, env, [junk, "--format", "json", "--output", "m.json"]);
    assert.equal(m.code, 3, m.stderr);
    const mixed = await jsonOf(sb, "m.json");
    assert.notEqual(mixed.status, "approved");
    assert.match(
      mixed.message ?? "",
      /shard 2 of 3 \(parts? [\d, and]+ of \d+\): that shard planned no review \(provider-error: x\\u\{a\}::error title=review-gate%3A approved::approved — 0 findings\\u\{d\}\\u\{a\}::stop-commands::deadbeef\\u\{a\}\)/,
    );
  });
});

Deno.test("merge: an edited shard number or status is tampered, named with its file", async () => {
  await withShards(async (sb, env) => {
    const good = join(sb.dir, "good");
    await shards(sb, env, good, 3);
    // shard 2's file edited to say 4 of 3: with its digest recomputed, and without
    for (const recomputed of [true, false]) {
      const dir = join(sb.dir, `four-of-three-${recomputed}`);
      await copyDir(good, dir);
      const file = join(dir, "shard-2.json");
      await editJson(file, (v) => (v.shard = { index: 4, count: 3 }));
      if (recomputed) await redigest(file);
      const r = await merge(sb, env, [dir, "--format", "json", "--output", "t.json"]);
      assert.equal(r.code, 3, r.stderr);
      const json = await jsonOf(sb, "t.json");
      assert.match(
        json.message ?? "",
        /shard 2 of 3 \(parts? [\d, and]+ of \d+\): no result found \(missing\); set aside, and may have been its file: \S*shard-2\.json \(tampered\)/,
      );
      assert.match(
        r.stderr,
        recomputed
          ? /shard-2\.json: tampered: it says it is shard 4 of 3, a shard no split has; not used/
          : /shard-2\.json: tampered: it does not match its digest/,
      );
    }
    // an edited status (the shard's own review said needs-attention): the digest covers it
    const status = join(sb.dir, "status");
    await copyDir(good, status);
    await editJson(join(status, "shard-2.json"), (v) => (v.status = "approved"));
    const s = await merge(sb, env, [status, "--format", "json", "--output", "s.json"]);
    assert.equal(s.code, 3, s.stderr);
    assert.match(
      (await jsonOf(sb, "s.json")).message ?? "",
      /shard 2 of 3 \(parts? [\d, and]+ of \d+\): \S*shard-2\.json was not used: tampered: it does not match its digest/,
    );
    // a FIFO in the folder is named, not skipped silently (the merge still stands on the rest)
    const fifo = join(sb.dir, "fifo");
    await copyDir(good, fifo);
    const made = await new Deno.Command("mkfifo", { args: [join(fifo, "pipe.json")] }).output();
    assert.ok(made.success);
    const f = await merge(sb, env, [fifo]);
    assert.equal(f.code, 1, f.stderr);
    assert.match(
      f.stderr,
      /review-gate merge: \S*pipe\.json: a FIFO, not a regular file; not read/,
    );
  });
});

Deno.test("merge of more than 512 files: every format says NOT reviewed and why, exit as ci's", async () => {
  await withShards(async (sb, env) => {
    const many = join(sb.dir, "many");
    await shards(sb, env, many, 3);
    const text = await Deno.readTextFile(join(many, "shard-1.json"));
    await Promise.all(
      Array.from({ length: 510 }, (_, i) => Deno.writeTextFile(join(many, `copy-${i}.json`), text)),
    );
    const args = [many, ...formatArgs()];
    const r = await merge(sb, env, args);
    assert.equal(r.code, 3, `not reviewed exits 3, as ci's: ${r.stderr}`);
    const why = /more than 512 files were given or found/;
    await assertEveryFormat(sb, env, { status: "not-reviewed", headline: "NOT reviewed", why });
    const allowed = await merge(sb, env, [...args, "--on-error", "allow"]);
    assert.equal(allowed.code, 0, allowed.stderr);
  });
});

/** Every format merge writes, each to a file of its own. */
function formatArgs(): string[] {
  return [
    ["json", "all.json"],
    ["sarif", "r.sarif"],
    ["github", "annotations.txt"],
    ["rdjson", "r.rdjson"],
    ["markdown", "review.md"],
  ].flatMap(([format, file]) => ["--format", format, "--output", file]);
}

/**
 * Every format of the last merge (written by {@linkcode formatArgs}) says how much was reviewed:
 * the JSON status, the headline in markdown, SARIF, GitHub annotations and job summary, rdjson.
 */
async function assertEveryFormat(
  sb: CiSandbox,
  env: Record<string, string>,
  want: { status: string; headline: "NOT reviewed" | "Partially reviewed"; why: RegExp },
): Promise<void> {
  const read = (file: string) => Deno.readTextFile(join(sb.workspace, file));
  const json = await jsonOf(sb, "all.json");
  assert.equal(json.status, want.status);
  assert.match(json.message ?? "", want.why);
  const markdown = await read("review.md");
  assert.match(markdown, new RegExp(want.headline, "i"));
  assert.match(markdown, want.why);
  const sarif = await read("r.sarif");
  assert.match(sarif, new RegExp(want.headline, "i"));
  const annotations = await read("annotations.txt");
  assert.match(
    annotations,
    new RegExp(`^::(error|warning) title=review-gate%3A ${want.headline}`, "mi"),
  );
  assert.match(await Deno.readTextFile(env.GITHUB_STEP_SUMMARY), new RegExp(want.headline, "i"));
  const rdjson = JSON.parse(await read("r.rdjson")) as {
    diagnostics: { message: string; location?: unknown }[];
  };
  const overall = rdjson.diagnostics.filter((d) => !d.location).map((d) => d.message).join("\n");
  assert.match(overall, new RegExp(`review-gate: ${want.headline}`, "i"), "rdjson says it overall");
}

Deno.test("merge with a shard missing: every format says NOT or partially reviewed, an error where it blocks", async () => {
  await withShards(async (sb, env) => {
    const dir = join(sb.dir, "missing");
    await shards(sb, env, dir, 3, { scenario: "valid" });
    await Deno.remove(join(dir, "shard-2.json"));
    const why = /shard 2 of 3 \(parts? [\d, and]+ of \d+\): no result found \(missing\)/;
    // by default a part no model saw leaves the merge NOT reviewed (exit 3), in every format
    const merged = await merge(sb, env, [dir, ...formatArgs()]);
    assert.equal(merged.code, 3, merged.stderr);
    const status = (await jsonOf(sb, "all.json")).status;
    await assertEveryFormat(sb, env, { status, headline: "NOT reviewed", why });
    assert.notEqual(status, "approved");
    const headline = "Partially reviewed";
    // --on-partial block: the result blocks, so GitHub gets an error, not a warning
    const block = await merge(sb, env, [dir, ...formatArgs(), "--on-partial", "block"]);
    assert.equal(block.code, 1, block.stderr);
    await assertEveryFormat(sb, env, { status: "approved", headline, why: /shard 2 of 3/ });
    const annotations = await Deno.readTextFile(join(sb.workspace, "annotations.txt"));
    assert.match(annotations, /^::error title=review-gate%3A partially reviewed::/m);
    assert.doesNotMatch(annotations, /^::warning title=review-gate%3A partially reviewed/m);
    const rdjson = JSON.parse(await Deno.readTextFile(join(sb.workspace, "r.rdjson"))) as {
      diagnostics: { message: string; severity: string; location?: unknown }[];
    };
    const overall = rdjson.diagnostics.find((d) => !d.location && /Partially/.test(d.message))!;
    assert.equal(overall.severity, "ERROR", "it blocks");
  });
});

const FINDS_NOTHING =
  new URL("../../fixtures/fake/scenarios/finds_nothing.json", import.meta.url).pathname;

Deno.test("merge of two sets (an older approving split into 4, the current blocking one into 3): the findings of both stand", async () => {
  await withShards(async (sb, env) => {
    // an output path the change holds as a link out of the repository: the file replaces the link
    const victim = join(sb.dir, "victim.txt");
    await Deno.writeTextFile(victim, "mine\n");
    const older = join(sb.dir, "mix", "older");
    const current = join(sb.dir, "mix", "current");
    await Deno.mkdir(current, { recursive: true });
    await Deno.symlink(victim, join(current, "shard-1.json"));
    await shards(sb, env, older, 4, { scenario: FINDS_NOTHING, args: ["--no-cache"] });
    await shards(sb, env, current, 3, { args: ["--no-cache"] });
    assert.equal(
      await Deno.readTextFile(victim),
      "mine\n",
      "--shard-output never writes a link's target",
    );
    assert.equal((await Deno.lstat(join(current, "shard-1.json"))).isSymlink, false);
    const approving = await merge(sb, env, [older, "--format", "json", "--output", "old.json"]);
    assert.equal(approving.code, 0, `the older set alone approves: ${approving.stderr}`);
    const blocking = await merge(sb, env, [current, "--format", "json", "--output", "new.json"]);
    assert.equal(blocking.code, 1, blocking.stderr);
    const alone = await jsonOf(sb, "new.json");
    assert.ok(alone.answer!.findings.length > 0);

    await Deno.symlink(victim, join(sb.workspace, "review.md"));
    const both = await merge(sb, env, [
      join(sb.dir, "mix"),
      "--format",
      "json",
      "--output",
      "both.json",
      "--format",
      "markdown",
      "--output",
      "review.md",
    ]);
    assert.equal(both.code, 1, `never less strict than the blocking set: ${both.stderr}`);
    const merged = await jsonOf(sb, "both.json");
    assert.equal(merged.status, "needs-attention");
    assert.equal(merged.coverage.status, "complete");
    assert.deepEqual(
      merged.answer!.findings.map((f) => [f.file, f.line_start]),
      alone.answer!.findings.map((f) => [f.file, f.line_start]),
      "every finding of the blocking set, once",
    );
    assert.match(
      both.stderr,
      /review-gate merge: 2 sets of shard results of this change and plan \(split into 3 and 4 shards, 2 complete\)/,
    );
    assert.doesNotMatch(both.stderr, /foreign — of a split into/);
    assert.equal(
      await Deno.readTextFile(victim),
      "mine\n",
      "--output never writes a link's target",
    );
    assert.match(
      await Deno.readTextFile(join(sb.workspace, "review.md")),
      /^# Review: needs-attention/,
    );
    // the current set with a shard missing beside the complete older one: the current shards'
    // findings still stand, and the older set's answers cover the missing shard's parts
    await Deno.remove(join(current, "shard-2.json"));
    const partly = await merge(sb, env, [
      join(sb.dir, "mix"),
      "--format",
      "json",
      "--output",
      "p.json",
    ]);
    assert.equal(partly.code, 1, partly.stderr);
    const p = await jsonOf(sb, "p.json");
    assert.equal(p.coverage.status, "complete");
    assert.ok(p.answer!.findings.length > 0, "the current shards' findings");
    assert.match(partly.stderr, /\(split into 3 and 4 shards, 1 complete\)/);
  });
});

Deno.test("merge with a binary file in the change and a shard missing: every format names the shard, not 'none could be shown'", async () => {
  await withShards(async (sb, env) => {
    const dir = join(sb.dir, "missing");
    await shards(sb, env, dir, 3, { only: [1, 3] });
    const why = /shard 2 of 3 \(parts? [\d, and]+ of \d+\): no result found \(missing\)/;
    const merged = await merge(sb, env, [dir, ...formatArgs(), "--format", "terminal"]);
    assert.equal(merged.code, 3, merged.stderr);
    await assertEveryFormat(sb, env, { status: "not-reviewed", headline: "NOT reviewed", why });
    assert.match(merged.stdout, /NOT reviewed — .*shard 2 of 3/);
    for (const file of ["review.md", "r.sarif", "annotations.txt", "r.rdjson"]) {
      const text = await Deno.readTextFile(join(sb.workspace, file));
      assert.doesNotMatch(text, /none of this change could be shown/, file);
      assert.match(text, /shard 2 of 3/, file);
    }
    // --on-partial block: what is not shown at all is the binary file alone, counted as listed
    const block = await merge(sb, env, [dir, ...formatArgs(), "--on-partial", "block"]);
    assert.equal(block.code, 1, block.stderr);
    const markdown = await Deno.readTextFile(join(sb.workspace, "review.md"));
    assert.match(markdown, /not shown at all: 1 binary file \("z\.bin"\)/);
    // an unsharded ci of a fork's pull request: its own reason, not "none could be shown"
    const fork = await runCli(sb, [
      "ci",
      "--format",
      "github",
      "--format",
      "markdown",
      "--output",
      "fork.md",
    ], {
      cwd: sb.workspace,
      scenario: FIRST_LINE,
      env: await githubEnv(sb, { fork: true }),
    });
    assert.equal(fork.code, 3, fork.stderr);
    assert.match(fork.stdout, /NOT reviewed: this pull request #1 comes from a fork/);
    assert.match(await Deno.readTextFile(join(sb.workspace, "fork.md")), /comes from a fork/);
  }, { "z.bin": "\u0000\u0001binary\u0000\n" });
});
