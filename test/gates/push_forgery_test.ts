/**
 * End to end: the pre-push gate's own state cannot be forged into a verdict (README "Security
 * model"). An agent that cannot read the user's key writes what the installed hook and review-gate
 * read — a push stamp named with the stub's own shell functions, a valid stamp copied to another
 * push's name or from another user's key, a stamp with one byte changed or cut short, a cached
 * answer rewritten from needs-attention to approve, a verdict memo pointed at another change's
 * verdict — and every push still reaches review-gate, which decides from what it can verify: the
 * blocked change stays blocked, and an ignored cache entry is named in the output.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { renderPrePushStub } from "../../lib/install/git/stub.ts";
import { MAIN } from "../e2e/_cli.ts";
import {
  blockingScenario,
  commitToken,
  gitOk,
  makeGateSandbox,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
} from "./_gates.ts";

const CACHED = /\(cached verdict, no model call\)/;

async function setup() {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  const starts = join(sb.dir, "starts.log");
  const wrapper = join(sb.dir, "review-gate.sh");
  // the wrapper logs each start with the pending stamp path the hook asked for (any process of
  // the user can read it: `ps eww` shows a child's environment)
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\necho "started \${REVIEW_GATE_PUSH_STAMP:-}" >>'${starts}'\n` +
      `exec '${Deno.execPath()}' run --allow-read --allow-write --allow-env --allow-run '${MAIN}' "$@"\n`,
    { mode: 0o755 },
  );
  await Deno.writeTextFile(join(root, ".git", "hooks", "pre-push"), renderPrePushStub(wrapper), {
    mode: 0o755,
  });
  const blocking = await blockingScenario(sb);
  const log = async () =>
    (await Deno.readTextFile(starts).catch(() => "")).split("\n").filter(Boolean);
  const started = async () => (await log()).length;
  /** The stamp name the hook computed for the last push that started review-gate. */
  const lastStampName = async () => {
    const path = (await log()).at(-1)!.slice("started ".length).replace(/\.pending\.\d+$/, "");
    assert.ok(path, "the hook asked for a stamp");
    return path;
  };
  const push = (args: string[], env: Record<string, string> = {}) =>
    runGit(sb, ["push", "-q", "origin", ...args], { env: { ...scenario("valid"), ...env } });
  const stampDir = join(root, ".git", "review-gate", "cache", "push");
  const stamps = async () => {
    const out: string[] = [];
    for await (const e of Deno.readDir(stampDir)) if (!e.name.includes(".")) out.push(e.name);
    return out;
  };
  return { sb, root, started, push, blocking, lastStampName, stampDir, stamps };
}

/**
 * What an agent runs to forge a push stamp: the installed stub's own functions compute the stamp's
 * name and the files' blob ids for this push, with the key the agent can reach (`XDG_STATE_HOME`
 * pointed at a folder of its own: the user's key is out of its reach), then it writes a stamp
 * saying the push was approved — in the old format and, tagged with its own key, in the new one.
 */
async function forgeStamp(
  sb: Awaited<ReturnType<typeof setup>>["sb"],
  refLine: string,
  env: Record<string, string>,
): Promise<string> {
  // the stub reads the ref lines itself; only its last call is left out
  const stub = renderPrePushStub("false").replace(/\nreview_gate_push "\$@"\n$/, "\n");
  const approved = "review-gate: refs/heads/feature (1 commit): approved — 0 findings";
  const script = `${stub}
scan=$(review_gate_scan)
review_gate_key origin "$1" "$scan" || exit 3
printf '%s\\n%s\\n-\\n%s\\n' "$ids" "review-gate push stamp 1" "${approved}" >"$stamp"
if command -v review_gate_tag >/dev/null 2>&1; then
  rest="review-gate push stamp 2
-
${approved}"
  mac=$(review_gate_tag "review-gate push replay 2
$key
$ids
$rest")
  printf '%s\\n%s\\n%s\\n' "$mac" "$ids" "$rest" >"$stamp"
fi
printf '%s' "$stamp"`;
  const child = new Deno.Command("sh", {
    args: ["-c", script, "sh", sb.remote],
    cwd: sb.repo.root,
    env: { ...sb.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(refLine));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("pre-push: a push stamp the agent writes or edits is never replayed", async (t) => {
  const { sb, root, started, push, blocking, lastStampName, stampDir, stamps } = await setup();
  const agentState = join(sb.dir, "agent-state");
  await Deno.mkdir(join(agentState, "review-gate"), { recursive: true });
  await Deno.writeTextFile(join(agentState, "review-gate", "key"), `${"ab".repeat(32)}\n`, {
    mode: 0o600,
  });
  /**
   * Put `feature` on the remote back where it started (main's commit) and push it again — an update,
   * which review-gate stamps when its verdict is cached (a new branch never is) — and see
   * review-gate start.
   */
  const repush = async (env: Record<string, string> = {}) => {
    await rewind(sb, "refs/heads/feature", await gitOk(sb, ["rev-parse", "main"]));
    const before = await started();
    const r = await push(["feature"], env);
    assert.equal(await started(), before + 1, `review-gate started: ${r.stderr}`);
    return r;
  };
  try {
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "FEATURE");
    assert.equal((await push(["feature"])).code, 0);
    assert.match((await repush()).stderr, CACHED); // leaves the stamp
    const [valid] = await stamps();
    assert.ok(valid, "a stamp was written");
    const validText = await Deno.readTextFile(join(stampDir, valid));

    await t.step("a stamp with one byte changed", async () => {
      await Deno.writeTextFile(
        join(stampDir, valid),
        validText.replace("approved", "APPROVED"),
      );
      const r = await repush();
      assert.doesNotMatch(r.stderr, /APPROVED/);
    });
    await t.step("a stamp cut short", async () => {
      const text = await Deno.readTextFile(join(stampDir, valid));
      await Deno.writeTextFile(join(stampDir, valid), text.slice(0, text.length - 10));
      await repush();
    });
    await t.step("a stamp made with another user's key", async () => {
      const other = join(sb.dir, "other-user-state");
      await repush({ XDG_STATE_HOME: other }); // review-gate makes that user's key and stamp
      await repush({ XDG_STATE_HOME: other }).catch(() => {}); // replayed there, or not
      const dir = stampDir;
      for await (const e of Deno.readDir(dir)) {
        if (e.name === valid || e.name.includes(".")) continue;
        await Deno.copyFile(join(dir, e.name), join(dir, valid));
      }
      await repush();
    });

    // A change with a bug: review-gate blocks it.
    await commitToken(sb, "BUG");
    const blocked = await push(["feature"], scenario(blocking));
    assert.equal(blocked.code, 1, blocked.stderr);
    const bugStamp = await lastStampName();
    const tip = (await gitOk(sb, ["rev-parse", "HEAD"])).trim();
    const old = (await remoteRef(sb, "refs/heads/feature"))!;
    const refLine = `refs/heads/feature ${tip} refs/heads/feature ${old}\n`;
    // the push's own environment (git adds GIT_EXEC_PATH and GIT_PREFIX for its hooks), with the
    // key the agent can reach
    const agentEnv = {
      ...scenario(blocking),
      GIT_EXEC_PATH: (await gitOk(sb, ["--exec-path"])).trim(),
      GIT_PREFIX: "",
      XDG_STATE_HOME: agentState,
    };
    const stillBlocked = async () => {
      const before = await started();
      const r = await push(["feature"], scenario(blocking));
      assert.equal(r.code, 1, `the push is blocked: ${r.stderr}`);
      assert.equal(await started(), before + 1, "review-gate decided, not a stamp");
      assert.doesNotMatch(r.stderr, /: approved/);
      assert.equal(await remoteRef(sb, "refs/heads/feature"), old);
      return r;
    };

    await t.step("a stamp named and written with the stub's own shell functions", async () => {
      const forged = await forgeStamp(sb, refLine, agentEnv);
      await stillBlocked();
      await Deno.remove(forged).catch(() => {});
    });
    await t.step("that forged stamp under the name the hook used for this push", async () => {
      const forged = await forgeStamp(sb, refLine, agentEnv);
      await Deno.rename(forged, bugStamp).catch(() => {}); // the same path on the old code
      await stillBlocked();
    });
    await t.step("a valid stamp of another push copied to this push's name", async () => {
      await Deno.writeTextFile(bugStamp, validText);
      await stillBlocked();
    });

    await t.step("a cached answer rewritten from needs-attention to approve", async () => {
      const cache = join(root, ".git", "review-gate", "cache");
      let rewritten = 0;
      for await (const e of Deno.readDir(cache)) {
        if (!e.name.endsWith(".json")) continue;
        const path = join(cache, e.name);
        const file = JSON.parse(await Deno.readTextFile(path));
        const entry = file.value ?? file; // sealed entries keep the value inside
        if (entry.record?.status !== "needs-attention") continue;
        entry.record.status = "approved";
        entry.record.blocking = 0;
        entry.answer.verdict = "approve";
        entry.answer.findings = [];
        await Deno.writeTextFile(path, JSON.stringify(file));
        rewritten++;
      }
      assert.ok(rewritten > 0, "the blocked verdict was cached");
      const calls = await providerCalls(sb);
      const r = await stillBlocked();
      assert.equal(await providerCalls(sb), calls + 1, "reviewed again: the model was asked");
      assert.match(r.stderr, /cached verdict for this change .*did not verify/);
      assert.match(r.stderr, /reviewed again/);
    });

    await t.step("the verdict memo pointed at another change's approved verdict", async () => {
      const cache = join(root, ".git", "review-gate", "cache");
      const approvedKeys: string[] = [];
      for await (const e of Deno.readDir(cache)) {
        if (!e.name.endsWith(".json")) continue;
        const file = JSON.parse(await Deno.readTextFile(join(cache, e.name)));
        if ((file.value ?? file).record?.status === "approved") {
          approvedKeys.push(e.name.replace(/\.json$/, ""));
        }
      }
      assert.ok(approvedKeys.length > 0);
      for await (const e of Deno.readDir(join(cache, "memo"))) {
        const path = join(cache, "memo", e.name);
        const file = JSON.parse(await Deno.readTextFile(path));
        (file.value ?? file).cacheKey = approvedKeys[0];
        await Deno.writeTextFile(path, JSON.stringify(file));
      }
      const r = await stillBlocked();
      assert.match(r.stderr, /verdict memo .*did not verify/);
    });
  } finally {
    await sb.cleanup();
  }
});

/** Move a ref of the bare remote behind the hook's back (the remote, not this repository, moved). */
async function rewind(sb: Awaited<ReturnType<typeof makeGateSandbox>>, ref: string, id: string) {
  await gitOk(sb, ["--git-dir", sb.remote, "update-ref", ref, id.trim()]);
}

Deno.test("pre-push: a cost line the agent appends does not spend the daily budget", async () => {
  const sb = await makeGateSandbox();
  try {
    await writeRepoConfig(sb, { budget: { usd_per_day: 1 } });
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "budget"]);
    await gitOk(sb, ["push", "-q", "origin", "main"]);
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    const ledger = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
    await Deno.mkdir(join(sb.repo.root, ".git", "review-gate"), { recursive: true });
    const line = { finishedAt: new Date().toISOString(), costUsd: 1000, gate: "pre-push" };
    await Deno.writeTextFile(ledger, JSON.stringify(line) + "\n", { append: true });
    await commitToken(sb, "BUDGET-BUG");
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.equal(r.code, 1, `reviewed and blocked: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /over-budget/);
    assert.equal(await providerCalls(sb), 1);
    assert.match(r.stderr, /1 line of the cost ledger .*do not count toward the daily budget/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a pending stamp rewritten while review-gate runs is never sealed", async () => {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  try {
    const starts = join(sb.dir, "starts.log");
    const wrapper = join(sb.dir, "review-gate.sh");
    // review-gate runs, then (as an agent's process racing the hook would) the pending stamp's
    // answer is rewritten before the hook seals it
    await Deno.writeTextFile(
      wrapper,
      `#!/bin/sh\necho started >>'${starts}'\n'${Deno.execPath()}' run --allow-read --allow-write ` +
        `--allow-env --allow-run '${MAIN}' "$@"\ncode=$?\np=\${REVIEW_GATE_PUSH_STAMP:-}\n` +
        `if [ -n "$p" ] && [ -f "$p" ]; then sed 's/approved/FORGED/' "$p" >"$p.x" && ` +
        `mv "$p.x" "$p"; fi\nexit $code\n`,
      { mode: 0o755 },
    );
    await Deno.writeTextFile(join(root, ".git", "hooks", "pre-push"), renderPrePushStub(wrapper), {
      mode: 0o755,
    });
    const started = async () =>
      (await Deno.readTextFile(starts).catch(() => "")).split("\n").filter(Boolean).length;
    const push = (args: string[]) =>
      runGit(sb, ["push", "-q", "origin", ...args], { env: scenario("valid") });
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "FEATURE");
    await push(["feature"]);
    const base = await gitOk(sb, ["rev-parse", "main"]);
    for (let i = 0; i < 3; i++) {
      await rewind(sb, "refs/heads/feature", base);
      const before = await started();
      const r = await push(["feature"]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /FORGED/);
      assert.equal(await started(), before + 1, "no stamp was sealed: review-gate decides");
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a verdict from another reviewer binary is never a cached verdict for the configured one", async () => {
  const sb = await makeGateSandbox();
  try {
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    // a stand-in "reviewer" that approves everything and logs nothing (an agent could point a push
    // at one with REVIEW_GATE_CLAUDE_BIN)
    const approve = join(sb.dir, "approve.sh");
    await Deno.writeTextFile(
      approve,
      `#!/bin/sh\nREVIEW_GATE_FAKE_LOG=/dev/null REVIEW_GATE_FAKE_SCENARIO=valid exec '${sb.env.REVIEW_GATE_CLAUDE_BIN}' "$@"\n`,
      { mode: 0o755 },
    );
    await commitToken(sb, "BUG");
    const blocking = await blockingScenario(sb);
    const standIn = await runGit(sb, ["push", "origin", "HEAD:refs/heads/tmp"], {
      env: { REVIEW_GATE_CLAUDE_BIN: approve },
    });
    assert.equal(standIn.code, 0, standIn.stderr);
    const calls = await providerCalls(sb);
    const r = await runGit(sb, ["push", "origin", "main"], { env: scenario(blocking) });
    assert.equal(r.code, 1, `reviewed by the configured reviewer and blocked: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /cached verdict/);
    assert.equal(await providerCalls(sb), calls + 1);
  } finally {
    await sb.cleanup();
  }
});
