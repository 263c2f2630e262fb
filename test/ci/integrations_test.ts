/**
 * The shipped CI and hook-framework integrations: `action.yml` (a composite action whose review
 * step is scripts/action_review.sh — run here for real under GitHub's variables), the pre-commit
 * framework's `.pre-commit-hooks.yaml` (its entry script run as pre-commit runs it: no stdin, no
 * arguments, the push in `PRE_COMMIT_*` variables), and the scripts pass shellcheck.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { assertShellcheckClean } from "../../lib/git/_testing.ts";
import { readFakeLog } from "../e2e/_cli.ts";
import { assertValid, sarifValidator } from "../schemas/validators.ts";
import { type CiSandbox, githubEnv, makeCiSandbox } from "./_ci.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => Deno.readTextFileSync(join(ROOT, path));

/** Run a shell script with the sandbox's environment plus `env` (Deno on PATH). */
async function sh(sb: CiSandbox, script: string, cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("sh", {
    args: [join(ROOT, script)],
    cwd,
    env: { ...sb.env, PATH: `${dirname(Deno.execPath())}:${sb.env.PATH}`, ...env },
    clearEnv: true,
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("action.yml is a composite action: inputs via env, SARIF uploaded even when it blocks", () => {
  const action = parse(read("action.yml"));
  assert.equal(action.runs.using, "composite");
  const steps = action.runs.steps as Record<string, unknown>[];
  for (const step of steps.filter((s) => "run" in s)) {
    assert.ok(step.shell, `a run step needs a shell: ${step.run}`);
    assert.doesNotMatch(
      String(step.run),
      /\$\{\{/,
      "inputs reach scripts through env, never inlined",
    );
  }
  const review = steps.find((s) => s.id === "review")!;
  assert.match(String(review.run), /scripts\/action_review\.sh/);
  const upload = steps.find((s) =>
    String(s.uses ?? "").startsWith("github/codeql-action/upload-sarif@")
  )!;
  assert.match(String(upload.if), /always\(\)/);
  assert.equal(upload["continue-on-error"], true);
  const gate = steps.at(-1)!;
  assert.match(String(gate.run), /exit "\$\{RG_EXIT:-3\}"/);
  assert.match(
    String((gate.env as Record<string, string>).RG_EXIT),
    /steps\.review\.outputs\.exit-code/,
  );
  for (const name of Object.keys((review.env ?? {}) as object)) assert.match(name, /^RG_/);
});

Deno.test("the action's review step writes SARIF and annotations and records the exit code", async () => {
  const sb = await makeCiSandbox("merge");
  try {
    const env: Record<string, string> = {
      ...await githubEnv(sb),
      REVIEW_GATE_FAKE_SCENARIO: sb.blocking,
      RG_PROVIDER: "claude",
      RG_FAIL_ON: "high",
      RG_MIN_CONFIDENCE: "0.5",
      RG_ON_ERROR: "block",
      RG_SARIF: "out/review-gate.sarif",
    };
    const r = await sh(sb, "scripts/action_review.sh", sb.workspace, env);
    assert.equal(r.code, 0, "the step never fails, so the upload runs");
    assert.match(r.stdout, /^::error file=src\/app\.ts,line=2/m);
    assert.equal(await Deno.readTextFile(env.GITHUB_OUTPUT), "exit-code=1\n");
    const sarif = JSON.parse(await Deno.readTextFile(join(sb.workspace, "out/review-gate.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the action's review step split across a matrix: a shard writes its result, merge gates", async () => {
  const sb = await makeCiSandbox("merge");
  try {
    const base: Record<string, string> = {
      ...await githubEnv(sb),
      REVIEW_GATE_FAKE_SCENARIO: sb.blocking,
      RG_PROVIDER: "claude",
      RG_ON_ERROR: "block",
      RG_MAX_CALLS: "8",
    };
    const shard = await sh(sb, "scripts/action_review.sh", sb.workspace, {
      ...base,
      RG_SHARD: "1/1",
      RG_SHARD_OUTPUT: "shards/one.json",
      RG_SARIF: "out/shard.sarif",
    });
    assert.equal(shard.code, 0);
    assert.equal(shard.stdout, "", "a shard writes no annotations");
    assert.equal(await Deno.readTextFile(base.GITHUB_OUTPUT), "exit-code=0\n", shard.stderr);
    const result = JSON.parse(await Deno.readTextFile(join(sb.workspace, "shards/one.json")));
    assert.deepEqual(result.shard, { index: 1, count: 1 });
    await Deno.remove(base.GITHUB_OUTPUT);
    const merge = await sh(sb, "scripts/action_review.sh", sb.workspace, {
      ...base,
      RG_MERGE: "shards",
      RG_SARIF: "out/review-gate.sarif",
    });
    assert.equal(merge.code, 0);
    assert.match(merge.stdout, /^::error file=src\/app\.ts,line=2/m);
    assert.equal(await Deno.readTextFile(base.GITHUB_OUTPUT), "exit-code=1\n", merge.stderr);
    const sarif = JSON.parse(await Deno.readTextFile(join(sb.workspace, "out/review-gate.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
    assert.equal((await readFakeLog(sb)).length, 1, "the shard asked the model once, merge never");
  } finally {
    await sb.cleanup();
  }
});

Deno.test(".pre-commit-hooks.yaml: a pre-push hook run the way pre-commit runs it", async () => {
  const [hook] = parse(read(".pre-commit-hooks.yaml"));
  assert.deepEqual(hook.stages, ["pre-push"]);
  assert.equal(hook.pass_filenames, false);
  assert.equal(hook.always_run, true);
  const sb = await makeCiSandbox("full");
  try {
    const head = sb.head;
    const env = {
      PRE_COMMIT: "1",
      PRE_COMMIT_FROM_REF: sb.cut,
      PRE_COMMIT_TO_REF: head,
      PRE_COMMIT_LOCAL_BRANCH: "refs/heads/feature",
      PRE_COMMIT_REMOTE_BRANCH: "refs/heads/feature",
      PRE_COMMIT_REMOTE_NAME: "origin",
      PRE_COMMIT_REMOTE_URL: "file:///server",
      REVIEW_GATE_FAKE_SCENARIO: sb.blocking,
    };
    const r = await sh(sb, hook.entry, sb.workspace, env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/feature/);
    const [call] = await readFakeLog(sb);
    assert.match(call.stdin ?? "", /\+export const b = 3;/);
    const none = await sh(sb, hook.entry, sb.workspace, { PRE_COMMIT: "1" });
    assert.equal(none.code, 0);
    assert.match(none.stderr, /pre-commit gave no push range .* NOT reviewed/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the shipped scripts pass shellcheck", async () => {
  for (const script of ["scripts/action_review.sh", "scripts/pre_commit_hook.sh"]) {
    await assertShellcheckClean(read(script));
  }
});
