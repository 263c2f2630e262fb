/**
 * End to end: `review-gate ci` in throwaway repositories with each CI's variables set as the CI sets
 * them — GitHub Actions `pull_request` (a shallow checkout of the test merge commit),
 * `pull_request_target`, forks without secrets; GitLab merge request pipelines (detached and merged
 * results, shallow), fork pipelines; `--base` anywhere else. Asserts what reached the model (only the
 * request's own change), the formats, and the exit code by policy.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type FakeInvocation, readFakeLog, runCli } from "../e2e/_cli.ts";
import { assertValid, sarifValidator } from "../schemas/validators.ts";
import { fingerprintOf } from "../../lib/kinds/review/fingerprint.ts";
import { APP, type CiSandbox, FINDING, githubEnv, gitlabEnv, makeCiSandbox } from "./_ci.ts";

async function withCi(
  checkout: "merge" | "head" | "full",
  fn: (sb: CiSandbox) => Promise<void>,
): Promise<void> {
  const sb = await makeCiSandbox(checkout);
  try {
    await fn(sb);
  } finally {
    await sb.cleanup();
  }
}

function ci(sb: CiSandbox, args: string[], env: Record<string, string>) {
  return runCli(sb, ["ci", ...args], { cwd: sb.workspace, scenario: sb.blocking, env });
}

/** The diff the model got: only the request's change, never what main did since. */
function assertOnlyTheRequest(call: FakeInvocation | undefined): void {
  const prompt = call?.stdin ?? "";
  assert.match(prompt, /\+export const b = 3;/);
  assert.doesNotMatch(prompt, /MAIN_MOVED_ON/, "main's own later change is not the request's");
}

Deno.test("ci on GitHub pull_request: the test merge of a shallow checkout, every format", async () => {
  await withCi("merge", async (sb) => {
    const env = await githubEnv(sb);
    const r = await ci(sb, ["--format", "github", "--format", "sarif", "--output", "r.sarif"], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /GitHub Actions: pull request #1\n/);
    assert.match(r.stderr, /fetched [0-9a-f]{12} from origin \(shallow checkout\)/);
    const log = await readFakeLog(sb);
    assert.equal(log.length, 1);
    assertOnlyTheRequest(log[0]);
    assert.match(
      r.stdout,
      /^::error file=src\/app\.ts,line=2,endLine=2,title=review-gate \[high%2C blocking\]/m,
    );
    const sarif = JSON.parse(await Deno.readTextFile(join(sb.workspace, "r.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
    assert.equal(sarif.runs[0].invocations[0].exitCode, 1);
    assert.match(await Deno.readTextFile(env.GITHUB_STEP_SUMMARY), /### HIGH \(blocking\)/);
    const records = join(sb.workspace, ".git", "review-gate", "records.jsonl");
    assert.equal(JSON.parse(await Deno.readTextFile(records)).gate, "ci");
  });
});

Deno.test("ci on GitHub: a fork's pull request gets no secrets and says NOT reviewed", async () => {
  await withCi("merge", async (sb) => {
    const env = await githubEnv(sb, { fork: true });
    const r = await ci(sb, [], env);
    assert.equal(r.code, 3, "on-error block (default) fails the job");
    assert.match(
      r.stdout,
      /^::error title=review-gate%3A NOT reviewed::NOT reviewed: this pull request #1 comes from a fork/m,
    );
    assert.equal((await readFakeLog(sb)).length, 0, "no provider asked");
    const allowed = await ci(sb, ["--on-error", "allow"], env);
    assert.equal(allowed.code, 0);
    assert.match(allowed.stdout, /NOT reviewed/);
  });
});

Deno.test("ci on GitHub pull_request_target: a fork is reviewed untrusted (secrets present)", async () => {
  await withCi("full", async (sb) => {
    const env = await githubEnv(sb, { fork: true, event: "pull_request_target" });
    const r = await ci(sb, ["--format", "terminal", "--format", "json", "--output", "r.json"], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /pull request #1 from a fork \(untrusted/);
    const json = JSON.parse(await Deno.readTextFile(join(sb.workspace, "r.json")));
    assert.equal(json.rules.untrusted, true, "a fork is untrusted without --untrusted");
    assertOnlyTheRequest((await readFakeLog(sb))[0]);
  });
});

Deno.test("ci --untrusted: acknowledgements in the checkout do not count, trusted or not", async () => {
  await withCi("full", async (sb) => {
    // the checkout acknowledges the request's finding in .review-gate/acks.json
    const text = await Deno.readTextFile(join(sb.workspace, APP));
    const ack = {
      fingerprint: await fingerprintOf(FINDING, text),
      file: APP,
      title: FINDING.title,
      reason: "trust me",
      created: "2026-11-30T00:00:00.000Z",
    };
    await Deno.mkdir(join(sb.workspace, ".review-gate"));
    await Deno.writeTextFile(
      join(sb.workspace, ".review-gate/acks.json"),
      JSON.stringify({ version: 1, acks: [ack] }),
    );
    const env = { CI: "true" };
    const trusted = await ci(sb, ["--base", "origin/main", "--format", "terminal"], env);
    assert.equal(trusted.code, 1, "acknowledgements come from the base, which has none");
    assert.doesNotMatch(trusted.stdout, /acknowledged/);
    const untrusted = await ci(
      sb,
      ["--base", "origin/main", "--untrusted", "--format", "json"],
      env,
    );
    assert.equal(untrusted.code, 1);
    assert.equal(JSON.parse(untrusted.stdout).rules.untrusted, true);
    assert.match(untrusted.stderr, /rules from the base [0-9a-f]{12}: its .*and acknowledgements/);
  });
});

for (const type of ["detached", "merged_result"] as const) {
  Deno.test(`ci on GitLab ${type} merge request pipeline (shallow clone)`, async () => {
    await withCi(type === "detached" ? "head" : "merge", async (sb) => {
      const r = await ci(sb, ["--format", "terminal"], gitlabEnv(sb, { type }));
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /GitLab CI: merge request !7\n/);
      assert.match(r.stdout, /\[HIGH\] b is off by one BLOCKING/);
      assertOnlyTheRequest((await readFakeLog(sb))[0]);
    });
  });
}

Deno.test("ci on GitLab: a fork's pipeline run in the fork says NOT reviewed", async () => {
  await withCi("head", async (sb) => {
    const env = gitlabEnv(sb, { type: "detached", fork: true, inFork: true });
    const r = await ci(sb, ["--format", "markdown", "--on-error", "allow"], env);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^# Review: NOT reviewed$/m);
    assert.match(r.stdout, /merge request !7 comes from a fork/);
    assert.equal((await readFakeLog(sb)).length, 0);
  });
});

Deno.test("ci on GitLab: a fork's merge request run in the parent project is reviewed untrusted", async () => {
  await withCi("head", async (sb) => {
    const r = await ci(sb, ["--format", "json"], gitlabEnv(sb, { type: "detached", fork: true }));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /merge request !7 from a fork \(untrusted/);
    assert.equal(JSON.parse(r.stdout).rules.untrusted, true, "untrusted without --untrusted");
    assertOnlyTheRequest((await readFakeLog(sb))[0]);
  });
});

Deno.test("ci elsewhere needs --base; with it, it reviews HEAD from the merge base", async () => {
  await withCi("full", async (sb) => {
    const none = await ci(sb, [], { CI: "true" });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /found no pull or merge request to review .*give --base REF/);
    const push = await ci(sb, [], { GITHUB_ACTIONS: "true", GITHUB_EVENT_NAME: "push" });
    assert.equal(push.code, 2);
    assert.match(push.stderr, /GitHub event "push" is not a pull request/);
    const r = await ci(sb, ["--base", "origin/main", "--format", "json"], { CI: "true" });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, "needs-attention");
    assertOnlyTheRequest((await readFakeLog(sb))[0]);
  });
});
