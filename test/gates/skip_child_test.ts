/**
 * End to end: `REVIEW_GATE_CHILD=1` set by hand (README "Skips"). The variable marks the reviewers
 * review-gate starts, and every hook of ours returns at once under it — so a gate it lets through
 * leaves a skip record (`"reason": "child"`) and says so, like `REVIEW_GATE=0`; and a skip that
 * cannot be recorded at all (no `HOME`, no `XDG_STATE_HOME`) says so on stderr.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitToken,
  makeGateSandbox,
  remoteRef,
  runCli,
  runGit,
  runHook,
  stopPayload,
} from "./_gates.ts";

const STOP_SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;

async function skips(sb: { env: Record<string, string> }): Promise<Record<string, unknown>[]> {
  const path = join(sb.env.HOME, ".local", "state", "review-gate", "skips.jsonl");
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l).map((l) => JSON.parse(l));
}

Deno.test("skips: a Stop and a push that REVIEW_GATE_CHILD=1 lets through leave a record and say so", async () => {
  const sb = await makeGateSandbox();
  try {
    const root = sb.repo.root;
    const stop = await runHook(sb, "claude-stop", stopPayload({ sessionId: "s-kid", cwd: root }), {
      env: { REVIEW_GATE_CHILD: "1", USER: "mallory" },
    });
    assert.equal(stop.code, 0);
    assert.equal(stop.stdout, "");
    assert.match(stop.stderr, /REVIEW_GATE_CHILD=1 is set: this claude-stop hook reviewed nothing/);
    const [record] = await skips(sb);
    assert.equal(record?.gate, "claude-stop", JSON.stringify(record));
    assert.equal(record.reason, "child");
    assert.equal(record.value, "1");
    assert.equal(record.session, "s-kid");
    assert.equal(record.user, "mallory");

    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const pushed = await commitToken(sb, "KID");
    const push = await runGit(sb, ["push", "origin", "main"], { env: { REVIEW_GATE_CHILD: "1" } });
    assert.equal(push.code, 0, push.stderr);
    assert.equal(await remoteRef(sb, "refs/heads/main"), pushed);
    assert.match(push.stderr, /REVIEW_GATE_CHILD=1 is set: this pre-push hook reviewed nothing/);
    const records = await skips(sb);
    assert.equal(records.length, 2, JSON.stringify(records));
    assert.equal(records[1].gate, "pre-push");
    assert.equal(records[1].reason, "child");
    assert.deepEqual(records[1].refs, [
      `refs/heads/main ${pushed} refs/heads/main ${
        (await runGit(sb, ["rev-parse", "HEAD~1"])).stdout.trim()
      }`,
    ]);

    const stats = await runCli(sb, ["stats"]);
    assert.match(stats.stdout, /REVIEW_GATE_CHILD=1/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("skips: a skip with neither HOME nor XDG_STATE_HOME set says it could not be recorded", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const env: Record<string, string> = { ...sb.env, REVIEW_GATE: "0", HOME: "" };
    delete env.XDG_STATE_HOME;
    const child = new Deno.Command("sh", {
      args: [STOP_SCRIPT, "sh", "-c", "cat >/dev/null; echo fell-back", "hook", "claude-stop"],
      cwd: sb.repo.root,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(stopPayload({ sessionId: "s-nohome", cwd: sb.repo.root })),
    );
    await writer.close();
    const out = await child.output();
    assert.equal(out.code, 0);
    assert.match(
      new TextDecoder().decode(out.stderr),
      /review-gate: could not record this skip: neither XDG_STATE_HOME nor HOME is set/,
    );
  } finally {
    await sb.cleanup();
  }
});
